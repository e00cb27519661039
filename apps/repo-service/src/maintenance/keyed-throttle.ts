/**
 * At most one run per key and interval, leading and trailing: the first call of a quiet spell runs
 * at once; calls within the interval after it are answered by one run at its end, so the last
 * call is always followed by a run.
 */
export class KeyedThrottle {
  /** When each key last ran (recent ones only). */
  private readonly last = new Map<number, number>();
  /** The run scheduled at the end of a key's interval. */
  private readonly trailing = new Map<number, NodeJS.Timeout>();

  constructor(private readonly intervalMs: number) {}

  /**
   * True when the caller is to run now (recorded as run). Otherwise false, and `later` is called
   * at the end of the interval (once, however many calls come meanwhile); it usually calls this again.
   */
  now(key: number, later: () => void): boolean {
    const now = Date.now();
    const last = this.last.get(key);
    if (last !== undefined && now - last < this.intervalMs) {
      if (!this.trailing.has(key)) {
        const timer = setTimeout(() => {
          this.trailing.delete(key);
          later();
        }, last + this.intervalMs - now);
        timer.unref();
        this.trailing.set(key, timer);
      }
      return false;
    }
    this.last.set(key, now);
    for (const [k, at] of this.last) if (now - at >= this.intervalMs && !this.trailing.has(k)) this.last.delete(k);
    return true;
  }

  /** Drops the scheduled runs (shutdown). */
  clear(): void {
    for (const timer of this.trailing.values()) clearTimeout(timer);
    this.trailing.clear();
  }
}
