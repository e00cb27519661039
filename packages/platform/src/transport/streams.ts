import type { Writable } from 'node:stream';
import type { ServiceName } from '@gitforge/contracts';

/** Redis keys of the transport. One request stream and one consumer group per service. */
export const requestStream = (namespace: string, service: ServiceName): string => `${namespace}:rpc:${service}`;
export const CONSUMER_GROUP = 'replicas';
/** A replica's liveness key: set with a short TTL and refreshed while the process runs; gone soon after it dies. */
export const livenessKey = (namespace: string, service: ServiceName, consumer: string): string =>
  `${namespace}:alive:${service}:${consumer}`;
export const replyChannel = (namespace: string, clientId: string): string => `${namespace}:reply:${clientId}`;
/**
 * The directory's version (see `DirectoryClient`): a random token org-service replaces when each
 * of its writes starts and again when it ends, beside a count of its writes under way (which
 * expires a while after the last one started, should a writer die before it ends). Random
 * rather than counted, so that a Redis started afresh without the key never hands out a value a
 * kept answer carries (one restored from its append-only file may bring back the value of a
 * second earlier: DirectoryClient keeps answers 5 s at most for that).
 */
export const directoryEpochKey = (namespace: string): string => `${namespace}:directory:epoch`;
export const directoryWritesKey = (namespace: string): string => `${namespace}:directory:writes`;
/** How long a count of writes under way outlives the last write that started (a writer that died never ends its own). */
export const DIRECTORY_WRITES_TTL_MS = 60_000;

/**
 * The version a directory read may reuse answers under, from the values of the version and the
 * writes-under-way keys (as MGET answers them): null when unknown, or while a write is under way
 * (what is read then may be about to change, so nothing read may be kept either).
 */
export function directoryVersion(epoch: string | null | undefined, writes: string | null | undefined): string | null {
  return epoch && !(Number(writes) > 0) ? epoch : null;
}

/**
 * Ends a write: one fewer under way (the key goes at zero, so a count that expired meanwhile never
 * turns negative), and a new version.
 */
export const DIRECTORY_WRITE_ENDS = `
local n = redis.call('DECR', KEYS[1])
if n <= 0 then redis.call('DEL', KEYS[1]) end
redis.call('SET', KEYS[2], ARGV[1])
return n`;

/** Fields of a request entry in the stream. */
export interface RequestEntry {
  /** Correlation id of the request (not the stream entry id). */
  id: string;
  pattern: string;
  /** JSON of the RpcRequest. */
  data: string;
  replyTo: string;
  /** Epoch ms after which the caller has given up; a replica drops the entry unanswered. */
  deadline: number;
}

export function parseEntry(fields: string[]): RequestEntry | undefined {
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) map.set(fields[i]!, fields[i + 1]!);
  const id = map.get('id');
  const pattern = map.get('p');
  const data = map.get('d');
  const replyTo = map.get('r');
  const deadline = Number(map.get('dl'));
  if (!id || !pattern || data === undefined || !replyTo || !Number.isFinite(deadline)) return undefined;
  return { id, pattern, data, replyTo, deadline };
}

export function entryFields(entry: RequestEntry): string[] {
  return ['id', entry.id, 'p', entry.pattern, 'd', entry.data, 'r', entry.replyTo, 'dl', String(entry.deadline)];
}

/** Connections whose writes are held until the end of this turn of the event loop. */
const gathering = new WeakSet<object>();

/**
 * Holds a Redis connection's writes until the end of this turn of the event loop, so that the
 * commands a burst of requests sends in one turn (requests, replies, acknowledgements) reach
 * Redis in one write: one system call and one wakeup of Redis, not one each. Nothing waits
 * longer than the turn (the writes go out in its check phase), and each command stays its own,
 * failing at once as before when Redis is unreachable.
 */
export function gatherWrites(redis: { stream?: Writable } | undefined): void {
  const stream = redis?.stream;
  if (!stream || gathering.has(stream) || stream.writableCorked > 0) return;
  gathering.add(stream);
  stream.cork();
  setImmediate(() => {
    gathering.delete(stream);
    stream.uncork();
  });
}
