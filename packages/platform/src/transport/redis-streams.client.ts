import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ReadPacket, WritePacket } from '@nestjs/microservices';
import { Redis } from 'ioredis';
import { serviceOfPattern } from '@gitforge/contracts';
import { createLogger } from '../logging/logger.js';
import { RedisErrorLog } from '../logging/redis-errors.js';
import { GitforgeClientProxy, timeoutPayload } from './gitforge-client.js';
import type { RpcReply } from './invoke.js';
import { DIRECTORY_WRITE_ENDS, DIRECTORY_WRITES_TTL_MS, directoryEpochKey, directoryVersion, directoryWritesKey, entryFields, gatherWrites, replyChannel, requestStream } from './streams.js';

/** Streams are trimmed around this length; entries are also deleted once answered. */
const STREAM_MAXLEN = 100_000;

/**
 * The caller side of the Redis Streams transport: XADD to the owning service's stream,
 * wait for the reply on this client's own channel.
 */
export class RedisStreamsClient extends GitforgeClientProxy {
  private readonly log = createLogger('redis-streams-client');
  private readonly clientId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly channel: string;
  private readonly pending = new Map<string, { callback: (p: WritePacket) => void; timer: NodeJS.Timeout }>();
  private pub?: Redis;
  private sub?: Redis;
  private connecting?: Promise<void>;

  constructor(
    private readonly url: string,
    private readonly namespace: string,
    defaultTimeoutMs: number,
  ) {
    super(defaultTimeoutMs);
    this.channel = replyChannel(namespace, this.clientId);
  }

  connect(): Promise<void> {
    this.connecting ??= (async () => {
      // No auto-pipelining: ioredis runs one auto-pipeline at a time, so once the connection drops
      // under one in flight every later request waits in the next (outside the offline queue) for
      // Redis to come back, and callers get their deadline instead of a prompt `unavailable`.
      const pub = new Redis(this.url, { maxRetriesPerRequest: 2, lazyConnect: true, enableOfflineQueue: false });
      const sub = new Redis(this.url, { maxRetriesPerRequest: null, lazyConnect: true });
      sub.on('message', (_channel: string, message: string) => this.onReply(message));
      // ioredis re-subscribes after a reconnect by itself.
      new RedisErrorLog(this.log, 'transport-client-pub').watch(pub);
      new RedisErrorLog(this.log, 'transport-client-sub').watch(sub);
      try {
        await Promise.all([pub.connect(), sub.connect()]);
        await sub.subscribe(this.channel);
      } catch (err) {
        // The next call connects afresh; these would otherwise reconnect (and log) for ever.
        pub.disconnect();
        sub.disconnect();
        throw err;
      }
      this.pub = pub;
      this.sub = sub;
    })().catch((err: unknown) => {
      this.connecting = undefined;
      throw err;
    });
    return this.connecting;
  }

  protected request(packet: ReadPacket, callback: (packet: WritePacket) => void, timeoutMs: number): () => void {
    const pattern = String(packet.pattern);
    const service = serviceOfPattern(pattern);
    if (!service) {
      callback({ err: { code: 'internal', message: `unknown pattern ${pattern}` } });
      return () => undefined;
    }
    const id = randomUUID();
    const timer = setTimeout(() => {
      this.pending.delete(id);
      callback(timeoutPayload(pattern, timeoutMs));
    }, timeoutMs);
    this.pending.set(id, { callback, timer });
    // A burst of callers' requests in one turn reaches Redis in one write.
    gatherWrites(this.pub);
    const fields = entryFields({
      id,
      pattern,
      data: JSON.stringify(packet.data ?? null),
      replyTo: this.channel,
      deadline: Date.now() + timeoutMs,
    });
    this.pub!.xadd(requestStream(this.namespace, service), 'MAXLEN', '~', STREAM_MAXLEN, '*', ...fields).catch((err: unknown) => {
      const waiting = this.pending.get(id);
      if (!waiting) return;
      clearTimeout(waiting.timer);
      this.pending.delete(id);
      this.log.warn({ err: String(err), pattern }, 'could not send request');
      callback({ err: { code: 'unavailable', message: 'the service transport is unavailable' } });
    });
    return () => {
      const waiting = this.pending.get(id);
      if (waiting) clearTimeout(waiting.timer);
      this.pending.delete(id);
    };
  }

  async directoryEpoch(): Promise<string | null> {
    await this.connect();
    const [epoch, writes] = await this.pub!.mget(directoryEpochKey(this.namespace), directoryWritesKey(this.namespace));
    return directoryVersion(epoch, writes);
  }

  async directoryWriteStarts(): Promise<void> {
    await this.connect();
    const writes = directoryWritesKey(this.namespace);
    const results = await this.pub!.multi().incr(writes).pexpire(writes, DIRECTORY_WRITES_TTL_MS).set(directoryEpochKey(this.namespace), randomUUID()).exec();
    const failed = results?.find(([err]) => err)?.[0];
    if (!results || failed) throw failed ?? new Error('the directory write could not be announced');
  }

  async directoryWriteEnds(): Promise<void> {
    await this.connect();
    await this.pub!.eval(DIRECTORY_WRITE_ENDS, 2, directoryWritesKey(this.namespace), directoryEpochKey(this.namespace), randomUUID());
  }

  private onReply(message: string): void {
    let reply: RpcReply;
    try {
      reply = JSON.parse(message) as RpcReply;
    } catch {
      return;
    }
    const waiting = this.pending.get(reply.id);
    // A reply nobody waits for: a retried request answered twice, or one that timed out.
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.pending.delete(reply.id);
    waiting.callback(reply.err ? { err: reply.err } : { response: reply.response, isDisposed: true });
  }

  async close(): Promise<void> {
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    await Promise.all([this.pub?.quit().catch(() => undefined), this.sub?.quit().catch(() => undefined)]);
    this.pub = this.sub = undefined;
    this.connecting = undefined;
  }

  unwrap<T>(): T {
    return this.pub as T;
  }
}
