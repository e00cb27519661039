import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo } from '../../test/support/test-repo.js';
import { CatFilePool } from './cat-file.pool.js';
import { CommitLog } from './commit-log.js';
import { CommitWriter } from './commit-writer.js';
import { GitObjects } from './git-objects.js';
import { Refs } from './refs.js';

describe('git readers and writer', () => {
  let repo: TestRepo;
  let pool: CatFilePool;
  let objects: GitObjects;

  beforeAll(async () => {
    repo = await new TestRepo().init();
    writeFileSync(join(repo.work, 'a.txt'), 'one\ntwo\n');
    writeFileSync(join(repo.work, 'run.sh'), '#!/bin/sh\n');
    chmodSync(join(repo.work, 'run.sh'), 0o755);
    repo.sh('add', '-A');
    repo.sh('commit', '-q', '-m', 'first\n\nbody');
    writeFileSync(join(repo.work, 'a.txt'), 'one\nthree\n');
    repo.sh('rm', '-q', 'run.sh');
    repo.sh('commit', '-q', '-am', 'second');
    repo.push();
    pool = new CatFilePool(repo.git);
    objects = new GitObjects(pool);
  });

  afterAll(() => {
    pool.onModuleDestroy();
    repo.remove();
  });

  describe(GitObjects.name, () => {
    it('should read and parse commits, trees and blobs through one pipelined process', async () => {
      const head = (await objects.resolveCommit(1, 'refs/heads/main'))!;
      const commit = (await objects.commit(1, head))!;
      expect(commit).toMatchObject({ message: 'second\n', author: { name: 'Tester', email: 'tester@example.com', tz: '+0000' } });
      expect(commit.parents).toHaveLength(1);
      const first = (await objects.commit(1, commit.parents[0]!))!;
      expect(first.message).toBe('first\n\nbody\n');
      const root = (await objects.tree(1, first.tree))!;
      expect(root.map((e) => [e.name, e.mode, e.type])).toEqual([
        ['a.txt', '100644', 'blob'],
        ['run.sh', '100755', 'blob'],
      ]);
      const reads = await Promise.all(root.map((e) => objects.blob(1, e.sha)));
      expect(reads.map((b) => b!.toString())).toEqual(['one\ntwo\n', '#!/bin/sh\n']);
      expect(await objects.entry(1, commit, 'run.sh')).toBeNull();
      expect((await objects.entry(1, first, 'run.sh'))!.mode).toBe('100755');
      expect(await objects.resolveCommit(1, 'refs/heads/none')).toBeNull();
      expect(await objects.blob(1, head)).toBeNull();
    });
  });

  describe(CommitLog.name, () => {
    it('should list commits with their file statuses and line counts', async () => {
      const log = new CommitLog(repo.git);
      const commits = await log.log(1, { revs: ['refs/heads/main'] });
      expect(commits.map((c) => [c.message, c.changes])).toEqual([
        ['second\n', { added: [], removed: ['run.sh'], modified: ['a.txt'], additions: 1, deletions: 2 }],
        ['first\n\nbody\n', { added: ['a.txt', 'run.sh'], removed: [], modified: [], additions: 3, deletions: 0 }],
      ]);
      expect(await log.count(1, { revs: ['refs/heads/main'], path: 'run.sh' })).toBe(2);
      expect((await log.log(1, { revs: ['refs/heads/main'], skip: 1, maxCount: 1 })).map((c) => c.message)).toEqual(['first\n\nbody\n']);
    });

    it('should count a renamed file\'s changed lines only, and list the rename as a removal and an addition', async () => {
      const renamed = await new TestRepo().init();
      try {
        writeFileSync(join(renamed.work, 'z.txt'), Array.from({ length: 20 }, (_, i) => `line ${i}\n`).join(''));
        renamed.sh('add', '-A');
        renamed.sh('commit', '-q', '-m', 'one');
        renamed.sh('mv', 'z.txt', 'b.txt');
        writeFileSync(join(renamed.work, 'b.txt'), Array.from({ length: 20 }, (_, i) => `line ${i === 3 ? 'three' : i}\n`).join(''));
        renamed.sh('add', '-A');
        renamed.sh('commit', '-q', '-m', 'rename');
        renamed.push();
        const [head] = await new CommitLog(renamed.git).log(1, { revs: ['refs/heads/main'], maxCount: 1 });
        expect(head!.changes).toEqual({ added: ['b.txt'], removed: ['z.txt'], modified: [], additions: 1, deletions: 1 });
      } finally {
        renamed.remove();
      }
    });
  });

  describe(CommitWriter.name, () => {
    it('should commit without a working tree and move the branch only from the expected value', async () => {
      const writer = new CommitWriter(repo.git);
      const refs = new Refs(repo.git, objects);
      const head = (await refs.branchHead(1, 'main'))!;
      const sig = { name: 'W', email: 'w@example.com', when: 1_700_000_000, tz: '+0130' };
      const commit = await writer.write(
        1,
        { parent: head, changes: [{ path: 'dir/new.txt', mode: '100644', content: Buffer.from('new') }, { path: 'a.txt', remove: true }], message: 'm\n', author: sig, committer: sig },
        'sha1',
      );
      expect(await writer.updateRef(1, 'refs/heads/main', commit, commit, 'sha1')).toBe('stale');
      expect(await writer.updateRef(1, 'refs/heads/main', commit, head, 'sha1')).toBe('ok');
      expect(repo.bare('ls-tree', '-r', '--name-only', 'main').trim().split('\n')).toEqual(['dir/new.txt']);
      expect(repo.bare('log', '-1', '--format=%an %ad', '--date=raw').trim()).toBe('W 1700000000 +0130');
      expect(await writer.updateRef(1, 'refs/heads/main/x', commit, null, 'sha1')).toBe('name-conflict');
      expect(await writer.updateRef(1, 'refs/heads/other', commit, null, 'sha1')).toBe('ok');
      expect(await writer.updateRef(1, 'refs/heads/other', commit, null, 'sha1')).toBe('stale');
      expect(await writer.deleteRef(1, 'refs/heads/other', head)).toBe('stale');
      expect(await writer.deleteRef(1, 'refs/heads/other', commit)).toBe('ok');
      expect(await refs.branchHead(1, 'other')).toBeNull();
    });
  });
});
