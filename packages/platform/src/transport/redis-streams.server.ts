import { hostname } from 'node:os';
import { Server, type CustomTransportStrategy } from '@nestjs/microservices';
import { Redis } from 'ioredis';
import type { ServiceName } from '@gitforge/contracts';
import { createLogger } from '../logging/logger.js';
import { isRedisOutage, RedisErrorLog } from '../logging/redis-errors.js';
import { invokeHandler } from './invoke.js';
import { CONSUMER_GROUP, parseEntry, requestStream } from './streams.js';

export interface RedisStreamsServerOptions {
  url: string;
  /** Key prefix shared with the clients. */
  namespace: string;
  service: ServiceName;
  /** This replica's consumer name; unique per process. */
  consumer?: string;
  concurrency: number;
  /** A pending entry idle this long belongs to a dead replica and is claimed. */
  claimIdleMs: number;
  /** How long one XREADGROUP blocks. */
  blockMs?: number;
}

type StreamEntry = [id: string, fields: string[]];

/**
 * The service side of gitforge's transport: requests are entries of one Redis stream per
 * service, read through one consumer group, so each is taken by exactly one replica.
 * - Replies are published on the caller's reply channel.
 * - While a request runs, the replica refreshes its claim (heartbeat), so a long request
 *   is not stolen; when a replica dies its entries go idle and a survivor claims them.
 * - A request whose caller has given up (deadline passed) is dropped unanswered.
 */
export class RedisStreamsServer extends Server implements CustomTransportStrategy {
  private readonly log = createLogger('redis-streams-server');
  private readonly stream: string;
  private readonly consumer: string;
  private reader?: Redis;
  private writer?: Redis;
  private running = false;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private loop?: Promise<void>;
  private wake?: () => void;
  private readonly readerErrors = new RedisErrorLog(this.log, 'transport-reader');
  private readonly writerErrors = new RedisErrorLog(this.log, 'transport-writer');

  constructor(private readonly options: RedisStreamsServerOptions) {
    super();
    this.stream = requestStream(options.namespace, options.service);
    this.consumer = options.consumer ?? `${hostname()}-${process.pid}`;
  }

  listen(callback: (err?: unknown) => void): void {
    this.start().then(
      () => callback(),
      (err: unknown) => callback(err),
    );
  }

  private async start(): Promise<void> {
    this.reader = new Redis(this.options.url, { maxRetriesPerRequest: null, lazyConnect: true });
    this.writer = new Redis(this.options.url, { maxRetriesPerRequest: 3, lazyConnect: true });
    this.readerErrors.watch(this.reader);
    this.writerErrors.watch(this.writer);
    await Promise.all([this.reader.connect(), this.writer.connect()]);
    await ensureGroup(this.writer, this.stream);
    this.running = true;
    this.loop = this.readLoop();
    const beat = Math.max(200, Math.floor(this.options.claimIdleMs / 3));
    this.timers.push(setInterval(() => this.periodic('heartbeat', () => this.heartbeat()), beat));
    this.timers.push(setInterval(() => this.periodic('claim', () => this.claimAbandoned()), beat));
    this.timers.push(setInterval(() => this.periodic('prune', () => this.pruneConsumers()), 60_000));
    this.log.info({ stream: this.stream, consumer: this.consumer }, 'listening');
  }

  /**
   * Runs one periodic task. While Redis is unreachable its commands fail (MaxRetriesPerRequestError
   * and the like): that is the outage the writer's error log already reports, once per interval,
   * not a failure of each heartbeat or claim.
   */
  private periodic(task: string, fn: () => Promise<void>): void {
    fn().catch((err: unknown) => {
      if (isRedisOutage(err)) this.writerErrors.report(err);
      else this.log.warn({ err, task }, `${task} failed`);
    });
  }

  private async readLoop(): Promise<void> {
    const reader = this.reader!;
    while (this.running) {
      const free = this.options.concurrency - this.inFlight.size;
      if (free <= 0) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      try {
        const res = (await reader.xreadgroup(
          'GROUP',
          CONSUMER_GROUP,
          this.consumer,
          'COUNT',
          free,
          'BLOCK',
          this.options.blockMs ?? 2000,
          'STREAMS',
          this.stream,
          '>',
        )) as Array<[string, StreamEntry[]]> | null;
        for (const [id, fields] of res?.[0]?.[1] ?? []) this.dispatch(id, fields);
      } catch (err) {
        if (!this.running) break;
        if (String(err).includes('NOGROUP')) await ensureGroup(this.writer!, this.stream).catch(() => undefined);
        if (isRedisOutage(err)) this.readerErrors.report(err);
        else this.log.warn({ err }, 'read failed; retrying');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  private dispatch(entryId: string, fields: string[]): void {
    if (this.inFlight.has(entryId)) return;
    const done = this.handle(entryId, fields)
      .catch((err) => this.log.error({ err, entryId }, 'request handling failed'))
      .finally(() => {
        this.inFlight.delete(entryId);
        const wake = this.wake;
        this.wake = undefined;
        wake?.();
      });
    this.inFlight.set(entryId, done);
  }

  private async handle(entryId: string, fields: string[]): Promise<void> {
    const entry = parseEntry(fields);
    if (entry && entry.deadline >= Date.now()) {
      let data: unknown;
      try {
        data = JSON.parse(entry.data);
      } catch {
        data = undefined;
      }
      const reply = await invokeHandler(this, entry.id, entry.pattern, data);
      await this.writer!.publish(entry.replyTo, JSON.stringify(reply));
    } else if (entry) {
      this.log.warn({ pattern: entry.pattern, entryId }, 'dropped a request whose caller gave up');
    }
    await this.writer!.multi().xack(this.stream, CONSUMER_GROUP, entryId).xdel(this.stream, entryId).exec();
  }

  /** Resets the idle time of our in-flight entries so other replicas know we are alive. */
  private async heartbeat(): Promise<void> {
    if (!this.running || this.inFlight.size === 0) return;
    await this.writer!.xclaim(this.stream, CONSUMER_GROUP, this.consumer, 0, ...this.inFlight.keys(), 'JUSTID');
  }

  /** Takes over entries left pending by replicas that stopped heart-beating. */
  private async claimAbandoned(): Promise<void> {
    if (!this.running) return;
    let cursor = '0-0';
    do {
      const free = this.options.concurrency - this.inFlight.size;
      if (free <= 0) return;
      const [next, entries] = (await this.writer!.xautoclaim(
        this.stream,
        CONSUMER_GROUP,
        this.consumer,
        this.options.claimIdleMs,
        cursor,
        'COUNT',
        free,
      )) as [string, Array<StreamEntry | null>, string[]?];
      for (const e of entries) {
        if (!e) continue;
        this.log.info({ entryId: e[0] }, 'claimed a request abandoned by another replica');
        this.dispatch(e[0], e[1]);
      }
      cursor = next;
    } while (cursor !== '0-0' && this.running);
  }

  /** Forgets consumers (dead replicas) that hold nothing and were idle for an hour. */
  private async pruneConsumers(): Promise<void> {
    const rows = (await this.writer!.xinfo('CONSUMERS', this.stream, CONSUMER_GROUP)) as unknown[][];
    for (const row of rows) {
      const info = new Map<string, unknown>();
      for (let i = 0; i + 1 < row.length; i += 2) info.set(String(row[i]), row[i + 1]);
      const name = String(info.get('name'));
      if (name !== this.consumer && Number(info.get('pending')) === 0 && Number(info.get('idle')) > 3_600_000) {
        await this.writer!.xgroup('DELCONSUMER', this.stream, CONSUMER_GROUP, name);
      }
    }
  }

  async close(): Promise<void> {
    if (!this.running && !this.reader) return;
    this.running = false;
    for (const t of this.timers) clearInterval(t);
    this.wake?.();
    // Let requests in flight finish and reply; the blocked read is then cut.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inFlight.values()]),
      new Promise((r) => (timer = setTimeout(r, 10_000))),
    ]);
    clearTimeout(timer);
    this.reader?.disconnect();
    await this.loop?.catch(() => undefined);
    await this.writer?.quit().catch(() => undefined);
    this.reader = undefined;
    this.writer = undefined;
  }

  on(): void {
    // No transport-level events are exposed.
  }

  unwrap<T>(): T {
    return this.writer as T;
  }
}

/** Creates the stream and its group from the beginning, so requests queued before the first replica started are served. */
export async function ensureGroup(redis: Redis, stream: string): Promise<void> {
  try {
    await redis.xgroup('CREATE', stream, CONSUMER_GROUP, '0', 'MKSTREAM');
  } catch (err) {
    if (!String(err).includes('BUSYGROUP')) throw err;
  }
}
