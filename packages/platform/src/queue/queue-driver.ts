import type { RepeatSpec } from './schedule.js';
import { queueJobDuration, queueJobs, secondsSince, trackQueueDepth, type QueueDepthSource } from '../metrics/metrics.js';

/** One unit of work on a queue; the name is the event name, the id the event (or task) id. */
export interface QueueJob<T = unknown> {
  id: string;
  name: string;
  data: T;
  /** Attempts already made before this one. */
  attemptsMade: number;
  /**
   * This attempt started before, in a worker that died before finishing it (a stalled job taken
   * over): what that run did may be half done.
   */
  recovered: boolean;
}

export interface JobOptions {
  /** Deduplicates: adding a job whose id is still known to the queue does nothing. */
  jobId: string;
  attempts?: number;
  /** First retry delay; later ones double. */
  backoffMs?: number;
  delayMs?: number;
}

export interface WorkerOptions {
  concurrency?: number;
}

export type JobHandler<T = unknown> = (job: QueueJob<T>) => Promise<void>;

/** Settings both drivers share (from PlatformConfig). */
export interface QueueDriverOptions {
  /** A running job is claimed this long without a heartbeat; a dead worker's job is recovered about this long after it died (at most a quarter more). */
  lockMs: number;
  /** On close, how long running jobs may finish before they are returned to the queue. */
  shutdownGraceMs: number;
  /**
   * The SQLite queue's longest wait, once woken from idle, for the process's requests in flight
   * to be answered before it starts jobs (see `ForegroundRequests`); FOREGROUND_WAIT_MS unless set.
   */
  foregroundWaitMs?: number;
}

/**
 * The seam between domain code and the queue technology: BullMQ when `REDIS_URL` is set,
 * a durable SQLite queue in the data directory otherwise (the embedded layout).
 */
/** One job of an {@link QueueDriver.addMany} call. */
export interface NewJob {
  name: string;
  data: unknown;
  options: JobOptions;
}

export abstract class QueueDriver {
  /**
   * Whether one process owns the queue (the SQLite queue of the embedded layout): jobs it was running
   * when it stopped run again at its next start, so anything such a job held died with that process.
   */
  readonly singleProcess: boolean = false;
  abstract add(queue: string, name: string, data: unknown, options: JobOptions): Promise<void>;
  /** Adds several jobs in one round trip where the driver can (each deduplicated by its id, as `add`). */
  async addMany(queue: string, jobs: NewJob[]): Promise<void> {
    for (const job of jobs) await this.add(queue, job.name, job.data, job.options);
  }
  /** Starts consuming `queue`; a handler that throws makes the job retry with backoff. */
  abstract process<T>(queue: string, handler: JobHandler<T>, options?: WorkerOptions): void;
  /**
   * Adds (or updates) a job scheduler: a job `name` with `data` on `queue` at every tick of
   * `repeat` ({@link nextRunAt}). However many processes declare the same `schedulerId`, each tick
   * is queued once, and its job is recovered like any other if the worker running it dies.
   */
  abstract schedule(queue: string, schedulerId: string, repeat: RepeatSpec, name: string, data: unknown): Promise<void>;
  /** Removes a job scheduler (nothing if there is none); a tick already running finishes. */
  abstract unschedule(queue: string, schedulerId: string): Promise<void>;
  /** Jobs waiting, running or delayed: zero means the queue is idle. */
  abstract pendingCount(queue: string): Promise<number>;
  /** Those of `jobIds` that name a job of `queue` still to run or running (waiting, delayed or active, also as a retry). */
  abstract unfinished(queue: string, jobIds: string[]): Promise<Set<string>>;
  /**
   * Stops taking jobs and lets running ones finish within the shutdown grace; jobs still running
   * after it are returned to the queue (run again later), never lost. Then closes connections.
   */
  abstract close(): Promise<void>;
}

export const DEFAULT_QUEUE_DRIVER_OPTIONS: QueueDriverOptions = { lockMs: 30_000, shutdownGraceMs: 10_000 };

export const DEFAULT_JOB_ATTEMPTS = 8;
export const DEFAULT_JOB_BACKOFF_MS = 1000;
/** Finished jobs kept (by count) for deduplication and inspection; older ones are removed. */
export const KEEP_COMPLETED = 5000;
export const KEEP_FAILED = 10000;

/**
 * `handler` counted in the queue metrics (attempt outcome and duration), and `queue`'s depth
 * reported by `driver`. Both drivers wrap every handler they run with it.
 */
export function measuredJobHandler<T>(queue: string, handler: JobHandler<T>, driver: QueueDepthSource): JobHandler<T> {
  trackQueueDepth(queue, driver);
  return async (job) => {
    const started = process.hrtime.bigint();
    let outcome = 'failed';
    try {
      await handler(job);
      outcome = 'completed';
    } finally {
      queueJobs.inc({ queue, outcome });
      queueJobDuration.observe({ queue, outcome }, secondsSince(started));
    }
  };
}
