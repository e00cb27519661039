import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LastCommits } from './last-commits.js';
import { TestRepo } from '../../test/support/test-repo.js';

describe(LastCommits.name, () => {
  let repo: TestRepo;
  let sut: LastCommits;

  const write = (path: string, content: string) => {
    mkdirSync(join(repo.work, path, '..'), { recursive: true });
    writeFileSync(join(repo.work, path), content);
  };
  const commit = (message: string) => {
    repo.sh('add', '-A');
    repo.sh('commit', '-q', '-m', message);
  };
  /** What `git log -1 -- <path>` says, the reference the walk must agree with. */
  const reference = (rev: string, path: string) => repo.bare('log', '-1', '--format=%H', rev, '--', path).trim();

  beforeAll(async () => {
    repo = await new TestRepo().init();
    write('top.txt', '1');
    write('dir/a.txt', 'a');
    write('dir/b.txt', 'b');
    write('dir/sub/c.txt', 'c');
    commit('first');
    write('dir/a.txt', 'a2');
    commit('edit a');
    repo.sh('checkout', '-q', '-b', 'side');
    write('dir/b.txt', 'b-side');
    commit('side edits b');
    write('dir/sub/c.txt', 'c-side');
    commit('side edits c');
    repo.sh('checkout', '-q', 'main');
    write('dir/sub/c.txt', 'c-main');
    commit('main edits c');
    write('top.txt', '2');
    commit('edit top');
    // c.txt conflicts: the merge's resolution makes it differ from both parents.
    try {
      repo.sh('merge', '-q', '--no-ff', '-m', 'merge side', 'side');
    } catch {
      write('dir/sub/c.txt', 'c-resolved');
      repo.sh('add', '-A');
      repo.sh('commit', '-q', '--no-edit');
    }
    write('dir/new.txt', 'n');
    commit('add new');
    repo.push();
    sut = new LastCommits(repo.git);
  });

  afterAll(() => repo.remove());

  it('should agree with `git log -1 -- <path>` for every entry, merges included', async () => {
    const head = repo.bare('rev-parse', 'main').trim();
    for (const [dir, names] of [
      ['', ['top.txt', 'dir']],
      ['dir', ['a.txt', 'b.txt', 'sub', 'new.txt']],
      ['dir/sub', ['c.txt']],
    ] as const) {
      const found = await sut.forEntries(1, head, dir, [...names]);
      for (const name of names) {
        const path = dir ? `${dir}/${name}` : name;
        expect([path, found.get(name)]).toEqual([path, reference(head, path)]);
      }
    }
  });

  it('should answer as of an older commit, and from the cache the second time', async () => {
    const older = repo.bare('rev-parse', 'main~3').trim();
    const first = await sut.forEntries(1, older, 'dir', ['a.txt', 'b.txt']);
    expect(first.get('a.txt')).toBe(reference(older, 'dir/a.txt'));
    repo.remove();
    // The repository is gone: only the cache can answer now.
    expect(await sut.forEntries(1, older, 'dir', ['a.txt', 'b.txt'])).toEqual(first);
  });
});
