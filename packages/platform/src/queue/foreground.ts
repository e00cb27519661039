/**
 * The API requests this process is answering, which work nobody waits for makes way for. In the
 * embedded layout a request's writes publish events whose consumers run in the same process:
 * started at once, they shared the CPU (and SQLite's one writer) with the rest of that very
 * request, which answered later for it (a pull's merge spent a third of its time so). The outbox
 * relay, and a queue of the embedded layout woken from idle, therefore start once no request is
 * in flight, or after a bounded wait; a request never waits for background work.
 */
export class ForegroundRequests {
  private inFlight = 0;
  private readonly waiters = new Set<() => void>();

  /** A request begins: call what this answers once it has been answered (or its connection is gone); later calls do nothing. */
  enter(): () => void {
    this.inFlight += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.inFlight -= 1;
      if (this.inFlight > 0) return;
      for (const wake of [...this.waiters]) wake();
    };
  }

  /** Work waiting for the requests in flight to be answered. */
  get waiting(): number {
    return this.waiters.size;
  }

  /** Resolves once no request is in flight, after `maxMs` however many still are, or once `stop` is aborted. */
  idle(maxMs: number, stop?: AbortSignal): Promise<void> {
    if (this.inFlight === 0 || stop?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        stop?.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, maxMs);
      this.waiters.add(wake);
      stop?.addEventListener('abort', wake, { once: true });
    });
  }
}

/**
 * The longest background work woken while requests are in flight waits for them to be answered:
 * under a steady stream of requests it starts this much later.
 */
export const FOREGROUND_WAIT_MS = 50;

/** This process's requests (the gateway enters each one). */
export const foregroundRequests = new ForegroundRequests();
