import type { CommitStatusPayload, HookTarget } from '@gitforge/contracts';
import { loadConfig, type QueueDriver, type RpcClient } from '@gitforge/platform';
import { envelope, repo, target, user } from '../../test/fixtures.js';
import { WebhookWorkerConfig } from '../worker.config.js';
import type { DeliveryQueue, QueuedTask } from './delivery-queue.js';
import { DeliveryFailed, type AttemptRun, type HookDeliveryProcessor } from './hook-delivery.processor.js';
import { HookFanoutProcessor } from './hook-fanout.processor.js';
import type { HookTargetsCache } from './hook-targets.cache.js';
import type { HookTasksRepository, InsertedTask, NewTask, StoredTask, TaskAttempt } from './hook-tasks.repository.js';

const owner = user(1, 'alice');
const status = (): CommitStatusPayload =>
  ({
    commit: null,
    context: 'ci',
    created_at: '2024-05-01T10:00:00Z',
    description: '',
    id: 1,
    repository: repo(3, owner, 'tools'),
    sender: owner,
    sha: 'a'.repeat(40),
    state: 'success',
    target_url: '',
    updated_at: '2024-05-01T10:00:00Z',
  }) as unknown as CommitStatusPayload;

/** The fan-out with its collaborators faked: hooks matching now, tasks stored, jobs queued, attempts made. */
function setup(options: { matching: HookTarget[]; stored?: StoredTask[]; queuedJobs?: string[]; failing?: number[]; crash?: boolean }) {
  let nextId = 100;
  const attempts: Array<{ given: Array<number | TaskAttempt>; key: string }> = [];
  const retried: QueuedTask[][] = [];
  const stored = [...(options.stored ?? [])];
  const tasks = {
    insertTasks: async (asked: NewTask[]): Promise<InsertedTask[]> =>
      asked.map((t) => {
        const old = stored.find((s) => s.hookId === t.hookId && s.eventId === t.eventId);
        if (old) return { ...old, fresh: false };
        const made = { id: nextId++, hookId: t.hookId, eventId: t.eventId, uuid: t.uuid, eventType: t.eventType, repoId: t.repoId, state: 'pending' as const, batch: t.batch, createdAt: new Date() };
        stored.push(made);
        return { ...made, fresh: true };
      }),
    findPendingOfEvents: async (ids: string[]) => stored.filter((s) => ids.includes(s.eventId) && s.state === 'pending'),
  } as unknown as HookTasksRepository;
  const queue = { unfinished: async (_q: string, ids: string[]) => new Set(ids.filter((id) => options.queuedJobs?.includes(id))) } as unknown as QueueDriver;
  const rpc = { call: async (_p: string, call: { body: { queries: unknown[] } }) => call.body.queries.map(() => options.matching) } as unknown as RpcClient;
  const delivery = {
    attempt: async (given: Array<number | TaskAttempt>, run: AttemptRun) => {
      attempts.push({ given, key: run.key });
      const ids = given.map((g) => (typeof g === 'number' ? g : g.task.id)).filter((id) => options.failing?.includes(id));
      return { ...(ids.length > 0 ? { failed: new DeliveryFailed('500', ids) } : {}), ...(options.crash ? { crash: new Error('the answer could not be written') } : {}) };
    },
  } as unknown as HookDeliveryProcessor;
  const deliveries = { retry: async (t: QueuedTask[]) => void retried.push(t) } as unknown as DeliveryQueue;
  const sut = new HookFanoutProcessor(
    queue,
    rpc,
    tasks,
    { prime: () => undefined } as unknown as HookTargetsCache,
    deliveries,
    delivery,
    loadConfig(WebhookWorkerConfig, {}),
  );
  return { sut, attempts, retried };
}

const pendingTask = (id: number, hookId: number, eventId: string, batch: string): StoredTask => ({
  id,
  hookId,
  eventId,
  uuid: `u-${id}`,
  eventType: 'status',
  repoId: 3,
  state: 'pending',
  batch,
  createdAt: new Date(),
});

describe(HookFanoutProcessor.name, () => {
  it("should attempt an event's new tasks at once with the payload it holds, keyed by its job", async () => {
    const { sut, attempts, retried } = setup({ matching: [target({ id: 7 }), target({ id: 8 })] });
    const e = envelope('commit_status.created', status(), 3);
    await sut.handle({ id: e.id, name: e.name, data: e, attemptsMade: 0, recovered: false });
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.key).toBe(`${e.id}#0`);
    expect(attempts[0]!.given.map((g) => (typeof g === 'number' ? g : { hook: g.task.hookId, previous: g.previous, payload: JSON.parse(g.task.payload).context }))).toEqual([
      { hook: 7, previous: null, payload: 'ci' },
      { hook: 8, previous: null, payload: 'ci' },
    ]);
    expect(retried).toEqual([]);
  });

  it('should attempt again, by id, what an earlier run of the event left pending, also for a hook it no longer reaches', async () => {
    const e = envelope('commit_status.created', status(), 3);
    const { sut, attempts } = setup({ matching: [target({ id: 7 })], stored: [pendingTask(1, 7, e.id, 'b1'), pendingTask(2, 9, e.id, 'b1')] });
    // The first attempt again, its worker having died.
    await sut.handle({ id: e.id, name: e.name, data: e, attemptsMade: 0, recovered: true });
    expect(attempts[0]!.given).toEqual([1, 2]);
  });

  it('should not look for what an earlier run left in a first run that no worker started before', async () => {
    const e = envelope('commit_status.created', status(), 3);
    const { sut, attempts } = setup({ matching: [target({ id: 7 })], stored: [pendingTask(1, 7, e.id, 'b1'), pendingTask(2, 9, e.id, 'b1')] });
    await sut.handle({ id: e.id, name: e.name, data: e, attemptsMade: 0, recovered: false });
    expect(attempts).toEqual([]);
  });

  it('should attempt what is left pending even when no hook matches any more', async () => {
    const e = envelope('commit_status.created', status(), 3);
    const { sut, attempts } = setup({ matching: [], stored: [pendingTask(1, 9, e.id, 'b1')] });
    await sut.handle({ id: e.id, name: e.name, data: e, attemptsMade: 1, recovered: false });
    expect(attempts).toEqual([{ given: [1], key: `${e.id}#1` }]);
  });

  it('should leave to its queued retry (or its batch’s job) a task of an earlier run, attempt the others, and attempt nothing for an event without hooks', async () => {
    const e = envelope('commit_status.created', status(), 3);
    const stored = [pendingTask(1, 9, e.id, 'b1'), pendingTask(2, 8, e.id, 'b1')];
    const retrying = setup({ matching: [], stored, queuedJobs: ['retry-1'] });
    await retrying.sut.handle({ id: e.id, name: e.name, data: e, attemptsMade: 1, recovered: false });
    expect(retrying.attempts).toEqual([{ given: [2], key: `${e.id}#1` }]);
    const swept = setup({ matching: [], stored, queuedJobs: ['batch-b1'] });
    await swept.sut.handle({ id: e.id, name: e.name, data: e, attemptsMade: 1, recovered: false });
    expect(swept.attempts).toEqual([]);
    const none = setup({ matching: [] });
    await none.sut.handle({ id: e.id, name: e.name, data: e, attemptsMade: 0, recovered: false });
    expect(none.attempts).toEqual([]);
  });

  it('should queue the failed tasks for their retry before an error elsewhere fails the job', async () => {
    const e = envelope('commit_status.created', status(), 3);
    const { sut, retried } = setup({ matching: [target({ id: 7 }), target({ id: 8 })], failing: [101], crash: true });
    await expect(sut.handle({ id: e.id, name: e.name, data: e, attemptsMade: 0, recovered: false })).rejects.toThrow('the answer could not be written');
    expect(retried.map((batch) => batch.map((t) => t.id))).toEqual([[101]]);
  });
});
