import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueueNames } from '@gitforge/contracts';
import { BullMqDriver, foregroundRequests, SqliteQueueDriver, type QueueDriverOptions } from '@gitforge/platform';
import { dropRedisNamespace, expectEventually, requireRedis, testRedisUrl, uniqueSuffix } from '@gitforge/platform/testing';

/** A job handler that runs until released, recording each start. */
function blockingHandler() {
  const starts: Array<{ id: string; attempt: number; recovered: boolean }> = [];
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    starts,
    release,
    handler: async (job: { id: string; attemptsMade: number; recovered: boolean }) => void (starts.push({ id: job.id, attempt: job.attemptsMade, recovered: job.recovered }), await released),
  };
}

describe('BullMQ driver shutdown and stalled jobs', () => {
  const prefix = `gftest-${uniqueSuffix()}`;
  const options: QueueDriverOptions = { lockMs: 1000, shutdownGraceMs: 300 };

  beforeAll(async () => {
    await requireRedis();
  });

  afterAll(async () => {
    await dropRedisNamespace(prefix);
  });

  it('should let a running job finish within the shutdown grace and not run it again', async () => {
    const first = new BullMqDriver(testRedisUrl(), prefix, { lockMs: 1000, shutdownGraceMs: 5000 });
    const runs: string[] = [];
    first.process(QueueNames.feeds, async (job) => {
      runs.push(job.id);
      await new Promise((r) => setTimeout(r, 300));
      runs.push(`${job.id} done`);
    });
    await first.add(QueueNames.feeds, 'e', {}, { jobId: 'finishes' });
    await expectEventually(() => expect(runs).toContain('finishes'));
    await first.close();
    expect(runs).toEqual(['finishes', 'finishes done']);
    const second = new BullMqDriver(testRedisUrl(), prefix, options);
    expect(await second.pendingCount(QueueNames.feeds)).toBe(0);
    await second.close();
  });

  it('should return a job still running after the grace to the queue, where another worker takes it as stalled', async () => {
    const queue = QueueNames.webhookDeliveries;
    const first = new BullMqDriver(testRedisUrl(), prefix, options);
    const stuck = blockingHandler();
    first.process(queue, stuck.handler);
    await first.add(queue, 'e', {}, { jobId: 'stuck', attempts: 2, backoffMs: 10 });
    await expectEventually(() => expect(stuck.starts).toEqual([{ id: 'stuck', attempt: 0, recovered: false }]));
    await first.close();

    const second = new BullMqDriver(testRedisUrl(), prefix, options);
    const seen: Array<{ id: string; attempt: number; recovered: boolean }> = [];
    second.process(queue, async (job) => {
      seen.push({ id: job.id, attempt: job.attemptsMade, recovered: job.recovered });
      if (job.attemptsMade === 0) throw new Error('again');
    });
    // A stalled job runs again as the same attempt (it never failed), and says it was taken over;
    // the attempt after it failed was started once.
    await expectEventually(
      () =>
        expect(seen).toEqual([
          { id: 'stuck', attempt: 0, recovered: true },
          { id: 'stuck', attempt: 1, recovered: false },
        ]),
      { timeoutMs: 15_000 },
    );
    stuck.release();
    await second.close();
  });
});

describe('SQLite queue driver shutdown', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gf-queue-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('should run a job still running after the grace again at the next start', async () => {
    const file = join(dir, 'queue.sqlite');
    const first = SqliteQueueDriver.acquire(file, { lockMs: 1000, shutdownGraceMs: 100 });
    const stuck = blockingHandler();
    first.process(QueueNames.webhooks, stuck.handler);
    await first.add(QueueNames.webhooks, 'e', {}, { jobId: 'cut-off', attempts: 2, backoffMs: 10 });
    await expectEventually(() => expect(stuck.starts).toEqual([{ id: 'cut-off', attempt: 0, recovered: false }]));
    await first.close();

    const second = SqliteQueueDriver.acquire(file);
    const seen: Array<{ id: string; attempt: number; recovered: boolean }> = [];
    second.process(QueueNames.webhooks, async (job) => {
      seen.push({ id: job.id, attempt: job.attemptsMade, recovered: job.recovered });
      if (job.attemptsMade === 0) throw new Error('again');
    });
    await expectEventually(() =>
      expect(seen).toEqual([
        { id: 'cut-off', attempt: 0, recovered: true },
        { id: 'cut-off', attempt: 1, recovered: false },
      ]),
    );
    stuck.release();
    await second.close();
  });

  it('should start the jobs that wake an idle queue once the requests in flight are answered, or after a bounded wait', async () => {
    const patient = SqliteQueueDriver.acquire(join(dir, 'patient.sqlite'), { lockMs: 1000, shutdownGraceMs: 100, foregroundWaitMs: 600_000 });
    const started: string[] = [];
    patient.process(QueueNames.feeds, async (job) => void started.push(job.id));
    const leave = foregroundRequests.enter();
    try {
      await patient.add(QueueNames.feeds, 'e', {}, { jobId: 'after-the-answer' });
      await expectEventually(() => expect(foregroundRequests.waiting).toBe(1));
      expect(started).toEqual([]);
      leave();
      await expectEventually(() => expect(started).toEqual(['after-the-answer']));
      // A queue closed while it waits stops waiting.
      const again = foregroundRequests.enter();
      try {
        await patient.add(QueueNames.feeds, 'e', {}, { jobId: 'never-started' });
        await expectEventually(() => expect(foregroundRequests.waiting).toBe(1));
        await patient.close();
        expect(foregroundRequests.waiting).toBe(0);
        expect(started).toEqual(['after-the-answer']);
      } finally {
        again();
      }
    } finally {
      leave();
      await patient.close();
    }

    // A request that is never answered holds a queue up for the bounded wait only.
    const bounded = SqliteQueueDriver.acquire(join(dir, 'bounded.sqlite'), { lockMs: 1000, shutdownGraceMs: 100, foregroundWaitMs: 10 });
    bounded.process(QueueNames.feeds, async (job) => void started.push(job.id));
    const never = foregroundRequests.enter();
    try {
      await bounded.add(QueueNames.feeds, 'e', {}, { jobId: 'bounded' });
      await expectEventually(() => expect(started).toEqual(['after-the-answer', 'bounded']));
    } finally {
      never();
      await bounded.close();
    }
  });

  it('should finish a running job within the grace and not run it again', async () => {
    const file = join(dir, 'queue.sqlite');
    const first = SqliteQueueDriver.acquire(file, { lockMs: 1000, shutdownGraceMs: 5000 });
    const runs: string[] = [];
    first.process(QueueNames.webhooks, async (job) => {
      runs.push(job.id);
      await new Promise((r) => setTimeout(r, 200));
      runs.push(`${job.id} done`);
    });
    await first.add(QueueNames.webhooks, 'e', {}, { jobId: 'finishes' });
    await expectEventually(() => expect(runs).toContain('finishes'));
    await first.close();
    expect(runs).toEqual(['finishes', 'finishes done']);
    const second = SqliteQueueDriver.acquire(file);
    expect(await second.pendingCount(QueueNames.webhooks)).toBe(0);
    await second.close();
  });
});

/** Two drivers on one queue both declare the scheduler, as every replica does at start. */
describe.each(['bullmq', 'sqlite'] as const)('job schedulers on the %s driver', (engine) => {
  const prefix = `gftest-${uniqueSuffix()}`;
  let dir: string;

  beforeAll(async () => {
    if (engine === 'bullmq') await requireRedis();
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gf-sched-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  afterAll(async () => {
    if (engine === 'bullmq') await dropRedisNamespace(prefix);
  });

  const open = () =>
    engine === 'bullmq'
      ? new BullMqDriver(testRedisUrl(), prefix, { lockMs: 2000, shutdownGraceMs: 500 })
      : SqliteQueueDriver.acquire(join(dir, 'queue.sqlite'), { lockMs: 2000, shutdownGraceMs: 500 });

  it('should queue each aligned tick once however many declare it, and none once unscheduled', async () => {
    const queue = QueueNames.adminCron;
    const [a, b] = [open(), open()];
    const ticks: string[] = [];
    for (const d of [a, b]) d.process<{ n: number }>(queue, async (job) => void ticks.push(job.id));
    await a.schedule(queue, 'every-second', { everyMs: 1000 }, 'tick', { n: 1 });
    await b.schedule(queue, 'every-second', { everyMs: 1000 }, 'tick', { n: 1 });
    await expectEventually(() => expect(ticks.length).toBeGreaterThanOrEqual(3), { timeoutMs: 10_000 });
    await a.unschedule(queue, 'every-second');
    const times = ticks.map((id) => Number(id.split(':').pop()));
    expect(new Set(times).size).toBe(times.length);
    for (const t of times) expect(t % 1000).toBe(0);
    // Removed: no next tick waits in the queue any more.
    await expectEventually(async () => expect(await a.pendingCount(queue)).toBe(0), { timeoutMs: 5000 });
    await a.close();
    await b.close();
  });
});

describe.each(['bullmq', 'sqlite'] as const)('unfinished jobs on the %s driver', (engine) => {
  const prefix = `gftest-${uniqueSuffix()}`;
  let dir: string;

  beforeAll(async () => {
    if (engine === 'bullmq') await requireRedis();
    dir = mkdtempSync(join(tmpdir(), 'gf-unfinished-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (engine === 'bullmq') await dropRedisNamespace(prefix);
  });

  it('should name the jobs waiting, delayed, running or due for a retry, and not those finished or unknown', async () => {
    const driver =
      engine === 'bullmq'
        ? new BullMqDriver(testRedisUrl(), prefix, { lockMs: 2000, shutdownGraceMs: 500 })
        : SqliteQueueDriver.acquire(join(dir, 'queue.sqlite'), { lockMs: 2000, shutdownGraceMs: 500 });
    const queue = QueueNames.feeds;
    const running = blockingHandler();
    driver.process(queue, async (job) => {
      if (job.id === 'fails') throw new Error('again later');
      if (job.id === 'running') await running.handler(job);
    });
    await driver.add(queue, 'e', {}, { jobId: 'done' });
    await driver.add(queue, 'e', {}, { jobId: 'running' });
    await driver.add(queue, 'e', {}, { jobId: 'fails', attempts: 3, backoffMs: 60_000 });
    await driver.add(queue, 'e', {}, { jobId: 'gave-up', attempts: 1 });
    await driver.add(queue, 'e', {}, { jobId: 'later', delayMs: 60_000 });
    await expectEventually(() => expect(running.starts).toHaveLength(1));
    await expectEventually(async () =>
      expect([...(await driver.unfinished(queue, ['done', 'running', 'fails', 'gave-up', 'later', 'never']))].sort()).toEqual(['fails', 'later', 'running']),
    );
    running.release();
    await expectEventually(async () => expect([...(await driver.unfinished(queue, ['running']))]).toEqual([]));
    await driver.close();
  });
  it('should run a failed job again as its next attempt, not as one taken over', async () => {
    const driver =
      engine === 'bullmq'
        ? new BullMqDriver(testRedisUrl(), prefix, { lockMs: 2000, shutdownGraceMs: 500 })
        : SqliteQueueDriver.acquire(join(dir, 'retried.sqlite'), { lockMs: 2000, shutdownGraceMs: 500 });
    const runs: Array<{ attempt: number; recovered: boolean }> = [];
    driver.process(QueueNames.feeds, async (job) => {
      runs.push({ attempt: job.attemptsMade, recovered: job.recovered });
      if (job.attemptsMade === 0) throw new Error('again');
    });
    await driver.add(QueueNames.feeds, 'e', {}, { jobId: 'retried', attempts: 2, backoffMs: 10 });
    await expectEventually(() =>
      expect(runs).toEqual([
        { attempt: 0, recovered: false },
        { attempt: 1, recovered: false },
      ]),
    );
    await driver.close();
  });
});
