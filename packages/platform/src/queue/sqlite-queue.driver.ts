import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Statement } from 'better-sqlite3';
import { createLogger } from '../logging/logger.js';
import { untrackQueueDepth } from '../metrics/metrics.js';
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
import { FOREGROUND_WAIT_MS, foregroundRequests } from './foreground.js';
import { nextRunAt, type RepeatSpec } from './schedule.js';

/** Timers longer than this are re-armed (setTimeout cannot wait more than ~24 days). */
const MAX_TIMER_MS = 60 * 60 * 1000;

interface JobRow {
  queue: string;
  job_id: string;
  name: string;
  data: string;
  attempts_made: number;
  attempts_started: number;
}

/**
 * The embedded layout's queue: durable in `<data dir>/queue.sqlite`, so an event the relay has
 * handed over survives a restart just as it would in Redis. Same semantics as the BullMQ driver:
 * dedup by job id while the job is kept, retries with exponential backoff, jobs that were running
 * when the process died run again at start.
 *
 * One instance per file is shared by every module of the process.
 */
export class SqliteQueueDriver extends QueueDriver {
  private static readonly open = new Map<string, { driver: SqliteQueueDriver; refs: number }>();
  override readonly singleProcess = true;

  static acquire(file: string, options: QueueDriverOptions = DEFAULT_QUEUE_DRIVER_OPTIONS): SqliteQueueDriver {
    let entry = SqliteQueueDriver.open.get(file);
    if (!entry) {
      entry = { driver: new SqliteQueueDriver(file, options), refs: 0 };
      SqliteQueueDriver.open.set(file, entry);
    }
    entry.refs += 1;
    return entry.driver;
  }

  private readonly log = createLogger('sqlite-queue');
  private readonly db: BetterSqlite3.Database;
  private readonly events = new EventEmitter();
  private readonly loops: Array<{ stop: () => Promise<void> }> = [];
  private readonly schedulers = new Map<string, NodeJS.Timeout>();
  private closed = false;
  private readonly statements = new Map<string, Statement>();
  /** Jobs finished in this turn of the event loop, marked completed at its end (see {@link completed}). */
  private completions: Array<{ queue: string; jobId: string; at: number }> = [];

  private constructor(
    private readonly file: string,
    private readonly options: QueueDriverOptions,
  ) {
    super();
    this.events.setMaxListeners(100);
    mkdirSync(dirname(file), { recursive: true });
    this.db = new BetterSqlite3(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS queue_job (
        queue TEXT NOT NULL,
        job_id TEXT NOT NULL,
        name TEXT NOT NULL,
        data TEXT NOT NULL,
        state TEXT NOT NULL,
        attempts_made INTEGER NOT NULL DEFAULT 0,
        attempts_started INTEGER NOT NULL DEFAULT 0,
        max_attempts INTEGER NOT NULL,
        backoff_ms INTEGER NOT NULL,
        run_at INTEGER NOT NULL,
        finished_at INTEGER,
        last_error TEXT,
        PRIMARY KEY (queue, job_id)
      );
      CREATE INDEX IF NOT EXISTS idx_queue_job_due ON queue_job (queue, state, run_at);
    `);
    // A queue file from before attempts were counted as they started.
    const columns = this.db.prepare(`SELECT name FROM pragma_table_info('queue_job')`).all() as Array<{ name: string }>;
    if (!columns.some((c) => c.name === 'attempts_started')) this.db.exec(`ALTER TABLE queue_job ADD COLUMN attempts_started INTEGER NOT NULL DEFAULT 0`);
    // Jobs that were running when the process stopped run again (stalled-job recovery), as
    // attempts started before (also those of a queue file from before starts were counted).
    this.statement(`UPDATE queue_job SET state = 'waiting', attempts_started = MAX(attempts_started, attempts_made + 1) WHERE state = 'active'`).run();
  }

  /** A statement prepared once for the life of the queue file (better-sqlite3 compiles on every `prepare`). */
  private statement(sql: string): Statement {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      prepared = this.db.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  /**
   * Marks a job done. The jobs that finish in one turn of the event loop are marked in one
   * transaction at its end, not one commit each: a process that dies before then runs them again
   * at its next start, as it would had it died while they ran (jobs run at least once).
   */
  private completed(queue: string, jobId: string): void {
    if (this.completions.length === 0) setImmediate(() => this.markCompleted());
    this.completions.push({ queue, jobId, at: Date.now() });
  }

  private markCompleted(): void {
    const batch = this.completions;
    this.completions = [];
    if (batch.length === 0 || !this.db.open) return;
    try {
      const mark = this.statement(`UPDATE queue_job SET state = 'completed', finished_at = ?, attempts_made = attempts_made + 1 WHERE queue = ? AND job_id = ?`);
      this.db.transaction(() => {
        for (const c of batch) mark.run(c.at, c.queue, c.jobId);
      })();
    } catch (err) {
      // They stay active, and run again at the next start.
      this.log.error({ err, jobs: batch.length }, 'could not mark finished jobs completed');
    }
  }

  private insert(queue: string, name: string, data: unknown, options: JobOptions): void {
    this.statement(
      `INSERT OR IGNORE INTO queue_job (queue, job_id, name, data, state, max_attempts, backoff_ms, run_at)
       VALUES (?, ?, ?, ?, 'waiting', ?, ?, ?)`,
    ).run(
      queue,
      options.jobId,
      name,
      JSON.stringify(data ?? null),
      options.attempts ?? DEFAULT_JOB_ATTEMPTS,
      options.backoffMs ?? DEFAULT_JOB_BACKOFF_MS,
      Date.now() + (options.delayMs ?? 0),
    );
  }

  async add(queue: string, name: string, data: unknown, options: JobOptions): Promise<void> {
    this.insert(queue, name, data, options);
    this.events.emit(queue);
  }

  override async addMany(queue: string, jobs: NewJob[]): Promise<void> {
    this.db.transaction(() => {
      for (const j of jobs) this.insert(queue, j.name, j.data, j.options);
    })();
    this.events.emit(queue);
  }

  process<T>(queue: string, jobHandler: JobHandler<T>, options: WorkerOptions = {}): void {
    const handler = measuredJobHandler(queue, jobHandler, this);
    const concurrency = options.concurrency ?? 10;
    const running = new Set<Promise<void>>();
    let stopped = false;
    const stopping = new AbortController();
    let wake: (() => void) | undefined;
    const onAdd = (): void => {
      const w = wake;
      wake = undefined;
      w?.();
    };
    this.events.on(queue, onAdd);

    const take = this.statement(
      `UPDATE queue_job SET state = 'active', attempts_started = attempts_started + 1
       WHERE rowid IN (SELECT rowid FROM queue_job WHERE queue = ? AND state = 'waiting' AND run_at <= ? ORDER BY run_at LIMIT ?)
       RETURNING queue, job_id, name, data, attempts_made, attempts_started`,
    );
    const nextDue = this.statement(`SELECT MIN(run_at) AS at FROM queue_job WHERE queue = ? AND state = 'waiting'`);

    const runJob = async (row: JobRow): Promise<void> => {
      try {
        // An attempt started twice was taken back from a process that stopped while running it.
        await handler({ id: row.job_id, name: row.name, data: JSON.parse(row.data) as T, attemptsMade: row.attempts_made, recovered: row.attempts_started > row.attempts_made + 1 });
        // Closed past the grace period: the row stays active and runs again at the next start.
        if (this.closed) return;
        this.completed(row.queue, row.job_id);
      } catch (err) {
        if (this.closed) return;
        const message = err instanceof Error ? err.message : String(err);
        this.log.warn({ queue, jobId: row.job_id, attempts: row.attempts_made + 1, err: message }, 'job attempt failed');
        this.statement(
          // The next attempt counts its starts afresh: one taken over here does not make the next one so.
          `UPDATE queue_job SET attempts_made = attempts_made + 1, attempts_started = attempts_made + 1, last_error = ?,
             state = CASE WHEN attempts_made + 1 >= max_attempts THEN 'failed' ELSE 'waiting' END,
             finished_at = CASE WHEN attempts_made + 1 >= max_attempts THEN ? ELSE NULL END,
             run_at = ? + backoff_ms * (1 << MIN(attempts_made, 20))
           WHERE queue = ? AND job_id = ?`,
        ).run(message, Date.now(), Date.now(), row.queue, row.job_id);
      }
    };

    const loop = (async () => {
      let sincePrune = 0;
      let wasIdle = false;
      while (!stopped) {
        // Woken from idle, most likely by events a request in flight has just published: that
        // request answers before their consumers take the CPU. A backlog is not held up so.
        if (wasIdle) await foregroundRequests.idle(this.options.foregroundWaitMs ?? FOREGROUND_WAIT_MS, stopping.signal);
        if (stopped) break;
        const free = concurrency - running.size;
        const rows = free > 0 ? (take.all(queue, Date.now(), free) as JobRow[]) : [];
        for (const row of rows) {
          const p: Promise<void> = runJob(row).finally(() => {
            running.delete(p);
            onAdd();
          });
          running.add(p);
        }
        if (++sincePrune >= 200) {
          sincePrune = 0;
          this.prune(queue);
        }
        wasIdle = rows.length === 0 && running.size === 0;
        if (rows.length > 0 && running.size < concurrency) continue;
        const at = (nextDue.get(queue) as { at: number | null }).at;
        const waitMs = at === null ? 1000 : Math.max(0, Math.min(1000, at - Date.now()));
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, waitMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      // Finish what runs within the grace period; the rest stays 'active' and is taken again at the next start.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...running]),
        new Promise((resolve) => (timer = setTimeout(resolve, this.options.shutdownGraceMs))),
      ]);
      clearTimeout(timer);
      if (running.size > 0) this.log.warn({ queue, running: running.size }, 'jobs still running after the shutdown grace; they run again at the next start');
    })();

    this.loops.push({
      stop: async () => {
        stopped = true;
        stopping.abort();
        this.events.off(queue, onAdd);
        onAdd();
        await loop;
      },
    });
  }

  /**
   * The in-process job scheduler, the same contract as BullMQ's: the next tick's job is kept in
   * the queue file as a delayed job (`repeat:{id}:{tick}`), so a tick that fell while the process
   * was down runs once at start, late; a timer adds the following tick's job when one falls due.
   */
  async schedule(queue: string, schedulerId: string, repeat: RepeatSpec, name: string, data: unknown): Promise<void> {
    const key = `${queue}\0${schedulerId}`;
    clearTimeout(this.schedulers.get(key));
    const prefix = `repeat:${schedulerId}:`;
    const due = nextRunAt(repeat, Date.now());
    // A tick still waiting from before (missed while down) stays; a future tick of an older schedule goes.
    this.statement(`DELETE FROM queue_job WHERE queue = ? AND state = 'waiting' AND substr(job_id, 1, ?) = ? AND run_at > ? AND job_id <> ?`).run(queue, prefix.length, prefix, Date.now(), `${prefix}${due}`);
    const arm = (tick: number): void => {
      this.insert(queue, name, data, { jobId: `${prefix}${tick}`, attempts: 1, delayMs: tick - Date.now() });
      this.events.emit(queue);
      const wait = (): void => {
        const left = tick - Date.now();
        const timer = setTimeout(() => (left > MAX_TIMER_MS ? wait() : arm(nextRunAt(repeat, tick))), Math.min(Math.max(left, 0), MAX_TIMER_MS));
        timer.unref();
        this.schedulers.set(key, timer);
      };
      wait();
    };
    arm(due);
  }

  async unschedule(queue: string, schedulerId: string): Promise<void> {
    const key = `${queue}\0${schedulerId}`;
    clearTimeout(this.schedulers.get(key));
    this.schedulers.delete(key);
    const prefix = `repeat:${schedulerId}:`;
    this.statement(`DELETE FROM queue_job WHERE queue = ? AND state = 'waiting' AND substr(job_id, 1, ?) = ?`).run(queue, prefix.length, prefix);
  }

  private prune(queue: string): void {
    for (const [state, keep] of [
      ['completed', KEEP_COMPLETED],
      ['failed', KEEP_FAILED],
    ] as const) {
      this.statement(
        `DELETE FROM queue_job WHERE queue = ? AND state = ? AND rowid NOT IN
           (SELECT rowid FROM queue_job WHERE queue = ? AND state = ? ORDER BY finished_at DESC LIMIT ?)`,
      ).run(queue, state, queue, state, keep);
    }
  }

  async pendingCount(queue: string): Promise<number> {
    const row = this.statement(`SELECT COUNT(*) AS n FROM queue_job WHERE queue = ? AND state IN ('waiting', 'active')`).get(queue) as { n: number };
    return row.n;
  }

  async unfinished(queue: string, jobIds: string[]): Promise<Set<string>> {
    const state = this.statement(`SELECT state FROM queue_job WHERE queue = ? AND job_id = ?`);
    return new Set(jobIds.filter((id) => ['waiting', 'active'].includes((state.get(queue, id) as { state: string } | undefined)?.state ?? '')));
  }

  async close(): Promise<void> {
    const entry = SqliteQueueDriver.open.get(this.file);
    if (entry && --entry.refs > 0) return;
    SqliteQueueDriver.open.delete(this.file);
    if (this.closed) return;
    for (const timer of this.schedulers.values()) clearTimeout(timer);
    this.schedulers.clear();
    await Promise.all(this.loops.map((l) => l.stop()));
    this.markCompleted();
    this.closed = true;
    untrackQueueDepth(this);
    this.db.close();
  }
}
