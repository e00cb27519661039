import type { EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import { uniqueSuffix } from '@gitforge/platform/testing';
import { RetentionRepository } from '../src/maintenance/retention.repository.js';
import { HookDeliveryEntity, HookPayloadEntity, HookTaskEntity } from '../src/webhooks/hook-task.entity.js';
import { HookTasksRepository } from '../src/webhooks/hook-tasks.repository.js';
import { openWebhookTestDatabase, type WebhookTestDatabase } from './support/database.js';

/** A handle whose next transaction first lets `before` run: a write landing between a read and the delete it decides. */
class InterleavedDatabase extends Database {
  before: (() => Promise<void>) | undefined;

  override async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const before = this.before;
    this.before = undefined;
    await before?.();
    return super.transaction(work);
  }
}

describe.each(['sqlite', 'postgres'] as const)('RetentionRepository on %s', (engine) => {
  let opened: WebhookTestDatabase | undefined;
  let db: Database;
  let racing: InterleavedDatabase;
  let tasks: HookTasksRepository;
  let sut: RetentionRepository;

  beforeAll(async () => {
    opened = await openWebhookTestDatabase(engine, 'retention');
    db = opened.db;
    racing = new InterleavedDatabase(db.dataSource);
    tasks = new HookTasksRepository(db);
    sut = new RetentionRepository(racing);
  });

  afterAll(async () => {
    await opened?.close();
  });

  it('should keep a finished task that an attempt (a redelivery) recorded itself against while the cleanup ran', async () => {
    const [task] = await tasks.insertTasks([{ hookId: 1, eventId: `e-${uniqueSuffix()}`, uuid: `u-${uniqueSuffix()}`, eventType: 'push', payload: '{"a":1}', repoId: 1, batch: `b-${uniqueSuffix()}` }]);
    await db.transaction((m) => tasks.setTaskState(m, task!.id, 'delivered'));
    // The attempt's record holds no body of its own (it sent the task's payload): the task must stay.
    racing.before = () =>
      tasks.recordAttempts([
        {
          attempt: {
            taskId: task!.id,
            hookId: 1,
            attemptKey: 'redelivery#0',
            guid: task!.uuid,
            eventType: 'push',
            action: null,
            repoId: 1,
            redelivery: true,
            url: 'http://example.com/hook',
            requestHeaders: '{}',
            requestBody: null,
            responseStatus: 200,
            responseHeaders: '{}',
            responseBody: 'ok',
            durationMs: 1,
            outcome: 'success',
            statusText: 'OK',
            deliveredAt: new Date(),
          },
          taskState: null,
        },
      ]);
    expect(await sut.deleteFinishedTasksBefore(new Date(Date.now() + 60_000))).toBe(0);
    expect(await db.manager.countBy(HookTaskEntity, { id: task!.id })).toBe(1);
    expect(await tasks.findPayload(task!.id)).toBe('{"a":1}');
    expect(await db.manager.countBy(HookDeliveryEntity, { taskId: task!.id })).toBe(1);
  });

  it('should delete finished tasks without records, leaving pending ones, and count them', async () => {
    const eventId = `e-${uniqueSuffix()}`;
    const [done, pending] = await tasks.insertTasks([1, 2].map((hookId) => ({ hookId, eventId, uuid: `u-${uniqueSuffix()}`, eventType: 'push', payload: '{}', repoId: 1, batch: `b-${eventId}` })));
    await db.transaction((m) => tasks.setTaskState(m, done!.id, 'failed'));
    expect(await sut.deleteFinishedTasksBefore(new Date(Date.now() + 60_000))).toBe(1);
    expect(await db.manager.countBy(HookTaskEntity, { id: done!.id })).toBe(0);
    expect(await db.manager.countBy(HookTaskEntity, { id: pending!.id })).toBe(1);
  });

  it("should delete a batch's stored payload once none of its tasks is left, and not before", async () => {
    const eventId = `e-${uniqueSuffix()}`;
    const batch = `b-${uniqueSuffix()}`;
    const [first, second] = await tasks.insertTasks([1, 2].map((hookId) => ({ hookId, eventId, uuid: `u-${uniqueSuffix()}`, eventType: 'push', payload: '{"shared":true}', repoId: 1, batch })));
    const later = new Date(Date.now() + 60_000);
    const payloads = () => db.manager.countBy(HookPayloadEntity, { batch });
    expect(await payloads()).toBe(1);
    await db.transaction((m) => tasks.setTaskState(m, first!.id, 'delivered'));
    await sut.deleteFinishedTasksBefore(later);
    expect(await sut.deleteUnusedPayloadsBefore(later)).toBe(0);
    expect(await tasks.findPayload(second!.id)).toBe('{"shared":true}');
    await db.transaction((m) => tasks.setTaskState(m, second!.id, 'failed'));
    await sut.deleteFinishedTasksBefore(later);
    expect(await sut.deleteUnusedPayloadsBefore(new Date(Date.now() - 60_000))).toBe(0);
    expect(await sut.deleteUnusedPayloadsBefore(later)).toBeGreaterThanOrEqual(1);
    expect(await payloads()).toBe(0);
  });
});
