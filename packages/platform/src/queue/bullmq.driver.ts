import { Queue, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { createLogger } from '../logging/logger.js';
import { untrackQueueDepth } from '../metrics/metrics.js';
import { RedisErrorLog } from '../logging/redis-errors.js';
import {
  DEFAULT_JOB_ATTEMPTS,
  DEFAULT_JOB_BACKOFF_MS,
  DEFAULT_QUEUE_DRIVER_OPTIONS,
  KEEP_COMPLETED,
  KEEP_FAILED,
  measuredJobHandler,
  QueueDriver,
  type JobHandler,
  type JobOptions,
  type NewJob,
  type QueueDriverOptions,
  type WorkerOptions,
} from './queue-driver.js';
import { nextRunAt, type RepeatSpec } from './schedule.js';

/** How far ahead of the call an `every` schedule's first slot lies at least (see schedule()). */
const START_MARGIN_MS = 1000;

/**
 * The starts of the job before its current attempt: those the last failure recorded (in the
 * job's progress, which gitforge uses for nothing else), else one per attempt made.
 */
function startsBeforeAttempt(job: Job): number {
  const progress = job.progress as { startsBefore?: unknown } | number | undefined;
  const recorded = typeof progress === 'object' && progress !== null && typeof progress.startsBefore === 'number' ? progress.startsBefore : undefined;
  return recorded ?? job.attemptsMade;
}

/** BullMQ on Redis: the distributed layout's queues. */
export class BullMqDriver extends QueueDriver {
  private readonly log = createLogger('bullmq');
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  /** Handlers running now, across workers, so close() can wait for them with a deadline. */
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly url: string,
    /** BullMQ key prefix. */
    private readonly prefix: string,
    private readonly options: QueueDriverOptions = DEFAULT_QUEUE_DRIVER_OPTIONS,
  ) {
    super();
  }

  private connection(forWorker: boolean): ConnectionOptions {
    const u = new URL(this.url);
    return {
      host: u.hostname,
      port: Number(u.port || 6379),
      username: u.username || undefined,
      password: u.password ? decodeURIComponent(u.password) : undefined,
      db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
      tls: u.protocol === 'rediss:' ? {} : undefined,
      // Workers must wait out a Redis outage; producers must fail fast so the outbox keeps the event.
      maxRetriesPerRequest: forWorker ? null : 1,
      enableOfflineQueue: forWorker,
    };
  }

  private queue(name: string): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection(false), prefix: this.prefix });
      new RedisErrorLog(this.log, `queue:${name}`).watch(q);
      this.queues.set(name, q);
    }
    return q;
  }

  private jobOptions(options: JobOptions) {
    return {
      jobId: options.jobId,
      attempts: options.attempts ?? DEFAULT_JOB_ATTEMPTS,
      backoff: { type: 'exponential', delay: options.backoffMs ?? DEFAULT_JOB_BACKOFF_MS },
      delay: options.delayMs,
      removeOnComplete: { count: KEEP_COMPLETED },
      removeOnFail: { count: KEEP_FAILED },
    };
  }

  async add(queue: string, name: string, data: unknown, options: JobOptions): Promise<void> {
    await this.queue(queue).add(name, data, this.jobOptions(options));
  }

  override async addMany(queue: string, jobs: NewJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.queue(queue).addBulk(jobs.map((j) => ({ name: j.name, data: j.data, opts: this.jobOptions(j.options) })));
  }

  /**
   * A BullMQ job scheduler: Redis holds one scheduler per id and queues each tick's job once
   * (its id is the scheduler's and the tick's), so replicas that all declare it add nothing twice.
   * Intervals start at the next aligned tick rather than now (BullMQ's default), so declaring a
   * scheduler never runs its job at once, and the ticks are the ones {@link nextRunAt} names.
   */
  async schedule(queue: string, schedulerId: string, repeat: RepeatSpec, name: string, data: unknown): Promise<void> {
    // BullMQ starts an `every` schedule at its startDate, or at the moment its script runs when that
    // is later: a slot that passes while the call is on its way would start the ticks off their
    // alignment. The first slot is therefore the first one at least a second away.
    // Connected first: the margin is for the call itself, not for a connection still being made.
    await this.queue(queue).waitUntilReady();
    const opts = 'everyMs' in repeat ? { every: repeat.everyMs, startDate: nextRunAt(repeat, Date.now() + START_MARGIN_MS) } : { pattern: repeat.pattern };
    await this.queue(queue).upsertJobScheduler(schedulerId, opts, {
      name,
      data,
      // A failed tick is not retried: the next tick runs it again (Gitea's cron does the same).
      opts: { attempts: 1, removeOnComplete: { count: KEEP_COMPLETED }, removeOnFail: { count: KEEP_FAILED } },
    });
  }

  async unschedule(queue: string, schedulerId: string): Promise<void> {
    await this.queue(queue).removeJobScheduler(schedulerId);
  }

  process<T>(queue: string, jobHandler: JobHandler<T>, options: WorkerOptions = {}): void {
    const handler = measuredJobHandler(queue, jobHandler, this);
    const worker = new Worker(
      queue,
      async (job) => {
        // BullMQ counts the job's starts, never resetting them: an attempt started more than once
        // since the attempts before it (whose starts a failure records, see below) was taken over
        // from a worker whose lock lapsed (a stalled job).
        const startsBefore = startsBeforeAttempt(job);
        const run = handler({ id: job.id ?? '', name: job.name, data: job.data as T, attemptsMade: job.attemptsMade, recovered: job.attemptsStarted - startsBefore > 1 });
        const tracked = run.then(
          () => undefined,
          () => undefined,
        );
        this.running.add(tracked);
        try {
          await run;
        } catch (err) {
          // Only when a started attempt was taken over since the last failure do the starts differ from the attempts.
          if (job.attemptsStarted !== job.attemptsMade + 1) await job.updateProgress({ startsBefore: job.attemptsStarted }).catch(() => undefined);
          throw err;
        } finally {
          this.running.delete(tracked);
        }
      },
      {
        connection: this.connection(true),
        prefix: this.prefix,
        concurrency: options.concurrency ?? 10,
        // A worker renews its locks every lockDuration/2; one that died leaves them to expire, and
        // the next stalled-job check (by any worker) puts its jobs back in the queue. Checking
        // every quarter of the lock makes recovery follow the lock setting (at most lockMs ×
        // 1.25 after the crash); checking once per lock, as before, took up to twice the lock.
        lockDuration: this.options.lockMs,
        stalledInterval: stalledCheckInterval(this.options.lockMs),
        maxStalledCount: 3,
      },
    );
    new RedisErrorLog(this.log, `worker:${queue}`).watch(worker);
    worker.on('failed', (job, err) =>
      this.log.warn({ queue, jobId: job?.id, attempts: job?.attemptsMade, err: err.message }, 'job attempt failed'),
    );
    this.workers.push(worker);
  }

  async pendingCount(queue: string): Promise<number> {
    const counts = await this.queue(queue).getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    return Object.values(counts).reduce((a, b) => a + b, 0);
  }

  async unfinished(queue: string, jobIds: string[]): Promise<Set<string>> {
    const q = this.queue(queue);
    const states = await Promise.all(jobIds.map((id) => q.getJobState(id)));
    return new Set(jobIds.filter((_, i) => !['completed', 'failed', 'unknown'].includes(states[i]!)));
  }

  async close(): Promise<void> {
    // Stop taking jobs, give the running ones the grace period, then close. Workers closed with
    // jobs still running are closed by force: those jobs keep their (expiring) locks and are
    // recovered as stalled by another worker, as after a crash. (The first close() call decides
    // whether BullMQ waits, so the decision is made here and not by racing close() itself.)
    await Promise.all(this.workers.map((w) => w.pause(true)));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.running]),
      new Promise((resolve) => (timer = setTimeout(resolve, this.options.shutdownGraceMs))),
    ]);
    clearTimeout(timer);
    const force = this.running.size > 0;
    if (force) this.log.warn({ running: this.running.size }, 'jobs still running after the shutdown grace; returning them to the queue');
    await Promise.all(this.workers.map((w) => w.close(force)));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.workers.length = 0;
    this.queues.clear();
    untrackQueueDepth(this);
  }
}

/** How often workers look for jobs whose lock expired: a quarter of the lock, so a dead worker's jobs run again about `lockMs` after it died. */
export function stalledCheckInterval(lockMs: number): number {
  return Math.max(250, Math.floor(lockMs / 4));
}
