import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServiceDataSource, Database, loadConfig, openServiceDatabase, PlatformConfig } from '@gitforge/platform';
import { createTestDatabase, uniqueSuffix, type TestDatabase } from '@gitforge/platform/testing';
import { WebhookWorkerEntities, WebhookWorkerMigrations } from '../src/entities.js';
import { HookDeliveryEntity, HookTaskEntity } from '../src/webhooks/hook-task.entity.js';
import { HookTasksRepository, type AttemptRecord } from '../src/webhooks/hook-tasks.repository.js';

describe.each(['sqlite', 'postgres'] as const)('HookTasksRepository on %s', (engine) => {
  let pgdb: TestDatabase | undefined;
  let dataDir: string;
  let db: Database;
  let sut: HookTasksRepository;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gf-hooktasks-'));
    const env: Record<string, string> = { GITFORGE_DATA_DIR: dataDir };
    if (engine === 'postgres') {
      pgdb = await createTestDatabase('hooktasks');
      env.DATABASE_URL = pgdb.url;
    }
    const ds = createServiceDataSource(loadConfig(PlatformConfig, env), {
      service: 'webhook',
      entities: WebhookWorkerEntities,
      migrations: WebhookWorkerMigrations,
    });
    await openServiceDatabase(ds, 'webhook');
    db = new Database(ds);
    sut = new HookTasksRepository(db);
  });

  afterAll(async () => {
    await db?.dataSource.destroy();
    await pgdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const newTask = (hookId: number, eventId: string) => ({ hookId, eventId, uuid: `u-${uniqueSuffix()}`, eventType: 'push', payload: '{}', repoId: 1 });
  const newTasks = (hookIds: number[]) => {
    const eventId = `e-${uniqueSuffix()}`;
    return sut.insertTasks(hookIds.map((hookId) => newTask(hookId, eventId)));
  };

  it("should create an event's tasks once and answer all of them when the event comes again", async () => {
    const eventId = `e-${uniqueSuffix()}`;
    const first = await sut.insertTasks([newTask(1, eventId), newTask(2, eventId)]);
    expect(first.map((t) => [t.hookId, t.state])).toEqual([
      [1, 'pending'],
      [2, 'pending'],
    ]);
    // Replayed with one more hook: the old tasks keep their delivery ids.
    const again = await sut.insertTasks([newTask(1, eventId), newTask(2, eventId), newTask(3, eventId)]);
    expect(again.map((t) => t.hookId)).toEqual([1, 2, 3]);
    expect(again.slice(0, 2)).toEqual(first);
  });

  const attempt = (task: HookTaskEntity, key: string, status: number): AttemptRecord => ({
    taskId: task.id,
    hookId: task.hookId,
    attemptKey: key,
    guid: task.uuid,
    eventType: 'push',
    action: null,
    repoId: 1,
    redelivery: false,
    url: 'http://example.com/hook',
    requestHeaders: '{}',
    requestBody: '{}',
    responseStatus: status,
    responseHeaders: '{}',
    responseBody: '',
    durationMs: 3,
    outcome: status === 200 ? 'success' : 'failure',
    statusText: '',
    deliveredAt: new Date(),
  });

  it('should answer the tasks asked for, in one query, leaving out unknown ids', async () => {
    const [a, b] = await newTasks([1, 2]);
    const found = await sut.findTasks([b!.id, a!.id, 999_999]);
    expect(found.map((t) => t.id).sort()).toEqual([a!.id, b!.id].sort());
    expect(found.find((t) => t.id === a!.id)).toMatchObject({ hookId: 1, state: 'pending', uuid: a!.uuid, payload: '{}' });
  });

  it('should record a batch of attempts and settle only the tasks given a state', async () => {
    const [a, b, c] = await newTasks([1, 2, 3]);
    await sut.recordAttempts([
      { attempt: attempt(a!, 'task-a#0', 200), taskState: 'delivered' },
      { attempt: attempt(b!, 'task-b#0', 500), taskState: null },
      { attempt: attempt(c!, 'task-c#0', 500), taskState: 'failed' },
    ]);
    const states = new Map((await sut.findTasks([a!.id, b!.id, c!.id])).map((t) => [t.id, t.state]));
    expect([states.get(a!.id), states.get(b!.id), states.get(c!.id)]).toEqual(['delivered', 'pending', 'failed']);
    const rows = await db.manager.find(HookDeliveryEntity, { where: [{ taskId: a!.id }, { taskId: b!.id }, { taskId: c!.id }] });
    expect(rows.map((r) => [r.attemptKey, r.responseStatus]).sort()).toEqual([
      ['task-a#0', 200],
      ['task-b#0', 500],
      ['task-c#0', 500],
    ]);
  });

  it('should replace the record of an attempt written again, within one batch and across batches', async () => {
    const [a] = await newTasks([1]);
    await sut.recordAttempts([{ attempt: attempt(a!, 'task-a#0', 500), taskState: null }]);
    await sut.recordAttempts([
      { attempt: attempt(a!, 'task-a#0', 502), taskState: null },
      { attempt: attempt(a!, 'task-a#0', 200), taskState: 'delivered' },
      { attempt: attempt(a!, 'task-a#1', 200), taskState: 'delivered' },
    ]);
    const rows = await db.manager.find(HookDeliveryEntity, { where: { taskId: a!.id }, order: { attemptKey: 'ASC' } });
    expect(rows.map((r) => [r.attemptKey, r.responseStatus])).toEqual([
      ['task-a#0', 200],
      ['task-a#1', 200],
    ]);
  });

  it("should answer the recorded outcomes of the attempts asked for, leave out those never recorded, and count no attempt still sending as a failure", async () => {
    const [a, b] = await newTasks([1, 2]);
    await sut.recordAttempts([
      { attempt: { ...attempt(a!, 'task-a#0', 0), outcome: 'sending' }, taskState: null },
      { attempt: attempt(b!, 'task-b#0', 200), taskState: 'delivered' },
    ]);
    const found = await sut.findOutcomes([
      { taskId: a!.id, attemptKey: 'task-a#0' },
      { taskId: b!.id, attemptKey: 'task-b#0' },
      { taskId: b!.id, attemptKey: 'task-b#1' },
    ]);
    expect([...found.entries()].sort()).toEqual(
      [
        [`${a!.id}#task-a#0`, 'sending'],
        [`${b!.id}#task-b#0`, 'success'],
      ].sort(),
    );
    expect(await sut.recentOutcomes(a!.hookId, 0, 10)).not.toContain('sending');
  });
});
