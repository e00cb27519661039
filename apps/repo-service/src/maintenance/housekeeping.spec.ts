import type { Database } from '@gitforge/platform';
import type { GitService } from '../git/git.service.js';
import { Housekeeping } from './housekeeping.js';

describe(Housekeeping.name, () => {
  /** A repository with nothing to do: every look is one count-objects, recorded per repository. */
  const looks: number[] = [];
  const git = {
    run: (repoId: number, args: string[]) => {
      if (args[0] === 'count-objects') looks.push(repoId);
      return Promise.resolve({ stdout: Buffer.from('count: 0\nsize: 0\npacks: 0\nsize-pack: 0\n'), stderr: '', code: 0 });
    },
    repoPath: (repoId: number) => `/nonexistent/${repoId}.git`,
  } as unknown as GitService;
  const db = {
    manager: { exists: () => Promise.resolve(true) },
    sql: { withSessionLock: (_ds: unknown, _key: unknown, _busy: unknown, work: () => Promise<unknown>) => work() },
    dataSource: {},
  } as unknown as Database;
  /** Waits (polling, never a fixed sleep) until the looks so far are `expected`. */
  const looksBecome = async (expected: number[]): Promise<void> => {
    const deadline = Date.now() + 10_000;
    while (JSON.stringify(looks) !== JSON.stringify(expected) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(looks).toEqual(expected);
  };

  it('should look at a repository after its first push at once, and once more for a burst that follows', async () => {
    const housekeeping = new Housekeeping(git, db);
    try {
      housekeeping.afterPush(1);
      await looksBecome([1]);
      for (let i = 0; i < 50; i++) housekeeping.afterPush(1);
      housekeeping.afterPush(2);
      // The burst waits for the end of the interval (one look then); another repository is looked at at once.
      await looksBecome([1, 2]);
      await looksBecome([1, 2, 1]);
    } finally {
      housekeeping.onModuleDestroy();
    }
  });
});
