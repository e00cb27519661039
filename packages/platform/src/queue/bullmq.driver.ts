import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import { createLogger } from '../logging/logger.js';
import {
  DEFAULT_JOB_ATTEMPTS,
  DEFAULT_JOB_BACKOFF_MS,
  DEFAULT_QUEUE_DRIVER_OPTIONS,
  KEEP_COMPLETED,
  KEEP_FAILED,
  QueueDriver,
  type JobHandler,
  type JobOptions,
  type QueueDriverOptions,
  type WorkerOptions,
} from './queue-driver.js';

/** BullMQ on Redis: the distributed layout's queues. */
export class BullMqDriver extends QueueDriver {
  private readonly log = createLogger('bullmq');
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];

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
      q.on('error', (err) => this.log.warn({ queue: name, err: err.message }, 'queue connection error'));
      this.queues.set(name, q);
    }
    return q;
  }

  async add(queue: string, name: string, data: unknown, options: JobOptions): Promise<void> {
    await this.queue(queue).add(name, data, {
      jobId: options.jobId,
      attempts: options.attempts ?? DEFAULT_JOB_ATTEMPTS,
      backoff: { type: 'exponential', delay: options.backoffMs ?? DEFAULT_JOB_BACKOFF_MS },
      delay: options.delayMs,
      removeOnComplete: { count: KEEP_COMPLETED },
      removeOnFail: { count: KEEP_FAILED },
    });
  }

  process<T>(queue: string, handler: JobHandler<T>, options: WorkerOptions = {}): void {
    const worker = new Worker(
      queue,
      async (job) => handler({ id: job.id ?? '', name: job.name, data: job.data as T, attemptsMade: job.attemptsMade }),
      {
        connection: this.connection(true),
        prefix: this.prefix,
        concurrency: options.concurrency ?? 10,
        // A worker renews its locks every lockDuration/2; one that died leaves them to expire, and
        // the next stalled-job check (by any worker) puts its jobs back in the queue.
        lockDuration: this.options.lockMs,
        stalledInterval: this.options.lockMs,
        maxStalledCount: 3,
      },
    );
    worker.on('error', (err) => this.log.warn({ queue, err: err.message }, 'worker error'));
    worker.on('failed', (job, err) =>
      this.log.warn({ queue, jobId: job?.id, attempts: job?.attemptsMade, err: err.message }, 'job attempt failed'),
    );
    this.workers.push(worker);
  }

  async pendingCount(queue: string): Promise<number> {
    const counts = await this.queue(queue).getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    return Object.values(counts).reduce((a, b) => a + b, 0);
  }

  async close(): Promise<void> {
    // Worker.close waits for the jobs in flight. Past the grace period the workers are closed by
    // force: their jobs keep their (expiring) locks and are recovered as stalled, like a crash.
    let timer: NodeJS.Timeout | undefined;
    const graceful = Promise.all(this.workers.map((w) => w.close())).then(() => true);
    const expired = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), this.options.shutdownGraceMs)));
    const finished = await Promise.race([graceful, expired]);
    clearTimeout(timer);
    if (!finished) {
      this.log.warn({ workers: this.workers.length }, 'jobs still running after the shutdown grace; returning them to the queue');
      await Promise.all(this.workers.map((w) => w.close(true)));
    }
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.workers.length = 0;
    this.queues.clear();
  }
}
