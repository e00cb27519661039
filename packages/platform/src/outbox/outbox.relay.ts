import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { EventConsumers, type EventEnvelope } from '@gitforge/contracts';
import { RequestContexts } from '../context/request-context.js';
import { Database } from '../database/database.js';
import { createLogger } from '../logging/logger.js';
import { FOREGROUND_WAIT_MS, foregroundRequests } from '../queue/foreground.js';
import { QueueDriver } from '../queue/queue-driver.js';

/** The relay's transactions touch only the outbox: not the service's data (see Database.aroundEveryWrite). */
const BOOKKEEPING = { bookkeeping: true } as const;

const BATCH = 100;
/** A replica holds a claimed batch this long; if it dies, another relays the rows after. */
const LOCK_MS = 30_000;
/**
 * How often the relay looks for rows nobody kicked it for (a writer that died between its commit
 * and its relay, a kick lost to a crash): every second after it relayed something, then less often
 * while it keeps finding nothing, up to IDLE_POLL_MS. Each look is a transaction; an idle process
 * of the distributed layout spent about 2 ms of CPU a second on them at a steady 1 s. Writers kick
 * the relay themselves, so the common path never waits for a poll.
 */
const POLL_MS = 1_000;
const IDLE_POLL_MS = 8_000;

/** The delay before the next look after one that found rows (`found`) or not, `previous` the delay before it. */
export function nextPollDelay(previous: number, found: boolean): number {
  return found ? POLL_MS : Math.min(Math.max(previous, POLL_MS) * 2, IDLE_POLL_MS);
}
const RETRY_MS = 2_000;
const KEEP_SENT_MS = 7 * 24 * 3600_000;
const KEEP_PROCESSED_MS = 24 * 3600_000;
const JANITOR_MS = 10 * 60_000;

interface ClaimedRow {
  seq: number;
  event_id: string;
  name: string;
  envelope: string;
}

/**
 * Moves committed outbox rows to the consumer queues: one job per consumer queue with
 * `jobId = event id` (so a row relayed twice is queued once), then marks the row sent.
 * When the queue is unreachable the rows stay and are retried; nothing is lost.
 * Several replicas may run it: each claims a batch (SKIP LOCKED on PostgreSQL).
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = createLogger('outbox-relay');
  private timer?: NodeJS.Timeout;
  private janitor?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  /** The next look's delay while polls keep finding nothing. */
  private idlePoll = POLL_MS;
  private stopped = true;
  /** Ends a wait for the requests in flight at shutdown. */
  private stopping = new AbortController();

  constructor(
    private readonly db: Database,
    private readonly queue: QueueDriver,
  ) {}

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.stopping = new AbortController();
    this.schedule(0);
    this.janitor = setInterval(() => void this.cleanup(), JANITOR_MS);
    this.janitor.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    clearTimeout(this.timer);
    clearInterval(this.janitor);
    await this.running;
  }

  /** Relays soon; called after a transaction that wrote events commits. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      // Kicked by a request's commit (or a poll's turn): a request in flight answers before its
      // events are relayed (and consumed, in the embedded layout), unless it takes longer than the
      // bounded wait.
      this.running = RequestContexts.detached(async () => {
        await foregroundRequests.idle(FOREGROUND_WAIT_MS, this.stopping.signal);
        if (this.stopped) return;
        // Kicks made while it waited are for rows this drain claims (each kick follows its commit).
        this.again = false;
        await this.drain();
      }).finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.schedule(0);
        }
      });
    }, ms);
  }

  private async drain(): Promise<void> {
    let next = RETRY_MS;
    try {
      let found = false;
      let failed = false;
      for (;;) {
        const batch = await this.relayBatch();
        if (batch.failed) {
          failed = true;
          break;
        }
        found ||= batch.relayed > 0;
        if (batch.relayed < BATCH) break;
      }
      if (!failed) {
        this.idlePoll = nextPollDelay(this.idlePoll, found);
        next = this.idlePoll;
      }
    } catch (err) {
      this.log.error({ err }, 'relay failed');
    }
    this.schedule(next);
  }

  /**
   * Relays one batch: its jobs go to each consumer queue in one call per queue, then the rows are
   * marked sent together. If the queue refuses, the whole batch waits and is relayed again
   * later; jobs already added are not duplicated (job id = event id).
   */
  async relayBatch(): Promise<{ relayed: number; failed: boolean }> {
    const rows = await this.claim();
    if (rows.length === 0) return { relayed: 0, failed: false };
    const jobs = rows.map((row) => ({ name: row.name, data: JSON.parse(row.envelope) as EventEnvelope, options: { jobId: row.event_id } }));
    try {
      for (const consumer of EventConsumers) {
        const taken = consumer.events ? jobs.filter((j) => consumer.events!.includes(j.data.name)) : jobs;
        if (taken.length > 0) await this.queue.addMany(consumer.queue, taken);
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.log.warn({ events: rows.length, err: message }, 'queue unavailable; events kept in the outbox');
      await this.release(rows.map((r) => r.seq), message);
      return { relayed: 0, failed: true };
    }
    await this.markSent(rows.map((r) => r.seq));
    return { relayed: rows.length, failed: false };
  }

  private async claim(): Promise<ClaimedRow[]> {
    const now = Date.now();
    const rows = await this.db.transaction(async (m) => {
      const lockSql = this.db.isPostgres ? 'FOR UPDATE SKIP LOCKED' : '';
      const p = this.db.isPostgres ? (i: number) => `$${i}` : () => '?';
      return (await m.query(
        `UPDATE outbox_event SET locked_until = ${p(1)}, attempts = attempts + 1
         WHERE seq IN (
           SELECT seq FROM outbox_event
           WHERE sent_at IS NULL AND (locked_until IS NULL OR locked_until < ${p(2)})
           ORDER BY seq LIMIT ${BATCH} ${lockSql})
         RETURNING seq, event_id, name, envelope`,
        [now + LOCK_MS, now],
      )) as ClaimedRow[] | [ClaimedRow[], number];
    }, BOOKKEEPING);
    // pg answers UPDATE … RETURNING as [rows, count] through TypeORM.
    const list = (Array.isArray(rows[0]) ? rows[0] : rows) as ClaimedRow[];
    return list.map((r) => ({ ...r, seq: Number(r.seq) })).sort((a, b) => a.seq - b.seq);
  }

  private async markSent(seqs: number[]): Promise<void> {
    const list = seqs.map((_, i) => this.param(i + 2)).join(', ');
    await this.db.transaction(
      (m) => m.query(`UPDATE outbox_event SET sent_at = ${this.param(1)}, locked_until = NULL WHERE seq IN (${list})`, [Date.now(), ...seqs]),
      BOOKKEEPING,
    );
  }

  private async release(seqs: number[], error: string): Promise<void> {
    if (seqs.length === 0) return;
    const list = seqs.map((_, i) => this.param(i + 3)).join(', ');
    await this.db.transaction(
      (m) =>
        m.query(`UPDATE outbox_event SET locked_until = ${this.param(1)}, last_error = ${this.param(2)} WHERE seq IN (${list})`, [
          Date.now() + RETRY_MS,
          error.slice(0, 1000),
          ...seqs,
        ]),
      BOOKKEEPING,
    );
  }

  private param(i: number): string {
    return this.db.isPostgres ? `$${i}` : '?';
  }

  /** Unsent events: zero means every committed event has reached the queues. */
  async backlog(): Promise<number> {
    const rows = (await this.db.manager.query(`SELECT COUNT(*) AS n FROM outbox_event WHERE sent_at IS NULL`)) as Array<{ n: number | string }>;
    return Number(rows[0]?.n ?? 0);
  }

  private async cleanup(): Promise<void> {
    await RequestContexts.detached(async () => {
      try {
        await this.db.transaction(
          (m) => m.query(`DELETE FROM outbox_event WHERE sent_at IS NOT NULL AND sent_at < ${this.param(1)}`, [Date.now() - KEEP_SENT_MS]),
          BOOKKEEPING,
        );
        await this.db.pruneProcessedRequests(KEEP_PROCESSED_MS);
      } catch (err) {
        this.log.warn({ err }, 'outbox cleanup failed');
      }
    });
  }
}
