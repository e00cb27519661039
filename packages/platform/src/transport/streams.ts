import type { ServiceName } from '@gitforge/contracts';

/** Redis keys of the transport. One request stream and one consumer group per service. */
export const requestStream = (namespace: string, service: ServiceName): string => `${namespace}:rpc:${service}`;
export const CONSUMER_GROUP = 'replicas';
/** A replica's liveness key: set with a short TTL and refreshed while the process runs; gone soon after it dies. */
export const livenessKey = (namespace: string, service: ServiceName, consumer: string): string =>
  `${namespace}:alive:${service}:${consumer}`;
export const replyChannel = (namespace: string, clientId: string): string => `${namespace}:reply:${clientId}`;
/**
 * The directory's version (see `DirectoryClient`): a random token org-service replaces after every
 * write it commits. Random rather than counted, so a Redis that lost the key and starts again can
 * never bring back a value an old cached answer carries.
 */
export const directoryEpochKey = (namespace: string): string => `${namespace}:directory:epoch`;

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
