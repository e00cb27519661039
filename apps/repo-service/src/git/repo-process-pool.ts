/** A long-lived git process as the pool sees it. */
export interface PooledProcess {
  /** Whether requests are waiting on it: a busy process is neither evicted nor swept. */
  readonly busy: boolean;
  /** When it last took a request (ms since the epoch). */
  readonly lastUsed: number;
  close(): void;
}

export interface RepoProcessPoolOptions {
  /** A process unused this long is stopped. */
  idleMs: number;
  /** Repositories with processes at once; the least recently used idle one goes first. */
  maxRepos: number;
  /** How often idle processes are looked for. */
  sweepMs: number;
}

const DEFAULTS: RepoProcessPoolOptions = { idleMs: 60_000, maxRepos: 64, sweepMs: 15_000 };

/**
 * The bookkeeping of long-lived git processes kept per repository and per kind (CatFilePool's
 * `cat-file --batch` and `--batch-check`, ObjectWriterPool's writers): a process starts on first
 * use, one that exits is forgotten so the next request starts another, the least recently used
 * repository's processes make room past `maxRepos`, and processes idle past `idleMs` are stopped.
 */
export class RepoProcessPool<K extends string, P extends PooledProcess> {
  private readonly repos = new Map<number, Map<K, P>>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly options: RepoProcessPoolOptions;

  /** `start` makes the process of a kind for a repository; it calls `onExit` when the process ends. */
  constructor(
    private readonly start: (repoId: number, kind: K, onExit: () => void) => P,
    options: Partial<RepoProcessPoolOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.sweeper = setInterval(() => this.sweep(), this.options.sweepMs);
    this.sweeper.unref();
  }

  /** The repository's process of that kind, started if there is none. */
  get(repoId: number, kind: K): P {
    let entry = this.repos.get(repoId);
    if (!entry) {
      this.evictIfFull();
      entry = new Map();
      this.repos.set(repoId, entry);
    }
    let proc = entry.get(kind);
    if (!proc) {
      const created: P = this.start(repoId, kind, () => {
        const current = this.repos.get(repoId);
        if (current?.get(kind) === created) current.delete(kind);
      });
      proc = created;
      entry.set(kind, proc);
    }
    return proc;
  }

  /** Stops the processes of a repository (it is being deleted or replaced). */
  release(repoId: number): void {
    for (const p of this.repos.get(repoId)?.values() ?? []) p.close();
    this.repos.delete(repoId);
  }

  /** Stops the sweeper and every process. */
  close(): void {
    clearInterval(this.sweeper);
    for (const id of [...this.repos.keys()]) this.release(id);
  }

  /** Repositories that have processes now. */
  get size(): number {
    return this.repos.size;
  }

  private evictIfFull(): void {
    if (this.repos.size < this.options.maxRepos) return;
    let oldest: [number, number] | undefined;
    for (const [id, procs] of this.repos) {
      const all = [...procs.values()];
      if (all.some((p) => p.busy)) continue;
      const used = Math.max(0, ...all.map((p) => p.lastUsed));
      if (!oldest || used < oldest[1]) oldest = [id, used];
    }
    if (oldest) this.release(oldest[0]);
  }

  /** Stops idle processes; public for tests. */
  sweep(now = Date.now()): void {
    for (const [id, procs] of this.repos) {
      for (const [kind, p] of procs) {
        if (!p.busy && now - p.lastUsed > this.options.idleMs) {
          p.close();
          procs.delete(kind);
        }
      }
      if (procs.size === 0) this.repos.delete(id);
    }
  }
}
