/**
 * The process-wide "stop taking work" switch. A signal flips it before the apps close, so every
 * listener of the process (the gateway, the services' internal HTTP listeners, the metrics
 * listener's readiness) stops accepting at once, while the apps then finish what they have.
 */
const drainListeners = new Set<() => void>();
let draining = false;

/** Whether the process is shutting down (readiness answers 503). */
export function isDraining(): boolean {
  return draining;
}

/** Runs `listener` when the process starts draining (at once if it already is); returns an unsubscribe. */
export function onDrain(listener: () => void): () => void {
  if (draining) {
    listener();
    return () => undefined;
  }
  drainListeners.add(listener);
  return () => drainListeners.delete(listener);
}

/** Flips the switch (idempotent). */
export function beginDrain(): void {
  if (draining) return;
  draining = true;
  for (const listener of [...drainListeners]) {
    try {
      listener();
    } catch (err) {
      console.error('drain listener failed', err);
    }
  }
  drainListeners.clear();
}

/** Resolves when `work` settles or after `ms`, whichever is first; says whether `work` finished. */
export async function settleWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const finished = await Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return finished;
}
