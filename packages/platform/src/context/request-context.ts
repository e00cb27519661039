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
}

const storage = new AsyncLocalStorage<RequestContext>();

export const RequestContexts = {
  run<T>(ids: { requestId?: string; callId?: string }, fn: () => T): T {
    return storage.run({ requestId: ids.requestId || randomUUID(), callId: ids.callId, txSeq: 0 }, fn);
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
