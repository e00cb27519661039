import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitOperations } from '@gitforge/platform';
import { TestRepo } from '../../test/support/test-repo.js';
import { CatFilePool } from './cat-file.pool.js';
import { commitInfoOf } from './commit-changes.js';
import { CommitLog } from './commit-log.js';
import { CommitWriter, signatureEnv, type CommitSignature, type NewCommit, type TreeChange } from './commit-writer.js';
import { GitObjects } from './git-objects.js';
import { ObjectWriterPool } from './object-writer.pool.js';
import { Refs } from './refs.js';

describe('git readers and writer', () => {
  let repo: TestRepo;
  let pool: CatFilePool;
  let objects: GitObjects;
  let writers: ObjectWriterPool;

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
    writers = new ObjectWriterPool(repo.git);
  });

  afterAll(() => {
    pool.onModuleDestroy();
    writers.onModuleDestroy();
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
      const writer = new CommitWriter(repo.git, objects, writers);
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

    it('should refuse, as write-tree does, an entry naming an object the repository lacks or of another type', async () => {
      const writer = new CommitWriter(repo.git, objects, writers);
      const refs = new Refs(repo.git, objects);
      const head = (await refs.branchHead(1, 'main'))!;
      const sig = { name: 'W', email: 'w@example.com', when: 1_700_000_000, tz: '+0000' };
      // A renamed submodule: its commit is not in this repository, and would become a blob entry.
      const change = (blob: string): NewCommit => ({ parent: head, changes: [{ path: 'moved', mode: '100644', blob }], message: 'm\n', author: sig, committer: sig });
      const missing = change('1234567890abcdef1234567890abcdef12345678');
      await expect(writer.writeThroughIndex(1, missing, 'sha1')).rejects.toThrow(/invalid object/);
      await expect(writer.write(1, missing, 'sha1')).rejects.toThrow(/invalid object/);
      // A commit as a file's content would be a broken link to fsck as well.
      await expect(writer.write(1, change(head), 'sha1')).rejects.toThrow(/invalid object/);
    });

    it('should write the commit commit-tree writes: a parent given twice once, non-characters, the last date git takes and the first it refuses', async () => {
      const writer = new CommitWriter(repo.git, objects, writers);
      const head = (await new Refs(repo.git, objects).branchHead(1, 'main'))!;
      const tree = (await objects.commit(1, head))!.tree;
      const sig = { name: 'W', email: 'w@example.com', when: 1_700_000_000, tz: '-0330' };
      const byGit = (parents: string[], message: string, s = sig): string =>
        execFileSync('git', ['--git-dir', repo.git.repoPath(1), 'commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'], {
          input: message,
          env: { ...process.env, ...signatureEnv(s, s) },
          stdio: ['pipe', 'pipe', 'pipe'],
        })
          .toString()
          .trim();
      for (const [parents, message, s] of [
        [[head, head], 'merge of itself\n', sig],
        [[], 'root\n', sig],
        [[head], 'odd \uFFFE and \uFDD0 characters\n', sig],
        [[head], 'last second\n', { ...sig, when: 4_102_444_799 }],
      ] as const) {
        expect(await writer.commitTree(1, tree, [...parents], message, s, s)).toBe(byGit([...parents], message, s));
      }
      await expect(writer.commitTree(1, tree, [head], 'too late\n', { ...sig, when: 4_102_444_800 }, sig)).rejects.toThrow(/invalid author or committer/);
    });

    it('should refuse a NUL in a message or an identity, as commit-tree does, never writing a commit fsck rejects', async () => {
      const writer = new CommitWriter(repo.git, objects, writers);
      const head = (await new Refs(repo.git, objects).branchHead(1, 'main'))!;
      const sig = { name: 'W', email: 'w@example.com', when: 1_700_000_000, tz: '+0000' };
      const commit = (message: string, author = sig): NewCommit => ({ parent: head, changes: [{ path: 'n.txt', mode: '100644', content: Buffer.from('n') }], message, author, committer: sig });
      await expect(writer.writeThroughIndex(1, commit('a\0b\n'), 'sha1')).rejects.toThrow(/NUL byte/);
      await expect(writer.write(1, commit('a\0b\n'), 'sha1')).rejects.toThrow(/NUL byte/);
      for (const author of [{ ...sig, name: 'a\0b' }, { ...sig, email: 'a\0b@x' }]) {
        await expect(writer.write(1, commit('m\n', author), 'sha1')).rejects.toThrow();
      }
    });

    it('should write what git\'s index writes for names NTFS reads as .git (the index ignores them)', async () => {
      const writer = new CommitWriter(repo.git, objects, writers);
      const head = (await new Refs(repo.git, objects).branchHead(1, 'main'))!;
      const sig = { name: 'W', email: 'w@example.com', when: 1_700_000_000, tz: '+0000' };
      for (const path of ['.git./x', 'GIT~1', 'd/.Git . /y', '.git::$INDEX_ALLOCATION/z', '.GIT\\w', 'a\\b']) {
        const commit: NewCommit = { parent: head, changes: [{ path, mode: '100644', content: Buffer.from('x') }, { path: 'ok.txt', mode: '100644', content: Buffer.from('y') }], message: 'm\n', author: sig, committer: sig };
        expect({ path, sha: await writer.write(1, commit, 'sha1') }).toEqual({ path, sha: await writer.writeThroughIndex(1, commit, 'sha1') });
      }
      // Names that only start like it stay on the in-process way.
      const before = (await gitOperations.get()).values.filter((v) => v.labels.kind === 'write-tree').reduce((n, v) => n + v.value, 0);
      await writer.write(1, { parent: head, changes: [{ path: '.github/.gitignore', mode: '100644', content: Buffer.from('x') }], message: 'm\n', author: sig, committer: sig }, 'sha1');
      expect((await gitOperations.get()).values.filter((v) => v.labels.kind === 'write-tree').reduce((n, v) => n + v.value, 0)).toBe(before);
    });

    it('should write the very commit git\'s index and commit-tree write, whatever the changes', async () => {
      const writer = new CommitWriter(repo.git, objects, writers);
      const sig = { name: 'W', email: 'w@example.com', when: 1_700_000_000, tz: '+0000' };
      const written: string[] = [];
      const same = async (parent: string | null, changes: TreeChange[], author: CommitSignature = sig, committer: CommitSignature = sig): Promise<string> => {
        const commit: NewCommit = { parent, changes, message: 'change\n\nbody', author, committer };
        const fast = await writer.write(1, commit, 'sha1');
        expect(fast).toBe(await writer.writeThroughIndex(1, commit, 'sha1'));
        written.push(fast);
        return fast;
      };
      const file = (path: string, text: string, mode: '100644' | '100755' = '100644'): TreeChange => ({ path, mode, content: Buffer.from(text) });
      // The in-process way starts no process (the long-lived writers are counted when they end).
      const oneShots = async (): Promise<number> =>
        (await gitOperations.get()).values
          .filter((v) => ['read-tree', 'update-index', 'write-tree', 'commit-tree', 'hash-object', 'mktree'].includes(String(v.labels.kind)))
          .reduce((n, v) => n + v.value, 0);
      const before = await oneShots();
      await writer.write(1, { parent: null, changes: [file('z/z.txt', 'z')], message: 'm', author: sig, committer: sig }, 'sha1');
      expect(await oneShots()).toBe(before);
      const base = await same(null, [file('a/b/c.txt', 'c'), file('a/d.txt', 'd', '100755'), file('e.txt', 'e'), file('a/b/f.txt', 'f')]);
      const blob = repo.bare('rev-parse', `${base}:e.txt`).trim();
      await same(base, [file('a/b/c.txt', 'c2'), { path: 'e.txt', remove: true }, { path: 'moved/e.txt', mode: '100644', blob }]);
      // Emptied directories go; a removal of a missing path or of a directory's path removes nothing.
      await same(base, [{ path: 'a/b/c.txt', remove: true }, { path: 'a/b/f.txt', remove: true }, { path: 'nope/x', remove: true }, { path: 'a', remove: true }]);
      await same(base, [{ path: 'a/b/c.txt', remove: true }, { path: 'a/b/f.txt', remove: true }, { path: 'a/d.txt', remove: true }, { path: 'e.txt', remove: true }]);
      // A file where a directory is, and a directory where a file is; later changes win.
      await same(base, [file('a/b', 'now a file'), file('e.txt/inner.txt', 'now a dir'), file('x.txt', 'one'), file('x.txt', 'two', '100755')]);
      // A submodule entry, names git sorts as directories, unchanged content.
      await same(base, [{ path: 'sub', mode: '160000', blob: base }, file('a.b', 'dot'), file('a-b', 'dash'), file('e.txt', 'e')]);
      // Identities as git's fmt_ident writes them, and those it refuses or rewrites.
      for (const name of ['.x.', ' <a>b, ', 'a\nb', "o'neil\\", 'Zoë "Z"', '\u00e9t\u00e9']) {
        await same(base, [file('n.txt', name)], { ...sig, name, email: ' <e@x>. ' }, { ...sig, email: '' });
      }
      for (const tz of ['+0530', '-0000', '-1200', '+2300', '+1460']) await same(base, [file('t.txt', tz)], { ...sig, tz });
      await expect(same(base, [file('n.txt', 'x')], { ...sig, name: ';;' })).rejects.toThrow(/disallowed characters/);
      // Each commit described in process as `git log --name-status` describes it (push payloads).
      const history = repo.bare('rev-list', 'refs/heads/main').trim().split('\n');
      for (const sha of [...written, ...history]) expect(await commitInfoOf(objects, 1, sha)).toEqual(await repo.git.commitInfo(1, sha));
    });
  });
});
