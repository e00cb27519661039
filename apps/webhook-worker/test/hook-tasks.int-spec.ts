import type { Database } from '@gitforge/platform';
import { uniqueSuffix } from '@gitforge/platform/testing';
import { HookDeliveryEntity, HookPayloadEntity } from '../src/webhooks/hook-task.entity.js';
import { attemptEnd } from '../src/webhooks/hook-delivery.processor.js';
import { HookTasksRepository, type AttemptRecord, type StoredTask } from '../src/webhooks/hook-tasks.repository.js';
import { openWebhookTestDatabase, type WebhookTestDatabase } from './support/database.js';

describe.each(['sqlite', 'postgres'] as const)('HookTasksRepository on %s', (engine) => {
  let opened: WebhookTestDatabase | undefined;
  let db: Database;
  let sut: HookTasksRepository;

  beforeAll(async () => {
    opened = await openWebhookTestDatabase(engine, 'hooktasks');
    db = opened.db;
    sut = new HookTasksRepository(db);
  });

  afterAll(async () => {
    await opened?.close();
  });

  const newTask = (hookId: number, eventId: string, batch = `b-${eventId}`) => ({ hookId, eventId, uuid: `u-${uniqueSuffix()}`, eventType: 'push', payload: '{}', repoId: 1, batch });
  const newTasks = (hookIds: number[]) => {
    const eventId = `e-${uniqueSuffix()}`;
    return sut.insertTasks(hookIds.map((hookId) => newTask(hookId, eventId)));
  };

  it("should create an event's tasks once and answer all of them when the event comes again", async () => {
    const eventId = `e-${uniqueSuffix()}`;
    const first = await sut.insertTasks([newTask(1, eventId), newTask(2, eventId)]);
    expect(first.map((t) => [t.hookId, t.state, t.fresh])).toEqual([
      [1, 'pending', true],
      [2, 'pending', true],
    ]);
    // Replayed with one more hook: the old tasks keep their delivery ids, and only the new one is fresh.
    const again = await sut.insertTasks([newTask(1, eventId), newTask(2, eventId), newTask(3, eventId)]);
    expect(again.map((t) => [t.hookId, t.fresh])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(again.slice(0, 2)).toEqual(first.map((t) => ({ ...t, fresh: false })));
  });

  it('should create the tasks of several events in one call, once each, answering the stored task for every ask', async () => {
    const [e1, e2] = [`e-${uniqueSuffix()}`, `e-${uniqueSuffix()}`];
    const [old] = await sut.insertTasks([newTask(1, e1)]);
    const asked = [newTask(1, e1), newTask(2, e1), newTask(1, e2), newTask(1, e2)];
    const found = await sut.insertTasks(asked);
    expect(found.map((t) => [t.hookId, t.eventId])).toEqual([
      [1, e1],
      [2, e1],
      [1, e2],
    ]);
    // The task that existed keeps its delivery id; a pair asked twice is created once, with the first ask's.
    expect(found[0]).toEqual({ ...old, fresh: false });
    expect(found[2]!.uuid).toBe(asked[2]!.uuid);
  });

  it("should store a batch's payload once, for batches with a new task only, and read it for each task; a task made before keeps its own", async () => {
    const eventId = `e-${uniqueSuffix()}`;
    const batch = `b-${uniqueSuffix()}`;
    const payloadsOf = (b: string) => db.manager.countBy(HookPayloadEntity, { batch: b });
    const made = await sut.insertTasks([1, 2, 3].map((hookId) => ({ ...newTask(hookId, eventId, batch), payload: '{"once":true}' })));
    expect(await payloadsOf(batch)).toBe(1);
    const rows = (await db.manager.query(`SELECT payload FROM hook_task WHERE batch = ${db.sql.param(1)}`, [batch])) as Array<{ payload: string }>;
    expect(rows.map((r) => r.payload)).toEqual(['', '', '']);
    const found = await sut.findTaskAttempts(made.map((t) => ({ taskId: t.id, attemptKey: 'k#0' })));
    expect(made.map((t) => found.get(`${t.id}#k#0`)!.task.payload)).toEqual(Array(3).fill('{"once":true}'));
    expect(await sut.findPayload(made[2]!.id)).toBe('{"once":true}');
    // The event fanned out again (a batch of its own) makes no task, so stores no payload.
    const replay = `b-${uniqueSuffix()}`;
    await sut.insertTasks([1, 2].map((hookId) => ({ ...newTask(hookId, eventId, replay), payload: '{"once":true}' })));
    expect(await payloadsOf(replay)).toBe(0);
    // A task from before payloads were stored by batch holds its own, and has no batch.
    const params = db.sql.params();
    const [legacy] = (await db.manager.query(
      `INSERT INTO hook_task (hook_id, event_id, uuid, event_type, payload, repo_id, state, batch, created_at) VALUES (${[9, `e-${uniqueSuffix()}`, `u-${uniqueSuffix()}`, 'push', '{"own":true}', 1, 'pending', null, Date.now()].map((v) => params.add(v)).join(', ')}) RETURNING id`,
      params.values,
    )) as Array<{ id: number }>;
    const legacyFound = await sut.findTaskAttempts([{ taskId: Number(legacy!.id), attemptKey: 'k#0' }]);
    expect(legacyFound.get(`${legacy!.id}#k#0`)!.task.payload).toBe('{"own":true}');
    expect(await sut.findPayload(Number(legacy!.id))).toBe('{"own":true}');
  });

  it('should list pending tasks with the batch their delivery job is named by', async () => {
    const before = await sut.findPendingTasks(0, 100_000);
    const after = before.length ? before[before.length - 1]!.id : 0;
    const eventId = `e-${uniqueSuffix()}`;
    const made = await sut.insertTasks([newTask(1, eventId), newTask(2, eventId)]);
    await db.transaction((m) => sut.setTaskState(m, made[1]!.id, 'delivered'));
    const pending = await sut.findPendingTasks(after, 10);
    expect(pending).toEqual([{ id: made[0]!.id, batch: `b-${eventId}`, eventType: 'push', eventId }]);
  });

  it("should find the tasks of events still pending, whatever hook they are for", async () => {
    const [e1, e2, e3] = [`e-${uniqueSuffix()}`, `e-${uniqueSuffix()}`, `e-${uniqueSuffix()}`];
    const made = await sut.insertTasks([newTask(1, e1), newTask(2, e1), newTask(1, e2), newTask(1, e3)]);
    await db.transaction((m) => sut.setTaskState(m, made[1]!.id, 'failed'));
    const found = await sut.findPendingOfEvents([e1, e2]);
    expect(found.map((t) => [t.eventId, t.hookId])).toEqual([
      [e1, 1],
      [e2, 1],
    ]);
    expect(await sut.findPendingOfEvents([])).toEqual([]);
  });

  /** An attempt as recorded before its request goes out. */
  /** An attempt as recorded once answered (status 0: a record an earlier worker wrote as the attempt started). */
  const attempt = (task: StoredTask, key: string, status: number, url = 'http://example.com/hook'): AttemptRecord => ({
    taskId: task.id,
    hookId: task.hookId,
    attemptKey: key,
    guid: task.uuid,
    eventType: 'push',
    action: null,
    repoId: 1,
    redelivery: false,
    url,
    requestHeaders: '{"X-Gitea-Event":"push"}',
    requestBody: '{"ref":"refs/heads/main"}',
    responseStatus: status,
    responseHeaders: status === 0 ? '{}' : '{"Content-Type":"text/plain"}',
    responseBody: status === 0 ? null : `answer ${status}`,
    durationMs: status === 0 ? 0 : 3,
    outcome: status === 0 ? 'sending' : status === 200 ? 'success' : 'failure',
    statusText: status === 0 ? 'Sending' : status === 200 ? 'OK' : `Invalid HTTP Response: ${status}`,
    deliveredAt: new Date(),
  });
  const records = (taskIds: number[]) => db.manager.find(HookDeliveryEntity, { where: taskIds.map((taskId) => ({ taskId })), order: { taskId: 'ASC', attemptKey: 'ASC' } });
  const states = async (tasks: StoredTask[]) => {
    const found = await sut.findTaskAttempts(tasks.map((t) => ({ taskId: t.id, attemptKey: 'none' })));
    return tasks.map((t) => found.get(`${t.id}#none`)!.task.state);
  };

  it('should answer the tasks asked for with the outcome recorded for each attempt key, in one query, leaving out unknown ids', async () => {
    const [a, b] = await newTasks([1, 2]);
    await sut.recordAttempts([{ attempt: attempt(a!, 'task-a#0', 500), taskState: null }]);
    const found = await sut.findTaskAttempts([
      { taskId: b!.id, attemptKey: 'task-b#0' },
      { taskId: a!.id, attemptKey: 'task-a#0' },
      { taskId: a!.id, attemptKey: 'task-a#1' },
      { taskId: 999_999, attemptKey: 'task-x#0' },
    ]);
    expect([...found.keys()].sort()).toEqual([`${a!.id}#task-a#0`, `${a!.id}#task-a#1`, `${b!.id}#task-b#0`].sort());
    expect(found.get(`${a!.id}#task-a#0`)).toEqual({ task: expect.objectContaining({ id: a!.id, hookId: 1, state: 'pending', uuid: a!.uuid, payload: '{}' }), previous: 'failure' });
    expect(found.get(`${a!.id}#task-a#1`)!.previous).toBeNull();
    const { fresh: _fresh, ...stored } = b!;
    expect(found.get(`${b!.id}#task-b#0`)).toEqual({ task: { ...stored, payload: '{}' }, previous: null });
  });

  it("should answer every task its event's payload, also tasks of several events and fan-outs in one batch", async () => {
    const [e1, e2] = [`e-${uniqueSuffix()}`, `e-${uniqueSuffix()}`];
    const first = await sut.insertTasks([
      { ...newTask(1, e1), payload: '{"event":1}' },
      { ...newTask(2, e1), payload: '{"event":1}' },
      { ...newTask(1, e2), payload: '{"event":2}' },
    ]);
    // A later fan-out of the first event (a hook made since): a batch of its own, with its own payload.
    const late = await sut.insertTasks([{ ...newTask(3, e1, `b-late-${e1}`), payload: '{"event":1,"late":true}' }]);
    const tasks = [...first, ...late];
    const found = await sut.findTaskAttempts(tasks.flatMap((t) => [{ taskId: t.id, attemptKey: 'k#0' }, { taskId: t.id, attemptKey: 'k#1' }]));
    expect(tasks.flatMap((t) => [found.get(`${t.id}#k#0`)!.task.payload, found.get(`${t.id}#k#1`)!.task.payload])).toEqual([
      ...Array(4).fill('{"event":1}'),
      '{"event":2}',
      '{"event":2}',
      '{"event":1,"late":true}',
      '{"event":1,"late":true}',
    ]);
  });

  it('should record a batch of answered attempts with their requests, and settle only the tasks given a state', async () => {
    const [a, b, c] = await newTasks([1, 2, 3]);
    await sut.recordAttempts([
      { attempt: attempt(a!, 'task-a#0', 200), taskState: 'delivered' },
      { attempt: attempt(b!, 'task-b#0', 500), taskState: null },
      { attempt: attempt(c!, 'task-c#0', 500), taskState: 'failed' },
    ]);
    expect(await states([a!, b!, c!])).toEqual(['delivered', 'pending', 'failed']);
    const rows = await records([a!.id, b!.id, c!.id]);
    expect(rows.map((r) => [r.attemptKey, r.responseStatus, r.outcome, r.responseBody])).toEqual([
      ['task-a#0', 200, 'success', 'answer 200'],
      ['task-b#0', 500, 'failure', 'answer 500'],
      ['task-c#0', 500, 'failure', 'answer 500'],
    ]);
    expect(rows[0]).toMatchObject({ url: 'http://example.com/hook', requestHeaders: '{"X-Gitea-Event":"push"}', requestBody: '{"ref":"refs/heads/main"}', responseHeaders: '{"Content-Type":"text/plain"}', statusText: 'OK' });
  });

  it('should replace the record of an attempt made again, within one batch and across batches, also one an earlier worker left as sending', async () => {
    const [a] = await newTasks([1]);
    await sut.recordAttempts([{ attempt: attempt(a!, 'task-a#0', 0, 'http://example.com/old'), taskState: null }]);
    // The same attempt made again (its worker died before its answer was recorded), twice in one batch, and the next one.
    await sut.recordAttempts([
      { attempt: attempt(a!, 'task-a#0', 502, 'http://example.com/older'), taskState: null },
      { attempt: attempt(a!, 'task-a#0', 200), taskState: 'delivered' },
      { attempt: attempt(a!, 'task-a#1', 500), taskState: null },
    ]);
    expect((await records([a!.id])).map((r) => [r.attemptKey, r.responseStatus, r.outcome, r.url])).toEqual([
      ['task-a#0', 200, 'success', 'http://example.com/hook'],
      ['task-a#1', 500, 'failure', 'http://example.com/hook'],
    ]);
    expect(await states([a!])).toEqual(['delivered']);
  });

  it("should record an attempt that sent the task's payload without a body of its own, the payload read from the task", async () => {
    const [a] = await newTasks([1]);
    await sut.recordAttempts([{ attempt: { ...attempt(a!, 'task-a#0', 200), requestBody: null }, taskState: null }]);
    const [row] = await records([a!.id]);
    expect(row!.requestBody).toBeNull();
    expect(await sut.findPayload(a!.id)).toBe('{}');
    expect(await sut.findPayload(999_999)).toBeNull();
  });

  it('should record the answer of a receiver whose body holds a NUL byte, which PostgreSQL text refuses', async () => {
    // Refused, the answer would fail the job after the receiver had it: sent again on every retry.
    const [a] = await newTasks([1]);
    const end = attemptEnd({ kind: 'response', status: 200, headers: {}, body: 'ok\u0000done', durationMs: 1 });
    await sut.recordAttempts([{ attempt: { ...attempt(a!, 'task-a#0', 200), ...end }, taskState: 'delivered' }]);
    const [row] = await records([a!.id]);
    expect(row).toMatchObject({ outcome: 'success', responseBody: 'ok\ufffddone' });
    expect(await states([a!])).toEqual(['delivered']);
  });

  it('should count no attempt still sending as a failure', async () => {
    // A hook of its own: the other tests record attempts of hooks 1 to 3.
    const [a] = await newTasks([4]);
    const [b] = await newTasks([4]);
    await sut.recordAttempts([
      { attempt: attempt(a!, 'task-a#0', 0), taskState: null },
      { attempt: attempt(b!, 'task-b#0', 500), taskState: null },
    ]);
    expect(await sut.recentOutcomes(4, 0, 10)).toEqual(['failure']);
  });
});
