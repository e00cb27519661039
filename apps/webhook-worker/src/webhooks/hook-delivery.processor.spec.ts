import { jest } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HookPatterns, type HookTarget } from '@gitforge/contracts';
import { loadConfig, type Database, type QueueDriver, type RpcClient } from '@gitforge/platform';
import { target } from '../../test/fixtures.js';
import { WebhookWorkerConfig } from '../worker.config.js';
import { DeliveryFailed, HookDeliveryProcessor } from './hook-delivery.processor.js';
import type { HookDeliveryEntity, HookTaskEntity } from './hook-task.entity.js';
import type { HookTargetsCache } from './hook-targets.cache.js';
import type { AttemptRecord, HookTasksRepository } from './hook-tasks.repository.js';

/** The task store in memory, with the repository's semantics (one record per attempt key). */
class FakeTasks {
  tasks = new Map<number, HookTaskEntity>();
  attempts: HookDeliveryEntity[] = [];

  async findTaskAttempts(keys: Array<{ taskId: number; attemptKey: string }>) {
    const found = new Map<string, { task: HookTaskEntity; previous: AttemptRecord['outcome'] | null }>();
    for (const k of keys) {
      const task = this.tasks.get(k.taskId);
      if (!task) continue;
      const a = this.attempts.find((x) => x.taskId === k.taskId && x.attemptKey === k.attemptKey);
      found.set(`${k.taskId}#${k.attemptKey}`, { task: { ...task }, previous: a?.outcome ?? null });
    }
    return found;
  }
  async setTaskState(_m: unknown, id: number, state: HookTaskEntity['state']) {
    this.tasks.get(id)!.state = state;
  }
  async recordAttempts(entries: Array<{ attempt: AttemptRecord; taskState: HookTaskEntity['state'] | null }>) {
    for (const { attempt: a, taskState } of entries) {
      const existing = this.attempts.findIndex((x) => x.taskId === a.taskId && x.attemptKey === a.attemptKey);
      if (existing >= 0) this.attempts[existing] = { ...a, id: this.attempts[existing]!.id };
      else this.attempts.push({ ...a, id: this.attempts.length + 1 });
      if (taskState) this.tasks.get(a.taskId)!.state = taskState;
    }
  }
  async recentOutcomes(hookId: number, sinceMs: number, limit: number) {
    return this.attempts
      .filter((a) => a.hookId === hookId && a.deliveredAt.getTime() > sinceMs && a.outcome !== 'sending')
      .reverse()
      .slice(0, limit)
      .map((a) => a.outcome);
  }
}

function sendingRecord(): AttemptRecord {
  return {
    taskId: 1,
    hookId: 1,
    attemptKey: 'task-1#0',
    guid: 'u-1',
    eventType: 'push',
    action: null,
    repoId: 1,
    redelivery: false,
    url: 'http://127.0.0.1/hook',
    requestHeaders: '{}',
    requestBody: '{}',
    responseStatus: 0,
    responseHeaders: '{}',
    responseBody: null,
    durationMs: 0,
    outcome: 'sending',
    statusText: 'Sending',
    deliveredAt: new Date(),
  };
}

describe(HookDeliveryProcessor.name, () => {
  let server: http.Server;
  let url: string;
  let statuses: number[];
  let received: number;
  let bodies: string[];
  let tasks: FakeTasks;
  let hook: HookTarget;
  let rpcCalls: Array<{ pattern: string; body: unknown }>;
  /** The attempt records as they stood when each request reached the receiver. */
  let recordedAtReceipt: Array<Array<[string, string]>>;
  /** Delivery ids the receiver answers 500. */
  let failing: Set<string>;
  /** How long the receiver holds each request, and the most it held at once. */
  let holdMs: number;
  let inFlight: number;
  let maxInFlight: number;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      req.on('end', () => {
        received += 1;
        bodies.push(body);
        recordedAtReceipt.push(tasks.attempts.map((a) => [a.attemptKey, a.outcome]));
        res.statusCode = failing.has(String(req.headers['x-gitea-delivery'])) ? 500 : (statuses.shift() ?? 200);
        setTimeout(() => {
          inFlight -= 1;
          res.end('');
        }, holdMs);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  function makeSut(env: Record<string, string> = {}): HookDeliveryProcessor {
    const config = loadConfig(WebhookWorkerConfig, { GITFORGE_WEBHOOK_ALLOW_LOOPBACK: '1', GITFORGE_WEBHOOK_DISABLE_AFTER_FAILURES: '3', ...env });
    const db = { transaction: <T>(fn: (m: unknown) => Promise<T>) => fn({}) } as unknown as Database;
    const cache = { get: async () => hook, forget: () => undefined } as unknown as HookTargetsCache;
    const rpc = {
      call: async (pattern: string, call: { body: unknown }) => {
        rpcCalls.push({ pattern, body: call.body });
      },
    } as unknown as RpcClient;
    return new HookDeliveryProcessor({} as QueueDriver, db, tasks as unknown as HookTasksRepository, cache, rpc, config);
  }

  beforeEach(() => {
    statuses = [];
    received = 0;
    bodies = [];
    rpcCalls = [];
    recordedAtReceipt = [];
    failing = new Set();
    holdMs = 0;
    inFlight = 0;
    maxInFlight = 0;
    tasks = new FakeTasks();
    hook = target({ url });
    tasks.tasks.set(1, { id: 1, hookId: hook.id, eventId: 'e1', uuid: 'u-1', eventType: 'push', payload: '{"ref":"refs/heads/main"}', repoId: 1, state: 'pending', batch: 'b1', createdAt: new Date() });
  });

  const job = (attemptsMade: number, maxAttempts = 3, redelivery = false, recovered = false) => ({ id: 'task-1', name: 'push', attemptsMade, recovered, data: { taskIds: [1], maxAttempts, redelivery } });

  /** Tasks 2… of the same event as task 1, each its own delivery id. */
  function moreTasks(count: number): number[] {
    const ids = [1];
    for (let id = 2; id <= count + 1; id++) {
      tasks.tasks.set(id, { ...tasks.tasks.get(1)!, id, uuid: `u-${id}` });
      ids.push(id);
    }
    return ids;
  }
  const eventJob = (taskIds: number[], attemptsMade: number, maxAttempts = 3) => ({ id: 'batch-b1', name: 'push', attemptsMade, recovered: false, data: { taskIds, maxAttempts, redelivery: false } });

  it("should deliver every task of an event's job, and run again only for those not delivered", async () => {
    const ids = moreTasks(2);
    failing.add('u-2');
    const sut = makeSut();
    await expect(sut.handle(eventJob(ids, 0))).rejects.toBeInstanceOf(DeliveryFailed);
    expect(received).toBe(3);
    expect(ids.map((id) => tasks.tasks.get(id)!.state)).toEqual(['delivered', 'pending', 'delivered']);
    failing.clear();
    await sut.handle(eventJob(ids, 1));
    expect(received).toBe(4);
    expect(ids.map((id) => tasks.tasks.get(id)!.state)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(tasks.attempts.map((a) => [a.taskId, a.attemptKey, a.outcome])).toEqual([
      [1, 'batch-b1#0', 'success'],
      [2, 'batch-b1#0', 'failure'],
      [3, 'batch-b1#0', 'success'],
      [2, 'batch-b1#1', 'success'],
    ]);
  });

  it('should attempt tasks its caller holds without reading them, and name those to attempt again', async () => {
    const ids = moreTasks(2);
    failing.add('u-3');
    const held = { task: { ...tasks.tasks.get(2)!, payload: '{"held":true}' }, previous: null };
    const { failed, crash } = await makeSut().attempt([1, held, 3], { key: 'event-1#0', lastAttempt: false, redelivery: false, recovered: false });
    expect(crash).toBeUndefined();
    expect(failed).toBeInstanceOf(DeliveryFailed);
    expect(failed!.taskIds).toEqual([3]);
    expect(received).toBe(3);
    // The held task went out with the payload it was given, not the stored one (nor the bytes of its batch's).
    expect(bodies.sort()).toEqual(['{"held":true}', '{"ref":"refs/heads/main"}', '{"ref":"refs/heads/main"}']);
    expect(ids.map((id) => tasks.tasks.get(id)!.state)).toEqual(['delivered', 'delivered', 'pending']);
  });

  it("should close, on the job's last attempt, the tasks that failed it and keep those delivered", async () => {
    const ids = moreTasks(1);
    failing.add('u-1');
    await makeSut().handle(eventJob(ids, 1, 2));
    expect(ids.map((id) => tasks.tasks.get(id)!.state)).toEqual(['failed', 'delivered']);
  });

  it('should send at most GITFORGE_WEBHOOK_CONCURRENCY deliveries at once across jobs', async () => {
    const ids = moreTasks(5);
    holdMs = 20;
    const sut = makeSut({ GITFORGE_WEBHOOK_CONCURRENCY: '2' });
    await Promise.all([sut.handle(eventJob(ids.slice(0, 3), 0)), sut.handle({ ...eventJob(ids.slice(3), 0), id: 'batch-b2' })]);
    expect(received).toBe(6);
    expect(maxInFlight).toBe(2);
    expect(ids.every((id) => tasks.tasks.get(id)!.state === 'delivered')).toBe(true);
  });

  it('should free a delivery slot once the answer is in, not once its record has committed', async () => {
    const ids = moreTasks(2);
    // Records wait until every request has reached the receiver: with one slot, a slot held
    // until its record commits would never let the second request out (the job would not end).
    let release!: () => void;
    const allSent = new Promise<void>((resolve) => (release = resolve));
    let requests = 0;
    const onRequest = (): void => {
      if (++requests === ids.length) release();
    };
    server.on('request', onRequest);
    const record = tasks.recordAttempts.bind(tasks);
    tasks.recordAttempts = async (entries) => {
      await allSent;
      return record(entries);
    };
    try {
      await makeSut({ GITFORGE_WEBHOOK_CONCURRENCY: '1' }).handle(eventJob(ids, 0));
    } finally {
      server.off('request', onRequest);
    }
    expect(received).toBe(ids.length);
    expect(maxInFlight).toBe(1);
    expect(ids.every((id) => tasks.tasks.get(id)!.state === 'delivered')).toBe(true);
  });

  it('should read the hook when a task gets its slot: one deactivated while the task waited is not sent to', async () => {
    const ids = moreTasks(1);
    const deactivate = (): void => {
      hook = { ...hook, isActive: false };
    };
    server.once('request', deactivate);
    await makeSut({ GITFORGE_WEBHOOK_CONCURRENCY: '1' }).handle(eventJob(ids, 0));
    expect(received).toBe(1);
    expect(ids.map((id) => tasks.tasks.get(id)!.state)).toEqual(['delivered', 'failed']);
  });

  it('should deliver a job queued before tasks were grouped, which names one task', async () => {
    await makeSut().handle({ id: 'task-1', name: 'push', attemptsMade: 0, recovered: false, data: { taskId: 1, maxAttempts: 3, redelivery: false } as never });
    expect(received).toBe(1);
    expect(tasks.tasks.get(1)!.state).toBe('delivered');
  });

  it('should deliver, record the attempt and close the task', async () => {
    const sut = makeSut();
    const warn = jest.spyOn((sut as unknown as { log: { warn: (...args: unknown[]) => void } }).log, 'warn');
    await sut.handle(job(0));
    // A first run no worker started before: nothing may have reached the receiver yet.
    expect(warn).not.toHaveBeenCalled();
    expect(received).toBe(1);
    expect(tasks.tasks.get(1)!.state).toBe('delivered');
    expect(tasks.attempts).toEqual([expect.objectContaining({ attemptKey: 'task-1#0', guid: 'u-1', outcome: 'success', responseStatus: 200, statusText: 'OK' })]);
    // A gitea hook is sent the stored payload: the record reads it from the task.
    expect(tasks.attempts[0]!.requestBody).toBeNull();
  });

  it('should fail the job on a 500 so the queue retries it, and close the task after the last attempt', async () => {
    statuses = [500, 500];
    const sut = makeSut();
    await expect(sut.handle(job(0, 2))).rejects.toBeInstanceOf(DeliveryFailed);
    expect(tasks.tasks.get(1)!.state).toBe('pending');
    await sut.handle(job(1, 2));
    expect(tasks.tasks.get(1)!.state).toBe('failed');
    expect(tasks.attempts.map((a) => [a.attemptKey, a.responseStatus, a.outcome])).toEqual([
      ['task-1#0', 500, 'failure'],
      ['task-1#1', 500, 'failure'],
    ]);
  });

  it('should not make again an attempt whose failure was recorded, leaving the next one to the queue', async () => {
    statuses = [500, 200];
    const sut = makeSut();
    await expect(sut.handle(job(0))).rejects.toBeInstanceOf(DeliveryFailed);
    // The queue runs the same attempt again (its worker died before the job was acknowledged).
    await expect(sut.handle(job(0))).rejects.toBeInstanceOf(DeliveryFailed);
    expect(received).toBe(1);
    await sut.handle(job(1));
    expect(tasks.attempts.map((a) => [a.attemptKey, a.outcome, a.responseStatus])).toEqual([
      ['task-1#0', 'failure', 500],
      ['task-1#1', 'success', 200],
    ]);
  });

  it('should record the attempt once, when its answer is in', async () => {
    const sut = makeSut();
    await sut.handle(job(0));
    expect(recordedAtReceipt).toEqual([[]]);
    expect(tasks.attempts.map((a) => [a.outcome, a.responseStatus])).toEqual([['success', 200]]);
  });

  it('should send again, under the same delivery id, an attempt whose worker died mid-send, and warn that it may come twice', async () => {
    const sut = makeSut();
    const warn = jest.spyOn((sut as unknown as { log: { warn: (...args: unknown[]) => void } }).log, 'warn');
    // What a worker killed mid-send leaves: no record of the attempt, the task pending.
    await sut.handle(job(0, 3, false, true));
    expect(warn).toHaveBeenCalledWith({ taskId: 1, delivery: 'u-1' }, expect.stringContaining('the receiver may get it twice'));
    expect(received).toBe(1);
    expect(tasks.attempts).toEqual([expect.objectContaining({ attemptKey: 'task-1#0', guid: 'u-1', outcome: 'success' })]);
    expect(tasks.tasks.get(1)!.state).toBe('delivered');
  });

  it('should send again an attempt an earlier worker recorded as sending, completing its record', async () => {
    const sut = makeSut();
    // What a worker from before attempts were recorded only once answered left when killed mid-send.
    tasks.attempts.push({ ...sendingRecord(), id: 1 });
    await sut.handle(job(0, 3, false, true));
    expect(received).toBe(1);
    expect(tasks.attempts).toEqual([expect.objectContaining({ id: 1, attemptKey: 'task-1#0', guid: 'u-1', outcome: 'success' })]);
    expect(tasks.tasks.get(1)!.state).toBe('delivered');
  });

  it('should not send again a redelivery whose attempt already succeeded (its worker died before the queue heard)', async () => {
    const sut = makeSut();
    await sut.handle(job(0, 3, true));
    expect(received).toBe(1);
    // The queue runs the same job again: its worker died after recording the answer.
    await sut.handle(job(0, 3, true));
    expect(received).toBe(1);
    expect(tasks.attempts).toEqual([expect.objectContaining({ attemptKey: 'task-1#0', outcome: 'success', redelivery: true })]);
  });

  it('should record a refused address as refused and not retry it', async () => {
    hook = target({ url: 'http://169.254.169.254/' });
    const sut = makeSut();
    await sut.handle(job(0));
    expect(tasks.attempts[0]).toMatchObject({ outcome: 'refused', statusText: expect.stringMatching(/^Refused: /) });
    expect(tasks.tasks.get(1)!.state).toBe('failed');
  });

  it('should deactivate a hook after the configured consecutive failures since its last change', async () => {
    statuses = [500, 500, 200, 500, 500, 500];
    const sut = makeSut();
    await expect(sut.handle(job(0, 9))).rejects.toBeInstanceOf(DeliveryFailed);
    await expect(sut.handle(job(1, 9))).rejects.toBeInstanceOf(DeliveryFailed);
    await sut.handle(job(2, 9));
    tasks.tasks.get(1)!.state = 'pending';
    await expect(sut.handle(job(3, 9))).rejects.toBeInstanceOf(DeliveryFailed);
    await expect(sut.handle(job(4, 9))).rejects.toBeInstanceOf(DeliveryFailed);
    expect(rpcCalls).toEqual([]);
    await expect(sut.handle(job(5, 9))).rejects.toBeInstanceOf(DeliveryFailed);
    expect(rpcCalls).toEqual([{ pattern: HookPatterns.autoDisable, body: { hookId: hook.id } }]);
  });

  it('should not count failures from before the hook was last changed', async () => {
    statuses = [500, 500, 500];
    const sut = makeSut();
    await expect(sut.handle(job(0, 9))).rejects.toBeInstanceOf(DeliveryFailed);
    await expect(sut.handle(job(1, 9))).rejects.toBeInstanceOf(DeliveryFailed);
    hook = { ...hook, updatedAtMs: Date.now() + 1 };
    await expect(sut.handle(job(2, 9))).rejects.toBeInstanceOf(DeliveryFailed);
    expect(rpcCalls).toEqual([]);
  });

  it('should close without sending a task whose hook was deactivated', async () => {
    hook = target({ url, isActive: false });
    await makeSut().handle(job(0));
    expect(received).toBe(0);
    expect(tasks.attempts).toEqual([]);
    expect(tasks.tasks.get(1)!.state).toBe('failed');
  });

  it('should not send a delivered task again unless redelivered, keeping the delivery id', async () => {
    tasks.tasks.get(1)!.state = 'delivered';
    const sut = makeSut();
    await sut.handle(job(0));
    expect(received).toBe(0);
    await sut.handle({ ...job(0, 1, true), id: 'task-1-redelivery-x' });
    expect(received).toBe(1);
    // Recorded only once answered, a redelivery's record holds its body: the cleanup may take an old task meanwhile.
    expect(tasks.attempts).toEqual([expect.objectContaining({ guid: 'u-1', redelivery: true, outcome: 'success', requestBody: '{"ref":"refs/heads/main"}' })]);
  });
});
