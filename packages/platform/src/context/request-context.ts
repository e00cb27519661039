import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What follows a request across await points and across the transport. */
export interface RequestContext {
  /** Correlates log lines of one HTTP request across every service it touches. */
  requestId: string;
  /**
   * Identity of this one transport message: stable when another replica claims it, different
   * for every call. Keys the idempotency records of the handler's transactions.
   */
  callId?: string;
  /** Counts the transactions of this call, so each one has a stable idempotency key. */
  txSeq: number;
  /**
   * The directory's version as it was once this request had been read off its stream (see
   * `DirectoryClient`), for the directory reads it makes; undefined when unknown, and dropped as
   * soon as the request has called another service, which may have changed the directory.
   */
  directoryEpoch?: string | null;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const RequestContexts = {
  run<T>(ids: { requestId?: string; callId?: string; directoryEpoch?: string | null }, fn: () => T): T {
    return storage.run({ requestId: ids.requestId || randomUUID(), callId: ids.callId, txSeq: 0, directoryEpoch: ids.directoryEpoch }, fn);
  },
  current(): RequestContext | undefined {
    return storage.getStore();
  },
  requestId(): string | undefined {
    return storage.getStore()?.requestId;
  },
  /** Runs `fn` outside any request (background work started from inside one). */
  detached<T>(fn: () => T): T {
    return storage.exit(fn);
  },
};
