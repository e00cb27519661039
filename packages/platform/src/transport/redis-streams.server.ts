import { hostname } from 'node:os';
import { Server, type CustomTransportStrategy } from '@nestjs/microservices';
import { Redis } from 'ioredis';
import type { ServiceName } from '@gitforge/contracts';
import { createLogger } from '../logging/logger.js';
import { isRedisOutage, RedisErrorLog } from '../logging/redis-errors.js';
import { invokeHandler } from './invoke.js';
import { CONSUMER_GROUP, directoryEpochKey, directoryVersion, directoryWritesKey, gatherWrites, livenessKey, parseEntry, requestStream } from './streams.js';

export interface RedisStreamsServerOptions {
  url: string;
  /** Key prefix shared with the clients. */
  namespace: string;
  service: ServiceName;
  /** This replica's consumer name; unique per process. */
  consumer?: string;
  concurrency: number;
  /**
   * Fallback for a replica that is alive but stuck: a pending entry whose replica stopped
   * refreshing it this long is claimed even though the replica's liveness key is still there.
   */
  claimIdleMs: number;
  /**
   * How long a replica's liveness key outlives its last refresh (refreshed every quarter of it).
   * Entries of a replica whose key is gone are claimed at once: a dead replica is taken over
   * within about this long, a live one (however busy) keeps its requests.
   */
  livenessTtlMs?: number;
  /** How long one XREADGROUP blocks. */
  blockMs?: number;
  /** On close, how long requests in flight may finish and reply (default 10 s); the rest are claimed by another replica. */
  shutdownGraceMs?: number;
}

type StreamEntry = [id: string, fields: string[]];
/** XPENDING's summary form: count, lowest and highest id, and each consumer with its count. */
type PendingSummary = [count: number, lowest: string | null, highest: string | null, consumers: Array<[name: string, count: string]> | null];

/**
 * An entry of a dead replica is claimed once idle this long: enough that, of two survivors
 * claiming at once, the second finds it freshly claimed (idle ~0) and leaves it.
 */
const DEAD_CLAIM_MIN_IDLE_MS = 100;

/**
 * The service side of gitforge's transport: requests are entries of one Redis stream per
 * service, read through one consumer group, so each is taken by exactly one replica.
 * - Replies are published on the caller's reply channel.
 * - Each replica keeps a liveness key with a short TTL. When a replica dies its key expires
 *   and a survivor claims the requests it left pending (within about the TTL); a live replica's
 *   requests are never taken for being slow.
 * - While a request runs, the replica also refreshes its claim on the entry, so only a replica
 *   that is alive but stuck (its event loop blocked) loses entries, after `claimIdleMs`.
 * - A request whose caller has given up (deadline passed) is dropped unanswered.
 */
export class RedisStreamsServer extends Server implements CustomTransportStrategy {
  private readonly log = createLogger('redis-streams-server');
  private readonly stream: string;
  private readonly consumer: string;
  private readonly alive: string;
  private readonly epochKey: string;
  private readonly writesKey: string;
  private readonly livenessTtlMs: number;
  /** Since when our liveness key has been refreshed without a failure (0: the last refresh failed). */
  private liveSince = 0;
  private reader?: Redis;
  private writer?: Redis;
  private running = false;
  private readonly inFlight = new Map<string, Promise<void>>();
  /** The entries settled in this turn of the event loop, and when their XACK and XDEL are done (see {@link settle}). */
  private settling?: { ids: string[]; done: Promise<void> };
  private readonly timers: NodeJS.Timeout[] = [];
  private loop?: Promise<void>;
  private wake?: () => void;
  private readonly readerErrors = new RedisErrorLog(this.log, 'transport-reader');
  private readonly writerErrors = new RedisErrorLog(this.log, 'transport-writer');

  constructor(private readonly options: RedisStreamsServerOptions) {
    super();
    this.stream = requestStream(options.namespace, options.service);
    this.consumer = options.consumer ?? `${hostname()}-${process.pid}`;
    this.alive = livenessKey(options.namespace, options.service, this.consumer);
    this.epochKey = directoryEpochKey(options.namespace);
    this.writesKey = directoryWritesKey(options.namespace);
    this.livenessTtlMs = options.livenessTtlMs ?? 3000;
  }

  listen(callback: (err?: unknown) => void): void {
    this.start().then(
      () => callback(),
      (err: unknown) => callback(err),
    );
  }

  private async start(): Promise<void> {
    this.reader = new Redis(this.options.url, { maxRetriesPerRequest: null, lazyConnect: true });
    // Commands issued in one tick (replies, acks, of many requests at once) go out in one write.
    this.writer = new Redis(this.options.url, { maxRetriesPerRequest: 3, lazyConnect: true, enableAutoPipelining: true });
    this.readerErrors.watch(this.reader);
    this.writerErrors.watch(this.writer);
    await Promise.all([this.reader.connect(), this.writer.connect()]);
    await ensureGroup(this.writer, this.stream);
    await this.refreshLiveness();
    this.running = true;
    this.loop = this.readLoop();
    const live = Math.max(100, Math.floor(this.livenessTtlMs / 4));
    this.timers.push(setInterval(() => this.periodic('liveness', () => this.beat()), live));
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
        // The directory's version is read in the same write, after the entries: Redis runs a
        // connection's commands in order, so it is at least as new as anything a caller saw
        // before it sent one of them (see DirectoryClient).
        const [read, epoch] =
          (await reader
            .pipeline()
            .xreadgroup('GROUP', CONSUMER_GROUP, this.consumer, 'COUNT', free, 'BLOCK', this.options.blockMs ?? 2000, 'STREAMS', this.stream, '>')
            .mget(this.epochKey, this.writesKey)
            .exec()) ?? [];
        if (!read || read[0]) throw read?.[0] ?? new Error('XREADGROUP got no answer');
        // A failed read of the version leaves it unknown to the requests (read afresh where needed).
        const directoryEpoch = epoch && !epoch[0] ? directoryVersion(...(epoch[1] as [string | null, string | null])) : undefined;
        for (const [id, fields] of (read[1] as Array<[string, StreamEntry[]]> | null)?.[0]?.[1] ?? []) this.dispatch(id, fields, directoryEpoch);
      } catch (err) {
        if (!this.running) break;
        if (String(err).includes('NOGROUP')) await ensureGroup(this.writer!, this.stream).catch(() => undefined);
        if (isRedisOutage(err)) this.readerErrors.report(err);
        else this.log.warn({ err }, 'read failed; retrying');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  private dispatch(entryId: string, fields: string[], directoryEpoch?: string | null): void {
    if (this.inFlight.has(entryId)) return;
    const done = this.handle(entryId, fields, directoryEpoch)
      .catch((err) => this.log.error({ err, entryId }, 'request handling failed'))
      .finally(() => {
        this.inFlight.delete(entryId);
        const wake = this.wake;
        this.wake = undefined;
        wake?.();
      });
    this.inFlight.set(entryId, done);
  }

  private async handle(entryId: string, fields: string[], directoryEpoch: string | null | undefined): Promise<void> {
    const entry = parseEntry(fields);
    if (entry && entry.deadline >= Date.now()) {
      let data: unknown;
      try {
        data = JSON.parse(entry.data);
      } catch {
        data = undefined;
      }
      const reply = JSON.stringify(await invokeHandler(this, entry.id, entry.pattern, data, directoryEpoch));
      // Replies that finish in the same turn go out in one write.
      gatherWrites(this.writer);
      await this.writer!.publish(entry.replyTo, reply);
      // Acknowledged and removed once Redis has the reply, never unanswered (a reply lost with
      // the connection leaves the entry pending, for a replica to answer again).
      await this.settle(entryId);
      return;
    }
    if (entry) this.log.warn({ pattern: entry.pattern, entryId }, 'dropped a request whose caller gave up');
    await this.settle(entryId);
  }

  /**
   * Acknowledges an entry and deletes it from the stream (an acknowledged one left behind is trimmed
   * later). The entries settled in one turn of the event loop go in one XACK and one XDEL.
   */
  private settle(entryId: string): Promise<void> {
    const writer = this.writer;
    if (!writer) return Promise.reject(new Error('the transport server is closed'));
    if (!this.settling) {
      const batch = { ids: [] as string[], done: undefined as unknown as Promise<void> };
      batch.done = new Promise<void>((resolve, reject) => {
        setImmediate(() => {
          this.settling = undefined;
          Promise.all([writer.xack(this.stream, CONSUMER_GROUP, ...batch.ids), writer.xdel(this.stream, ...batch.ids)]).then(() => resolve(), reject);
        });
      });
      this.settling = batch;
    }
    this.settling.ids.push(entryId);
    return this.settling.done;
  }

  /** Resets the idle time of our in-flight entries so other replicas know we are alive. */
  private async heartbeat(): Promise<void> {
    if (!this.running || this.inFlight.size === 0) return;
    await this.writer!.xclaim(this.stream, CONSUMER_GROUP, this.consumer, 0, ...this.inFlight.keys(), 'JUSTID');
  }

  /**
   * The liveness tick, one round trip in all (it runs in every replica of every service, busy
   * or idle): our liveness key refreshed, and in the same pipeline who holds pending requests, for
   * the takeover of dead replicas' ones.
   */
  private async beat(): Promise<void> {
    const [refreshed, pending] = (await this.writer!.pipeline().set(this.alive, '1', 'PX', this.livenessTtlMs).xpending(this.stream, CONSUMER_GROUP).exec()) ?? [];
    this.noteRefresh(!refreshed ? new Error('liveness refresh got no answer') : refreshed[0]);
    if (!pending || pending[0]) throw pending?.[0] ?? new Error('XPENDING got no answer');
    await this.claimFromDead(pending[1] as PendingSummary);
  }

  private async refreshLiveness(): Promise<void> {
    let failure: unknown = null;
    try {
      await this.writer!.set(this.alive, '1', 'PX', this.livenessTtlMs);
    } catch (err) {
      failure = err;
    }
    this.noteRefresh(failure);
  }

  /** After a refresh of our liveness key: live since now if it had lapsed, not live (and the error thrown) if it failed. */
  private noteRefresh(failure: unknown): void {
    if (failure) {
      this.liveSince = 0;
      throw failure;
    }
    if (this.liveSince === 0) this.liveSince = Date.now();
  }

  /**
   * Takes over the entries of replicas whose liveness key expired (they died). Two survivors
   * may see the same dead replica: XCLAIM with a minimum idle time lets only the first take an
   * entry, since claiming resets its idle time.
   */
  private async claimFromDead(summary: PendingSummary): Promise<void> {
    // After Redis was unreachable (or at start) every key may have lapsed, the live replicas'
    // too: give them one TTL to refresh theirs before calling anyone dead.
    if (!this.running || this.liveSince === 0 || Date.now() - this.liveSince < this.livenessTtlMs) return;
    const owners = (summary[3] ?? []).map(([name]) => name).filter((name) => name !== this.consumer);
    for (const owner of owners) {
      if (!this.running) return;
      if ((await this.writer!.exists(livenessKey(this.options.namespace, this.options.service, owner))) === 1) continue;
      const free = this.options.concurrency - this.inFlight.size;
      if (free <= 0) return;
      const pending = (await this.writer!.xpending(this.stream, CONSUMER_GROUP, '-', '+', free, owner)) as Array<[string, string, number, number]>;
      if (pending.length === 0) continue;
      const entries = (await this.writer!.xclaim(
        this.stream,
        CONSUMER_GROUP,
        this.consumer,
        DEAD_CLAIM_MIN_IDLE_MS,
        ...pending.map(([id]) => id),
      )) as Array<StreamEntry | null>;
      for (const e of entries) {
        if (!e) continue;
        this.log.info({ entryId: e[0], from: owner }, 'claimed a request of a replica that died');
        this.dispatch(e[0], e[1]);
      }
    }
  }

  /** Takes over entries left pending by replicas that stopped heart-beating (alive but stuck, or no liveness key). */
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
    // Until our requests are answered, keep the liveness key: they are ours to finish.
    const keepAlive = setInterval(() => void this.refreshLiveness().catch(() => undefined), Math.max(100, Math.floor(this.livenessTtlMs / 4)));
    // Let requests in flight finish and reply; the blocked read is then cut.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inFlight.values()]),
      new Promise((r) => (timer = setTimeout(r, this.options.shutdownGraceMs ?? 10_000))),
    ]);
    clearTimeout(timer);
    clearInterval(keepAlive);
    await this.writer?.del(this.alive).catch(() => undefined);
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
