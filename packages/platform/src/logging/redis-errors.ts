import type { Logger } from 'pino';

/** One line per connection per this many milliseconds while Redis is failing; the rest are counted. */
export const REDIS_ERROR_LOG_INTERVAL_MS = 10_000;

/** What emits a Redis connection's errors: an ioredis client, a BullMQ Queue or Worker. */
export interface RedisErrorSource {
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
}

/**
 * Logs one Redis connection's errors through pino, at most one line per interval, with the count
 * of errors suppressed since the last line; after errors, the next `ready` says it is back. Every
 * Redis connection gets one: without an `error` listener, ioredis prints each failed reconnect
 * to stderr as `[ioredis] Unhandled error event`.
 */
export class RedisErrorLog {
  private lastAt = -Infinity;
  private suppressed = 0;
  private failing = false;

  constructor(
    private readonly log: Logger,
    /** Names the connection in every line (`transport-writer`, `queue:webhooks`, …). */
    private readonly connection: string,
    private readonly intervalMs = REDIS_ERROR_LOG_INTERVAL_MS,
  ) {}

  /** Attaches this log to a connection's `error` and `ready` events. */
  watch(source: RedisErrorSource): this {
    source.on('error', (err) => this.report(err));
    source.on('ready', () => this.recovered());
    return this;
  }

  report(err: unknown): void {
    this.failing = true;
    const now = Date.now();
    if (now - this.lastAt < this.intervalMs) {
      this.suppressed++;
      return;
    }
    this.log.warn(
      { connection: this.connection, err: errorText(err), suppressed: this.suppressed },
      'redis connection error',
    );
    this.lastAt = now;
    this.suppressed = 0;
  }

  private recovered(): void {
    if (!this.failing) return;
    this.log.info({ connection: this.connection, suppressed: this.suppressed }, 'redis connection restored');
    this.failing = false;
    this.suppressed = 0;
    this.lastAt = -Infinity;
  }
}

/**
 * Whether a command failed because Redis is unreachable (an outage to wait out, reported once per
 * connection) rather than because of the command: ioredis gives up on a command after
 * `maxRetriesPerRequest` reconnects (MaxRetriesPerRequestError), refuses it while offline, or
 * loses it with the connection.
 */
export function isRedisOutage(err: unknown): boolean {
  const e = err as { name?: string; message?: string; code?: string } | null;
  if (!e) return false;
  if (e.name === 'MaxRetriesPerRequestError') return true;
  if (
    e.code &&
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'].includes(e.code)
  )
    return true;
  return /Connection is closed|Stream isn't writeable|enableOfflineQueue options is false|Reached the max retries per request/i.test(
    e.message ?? '',
  );
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message || err.name : String(err);
}
