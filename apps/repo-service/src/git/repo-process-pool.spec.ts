import { RepoProcessPool, type PooledProcess } from './repo-process-pool.js';

class FakeProcess implements PooledProcess {
  busy = false;
  closed = false;
  constructor(
    readonly repoId: number,
    readonly kind: string,
    public lastUsed: number,
    readonly exit: () => void,
  ) {}
  close(): void {
    this.closed = true;
  }
}

describe(RepoProcessPool.name, () => {
  let started: FakeProcess[];
  let clock: number;
  let pool: RepoProcessPool<'a' | 'b', FakeProcess>;

  beforeEach(() => {
    started = [];
    clock = 1_000;
    pool = new RepoProcessPool(
      (repoId, kind, onExit) => {
        const p = new FakeProcess(repoId, kind, clock++, onExit);
        started.push(p);
        return p;
      },
      { idleMs: 100, maxRepos: 2 },
    );
  });

  afterEach(() => pool.close());

  it('should start one process per repository and kind, and reuse it', () => {
    const a = pool.get(1, 'a');
    expect(pool.get(1, 'a')).toBe(a);
    expect(pool.get(1, 'b')).not.toBe(a);
    expect(pool.get(2, 'a')).not.toBe(a);
    expect(started).toHaveLength(3);
  });

  it('should forget a process that exits, so the next request starts another', () => {
    const first = pool.get(1, 'a');
    first.exit();
    const second = pool.get(1, 'a');
    expect(second).not.toBe(first);
    // A late exit of the old process does not take the new one with it.
    first.exit();
    expect(pool.get(1, 'a')).toBe(second);
  });

  it('should make room by stopping the least recently used idle repository, never a busy one', () => {
    const one = pool.get(1, 'a');
    const two = pool.get(2, 'a');
    one.busy = true;
    pool.get(3, 'a');
    expect(one.closed).toBe(false);
    expect(two.closed).toBe(true);
    expect(pool.size).toBe(2);
  });

  it('should stop processes idle past the limit, keep busy and recent ones, and drop empty repositories', () => {
    const idle = pool.get(1, 'a');
    const busy = pool.get(1, 'b');
    const recent = pool.get(2, 'a');
    busy.busy = true;
    recent.lastUsed = 1_200;
    pool.sweep(1_250);
    expect([idle.closed, busy.closed, recent.closed]).toEqual([true, false, false]);
    busy.busy = false;
    pool.sweep(1_250);
    expect(busy.closed).toBe(true);
    expect(pool.size).toBe(1);
  });

  it('should stop every process of a released repository, and all on close', () => {
    const a = pool.get(1, 'a');
    const b = pool.get(1, 'b');
    const c = pool.get(2, 'a');
    pool.release(1);
    expect([a.closed, b.closed, c.closed]).toEqual([true, true, false]);
    pool.close();
    expect(c.closed).toBe(true);
    expect(pool.size).toBe(0);
  });
});
