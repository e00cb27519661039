import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ContractError, PullStatus, type AccountRef, type PullMergeRequest } from '@gitforge/contracts';
import type { Database, DirectoryClient } from '@gitforge/platform';
import { TestRepo } from '../../test/support/test-repo.js';
import { CommitUsers } from '../commits/commit-users.js';
import { CatFilePool } from '../git/cat-file.pool.js';
import { ObjectWriterPool } from '../git/object-writer.pool.js';
import { CommitLog } from '../git/commit-log.js';
import { CommitWriter } from '../git/commit-writer.js';
import { GitObjects } from '../git/git-objects.js';
import { Refs } from '../git/refs.js';
import type { PushPolicy, RefUpdate } from '../protections/push-policy.js';
import type { PushesService } from '../pushes/pushes.service.js';
import { repoUrls } from '../repos/repo.mapper.js';
import { PullGit } from './pull-git.js';
import { PullMergeService } from './pull-merge.service.js';
import { requiredContextsState } from './pull-policy.service.js';
import { PullRangeService } from './pull-range.service.js';
import type { PullRepos } from './pull-repos.js';
import { PullStateService } from './pull-state.service.js';

const BASE = 1;
const FORK = 2;

const account = (id: number, login: string): AccountRef =>
  ({ id, login, kind: 'user', isAdmin: false, isActive: true, email: `${login}@example.com`, user: { full_name: `${login} Full` } }) as AccountRef;

describe('pull requests in git', () => {
  let repo: TestRepo;
  let pool: CatFilePool;
  let writers: ObjectWriterPool;
  let objects: GitObjects;
  let pulls: PullGit;
  let state: PullStateService;
  let range: PullRangeService;
  let merges: PullMergeService;
  let recorded: Array<{ repoId: number; updates: RefUpdate[] }>;

  const head = (ref: string, id = BASE): string => execFileSync('git', ['--git-dir', repo.git.repoPath(id), 'rev-parse', ref]).toString().trim();
  const parents = (sha: string): string[] => execFileSync('git', ['--git-dir', repo.git.repoPath(BASE), 'rev-list', '--parents', '-n1', sha]).toString().trim().split(' ').slice(1);
  const file = (ref: string, path: string): string => execFileSync('git', ['--git-dir', repo.git.repoPath(BASE), 'show', `${ref}:${path}`]).toString();

  /** A branch `name` from the base repository's `from` with one commit per file change, pushed to the base repository. */
  function branch(name: string, from: string, changes: Array<Record<string, string>>): void {
    repo.sh('fetch', '-q', 'origin');
    repo.sh('checkout', '-q', '-B', name, `origin/${from}`);
    for (const [i, set] of changes.entries()) {
      for (const [path, content] of Object.entries(set)) writeFileSync(join(repo.work, path), content);
      repo.sh('add', '-A');
      repo.sh('commit', '-q', '-m', `${name} ${i + 1}`);
    }
    repo.sh('push', '-q', '-f', 'origin', name);
  }

  async function pull(index: number, headBranch: string, style: PullMergeRequest['style'], extra: Partial<PullMergeRequest> = {}): Promise<PullMergeRequest> {
    const headSha = head(`refs/heads/${headBranch}`, extra.headRepoId ?? BASE);
    const [synced] = await state.sync([{ baseRepoId: BASE, baseBranch: 'main', headRepoId: BASE, headBranch, index, headSha: null, ...extra }]);
    expect(synced?.headSha).toBe(headSha);
    return { baseRepoId: BASE, baseBranch: 'main', headRepoId: BASE, headBranch, index, style, headSha, message: `Merge ${headBranch}`, doerId: 7, ...extra };
  }

  beforeAll(async () => {
    repo = await new TestRepo().init();
    writeFileSync(join(repo.work, 'a.txt'), 'one\ntwo\nthree\n');
    repo.sh('add', '-A');
    repo.sh('commit', '-q', '-m', 'first');
    repo.push();
    await repo.git.initStaged(FORK, 'main');
    await repo.git.promote(FORK);
    pool = new CatFilePool(repo.git);
    writers = new ObjectWriterPool(repo.git);
    objects = new GitObjects(pool);
    const refs = new Refs(repo.git, objects);
    pulls = new PullGit(repo.git, objects, refs);
    state = new PullStateService(repo.git, refs, pulls);
    const users = { byEmail: () => Promise.resolve(new Map()) } as unknown as CommitUsers;
    const urls = (id: number) => Promise.resolve(repoUrls({ rootUrl: 'http://forge.test/', sshUrlBase: 'git@forge.test:' }, id === FORK ? 'forker' : 'owner', id === FORK ? 'fork' : 'repo'));
    const context = (repoId: number) =>
      Promise.resolve({ repo: { id: repoId, objectFormat: 'sha1', defaultBranch: 'main', isArchived: false }, permission: { canWrite: () => true }, actor: { id: 7 } });
    const repos = { urls, pushContext: context, context } as unknown as PullRepos;
    range = new PullRangeService(repo.git, new CommitLog(repo.git), users, repos);
    recorded = [];
    const pushes = { afterRefUpdates: (ctx: { repo: { id: number } }, updates: RefUpdate[]) => (recorded.push({ repoId: ctx.repo.id, updates }), Promise.resolve()) } as unknown as PushesService;
    const directory = {
      accountsByIds: (_: unknown, ids: number[]) => Promise.resolve(ids.map((id) => account(id, id === 7 ? 'merger' : 'poster'))),
      usersByEmails: () => Promise.resolve([account(9, 'tester')].map((a) => ({ ...a, email: 'tester@example.com' }))),
    } as unknown as DirectoryClient;
    const db = { transaction: (fn: () => Promise<unknown>) => fn() } as unknown as Database;
    const policy = {
      ruleFor: () => Promise.resolve(null),
      // A branch named `guarded` refuses every update, as a protection rule's allowlist would.
      checkRefUpdates: (_ctx: unknown, updates: RefUpdate[]) =>
        Promise.resolve(updates.map((u) => (u.ref === 'refs/heads/guarded' ? { ref: u.ref, allowed: false, message: 'Not allowed to push to protected branch guarded' } : { ref: u.ref, allowed: true }))),
    } as unknown as PushPolicy;
    merges = new PullMergeService(db, repo.git, objects, refs, new CommitWriter(repo.git, objects, writers), pulls, repos, pushes, policy, directory);
  });

  afterAll(() => {
    pool.onModuleDestroy();
    writers.onModuleDestroy();
    repo.remove();
  });

  beforeEach(() => {
    recorded = [];
  });

  it('should report mergeable, conflict, empty and already merged pulls with counts', async () => {
    branch('feat', 'main', [{ 'b.txt': 'b\n' }, { 'a.txt': 'one\ntwo\nthree\nfour\n' }]);
    const mergeable = await state.inspect({ baseRepoId: BASE, baseBranch: 'main', headRepoId: BASE, headBranch: 'feat' });
    expect(mergeable).toMatchObject({ status: PullStatus.mergeable, commitsAhead: 2, commitsBehind: 0, additions: 2, deletions: 0, changedFiles: 2 });
    expect(mergeable.mergeBase).toBe(head('main'));

    branch('clash', 'main', [{ 'a.txt': 'one\nTWO\nthree\n' }]);
    branch('clash-base', 'main', [{ 'a.txt': 'one\nzwei\nthree\n' }]);
    const conflict = await state.inspect({ baseRepoId: BASE, baseBranch: 'clash-base', headRepoId: BASE, headBranch: 'clash' });
    expect(conflict).toMatchObject({ status: PullStatus.conflict, conflictedFiles: ['a.txt'], commitsAhead: 1, commitsBehind: 1 });

    branch('same', 'clash-base', [{ 'a.txt': 'one\ntwo\nthree\n' }]);
    branch('revert', 'clash-base', [{ 'a.txt': 'one\ntwo\nthree\n' }, { 'a.txt': 'one\nzwei\nthree\n' }]);
    expect((await state.inspect({ baseRepoId: BASE, baseBranch: 'clash-base', headRepoId: BASE, headBranch: 'revert' })).status).toBe(PullStatus.empty);
    expect((await state.inspect({ baseRepoId: BASE, baseBranch: 'clash-base', headRepoId: BASE, headBranch: 'main' })).status).toBe(PullStatus.ancestorMerged);

    await expect(state.inspect({ baseRepoId: BASE, baseBranch: 'main', headRepoId: BASE, headBranch: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('should fetch a fork head into the base and keep refs/pull/{index}/head when the head branch is gone', async () => {
    repo.sh('checkout', '-q', '-B', 'forked', 'main');
    writeFileSync(join(repo.work, 'f.txt'), 'fork\n');
    repo.sh('add', '-A');
    repo.sh('commit', '-q', '-m', 'from the fork');
    repo.sh('push', '-q', repo.git.repoPath(FORK), 'forked:refs/heads/topic', 'main:refs/heads/main');
    const forkHead = head('refs/heads/topic', FORK);
    expect(() => execFileSync('git', ['--git-dir', repo.git.repoPath(BASE), 'cat-file', '-e', forkHead], { stdio: 'ignore' })).toThrow();
    const inspected = await state.inspect({ baseRepoId: BASE, baseBranch: 'main', headRepoId: FORK, headBranch: 'topic' });
    expect(inspected).toMatchObject({ headSha: forkHead, status: PullStatus.mergeable, commitsAhead: 1 });
    expect(() => head('refs/pull/50/head')).toThrow();

    const [synced, gone] = await state.sync([
      { baseRepoId: BASE, baseBranch: 'main', headRepoId: FORK, headBranch: 'topic', index: 50, headSha: null },
      { baseRepoId: BASE, baseBranch: 'gone', headRepoId: FORK, headBranch: 'gone', index: 51, headSha: null },
    ]);
    expect(synced).toMatchObject({ headSha: forkHead, status: PullStatus.mergeable });
    expect(gone).toBeNull();
    expect(head('refs/pull/50/head')).toBe(forkHead);

    execFileSync('git', ['--git-dir', repo.git.repoPath(FORK), 'branch', '-D', 'topic']);
    const [kept] = await state.sync([{ baseRepoId: BASE, baseBranch: 'main', headRepoId: FORK, headBranch: 'topic', index: 50, headSha: forkHead }]);
    expect(kept).toMatchObject({ headSha: forkHead });
  });

  it('should answer the diff, the patch, the changed files and the commits of the range', async () => {
    branch('ranged', 'main', [{ 'c.txt': 'c\n' }, { 'a.txt': 'one\n2\nthree\n', 'c.txt': 'c\nc\n' }]);
    repo.sh('mv', 'c.txt', 'd.txt');
    repo.sh('commit', '-q', '-m', 'rename');
    repo.sh('push', '-q', 'origin', 'ranged');
    const req = { repoId: BASE, mergeBase: head('main'), headSha: head('refs/heads/ranged') };
    const diff = (await range.diff({ ...req, kind: 'diff' })).text;
    expect(diff).toContain('diff --git a/a.txt b/a.txt');
    expect(diff).toContain('+2');
    const patch = (await range.diff({ ...req, kind: 'patch' })).text;
    expect(patch.match(/^Subject: /gm)).toHaveLength(3);

    const files = await range.files({ ...req, headRepoId: FORK, page: 1, limit: 1 });
    expect(files.total).toBe(2);
    expect(files.items).toEqual([
      {
        filename: 'a.txt',
        status: 'changed',
        additions: 1,
        deletions: 1,
        changes: 2,
        html_url: `http://forge.test/forker/fork/src/commit/${req.headSha}/a.txt`,
        contents_url: `http://forge.test/api/v1/repos/forker/fork/contents/a.txt?ref=${req.headSha}`,
        raw_url: `http://forge.test/forker/fork/raw/commit/${req.headSha}/a.txt`,
      },
    ]);
    const second = await range.files({ ...req, page: 2, limit: 1 });
    expect(second.items.map((f) => [f.filename, f.status, f.additions])).toEqual([['d.txt', 'added', 2]]);

    const commits = await range.commits({ ...req, page: 1, limit: 2 });
    expect(commits.total).toBe(3);
    expect(commits.items.map((c) => c.commit.message)).toEqual(['rename\n', 'ranged 2\n']);
    expect(commits.items[0]!.stats).toEqual({ total: 0, additions: 0, deletions: 0 });
  });

  it('should count a rename, a name with a tab and a spacing-only change right, with whitespace flags and skip-to', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i}`);
    branch('spaced-base', 'main', [{ 'long.txt': `${lines.join('\n')}\n`, 'ws.txt': 'a b\n' }]);
    branch('spaced', 'spaced-base', [{ 'ws.txt': 'a   b\n', 't': 'z\n', 't\tab.txt': 'x\ny\n' }]);
    repo.sh('mv', 'long.txt', 'moved.txt');
    writeFileSync(join(repo.work, 'moved.txt'), `${lines.map((l, i) => (i === 4 ? 'changed' : l)).join('\n')}\n`);
    repo.sh('add', '-A');
    repo.sh('commit', '-q', '-m', 'move');
    repo.sh('push', '-q', 'origin', 'spaced');
    const req = { repoId: BASE, mergeBase: head('refs/heads/spaced-base'), headSha: head('refs/heads/spaced'), page: 1, limit: 10 };
    const listed = async (extra: { whitespace?: string; skipTo?: string; page?: number; limit?: number } = {}) => {
      const page = await range.files({ ...req, ...extra });
      return { total: page.total, files: page.items.map((f) => [f.filename, f.status, f.additions, f.deletions, f.previous_filename ?? null]) };
    };
    const all = [
      ['moved.txt', 'renamed', 1, 1, 'long.txt'],
      ['t', 'added', 1, 0, null],
      ['t\tab.txt', 'added', 2, 0, null],
      ['ws.txt', 'changed', 1, 1, null],
    ];
    expect(await listed()).toEqual({ total: 4, files: all });
    expect(await listed({ whitespace: 'ignore-all' })).toEqual({ total: 4, files: [...all.slice(0, 3), ['ws.txt', 'unchanged', 0, 0, null]] });
    expect(await listed({ whitespace: 'ignore-eol' })).toEqual({ total: 4, files: all });
    expect(await listed({ skipTo: 't\tab.txt' })).toEqual({ total: 4, files: all.slice(2) });
    expect(await listed({ skipTo: 't', page: 2, limit: 1 })).toEqual({ total: 4, files: [all[2]] });
    await expect(range.files({ ...req, skipTo: 'long.txt' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('should merge with a two-parent merge commit by the doer and record the push', async () => {
    branch('m1', 'main', [{ 'm1.txt': 'x\n' }]);
    const before = head('main');
    const req = await pull(1, 'm1', 'merge');
    const result = await merges.merge(req);
    expect(result).toEqual({ mergeCommitSha: head('main'), baseBefore: before, headSha: req.headSha, merger: { full_name: 'merger Full' } });
    expect(parents(result.mergeCommitSha)).toEqual([before, req.headSha]);
    expect(execFileSync('git', ['--git-dir', repo.git.repoPath(BASE), 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%B', result.mergeCommitSha]).toString().trim()).toBe(
      'merger Full <merger@example.com>|merger Full <merger@example.com>|Merge m1',
    );
    expect(recorded).toEqual([{ repoId: BASE, updates: [{ oldSha: before, newSha: result.mergeCommitSha, ref: 'refs/heads/main', mergedPull: 1 }] }]);
    // The pull's own ref moved in the merge's ref transaction; the commit, written without commit-tree, is one fsck accepts.
    expect(head('refs/pull/1/head')).toBe(req.headSha);
    expect(() => execFileSync('git', ['--git-dir', repo.git.repoPath(BASE), 'fsck', '--no-dangling', '--strict'], { stdio: 'pipe' })).not.toThrow();
  });

  it('should squash into one commit authored by the poster and committed by the doer', async () => {
    branch('sq', 'main', [{ 's1.txt': '1\n' }, { 's2.txt': '2\n' }]);
    const before = head('main');
    const result = await merges.merge({ ...(await pull(2, 'sq', 'squash')), posterId: 9 });
    expect(parents(result.mergeCommitSha)).toEqual([before]);
    expect(file('main', 's2.txt')).toBe('2\n');
    const log = execFileSync('git', ['--git-dir', repo.git.repoPath(BASE), 'log', '-1', '--format=%an <%ae>|%cn|%B', result.mergeCommitSha]).toString().trim();
    expect(log).toBe(
      'Tester <tester@example.com>|merger Full|Merge sq\nCo-authored-by: Tester <tester@example.com>\nCo-committed-by: Tester <tester@example.com>',
    );
  });

  it('should rebase linearly, keeping authors, and rebase-merge with a merge commit over the rebased commits', async () => {
    branch('rb', 'main', [{ 'r1.txt': '1\n' }, { 'r2.txt': '2\n' }]);
    branch('moved', 'main', [{ 'other.txt': 'o\n' }]);
    const base1 = head('main');
    await merges.merge(await pull(3, 'moved', 'fast-forward-only'));
    expect(head('main')).toBe(head('refs/heads/moved'));
    expect(parents(head('main'))).toEqual([base1]);

    const onto = head('main');
    const rebased = await merges.merge(await pull(4, 'rb', 'rebase'));
    const second = rebased.mergeCommitSha;
    const first = parents(second)[0]!;
    expect(parents(first)).toEqual([onto]);
    expect(second).not.toBe(head('refs/heads/rb'));
    expect(execFileSync('git', ['--git-dir', repo.git.repoPath(BASE), 'log', '-2', '--format=%an|%cn|%s', second]).toString().trim().split('\n')).toEqual([
      'Tester|merger Full|rb 2',
      'Tester|merger Full|rb 1',
    ]);

    branch('rbm', 'moved', [{ 'q.txt': 'q\n' }]);
    const base2 = head('main');
    const rm = await merges.merge(await pull(5, 'rbm', 'rebase-merge'));
    const [p1, p2] = parents(rm.mergeCommitSha);
    expect(p1).toBe(base2);
    expect(parents(p2!)).toEqual([base2]);
    expect(file('main', 'q.txt')).toBe('q\n');
  });

  it('should refuse conflicts (405), a non fast-forward (405) and a stale head (409)', async () => {
    branch('c1', 'main', [{ 'a.txt': 'one\nuno\nthree\n' }]);
    branch('c2', 'main', [{ 'a.txt': 'one\ndos\nthree\n' }]);
    await merges.merge(await pull(6, 'c1', 'merge'));
    const conflicted = await pull(7, 'c2', 'merge');
    for (const style of ['merge', 'squash', 'rebase', 'rebase-merge'] as const) {
      await expect(merges.merge({ ...conflicted, style })).rejects.toMatchObject({ code: 'method_not_allowed' });
    }
    await expect(merges.merge({ ...conflicted, style: 'fast-forward-only' })).rejects.toMatchObject({ code: 'method_not_allowed', message: 'Merge is not fast-forwardable' });

    branch('st', 'main', [{ 'st.txt': '1\n' }]);
    const stale = await pull(8, 'st', 'merge');
    branch('st', 'st', [{ 'st.txt': '2\n' }]);
    const before = head('main');
    // A head the caller names must still be the branch's; without one, what the branch holds now is merged.
    await expect(merges.merge(stale)).rejects.toMatchObject({ code: 'conflict', message: 'head out of date' });
    expect(head('main')).toBe(before);
    expect(recorded).toEqual([expect.objectContaining({ repoId: BASE })]);
    const moved = head('refs/heads/st');
    const current = await merges.merge({ ...stale, headSha: '' });
    expect(current.headSha).toBe(moved);
    expect(parents(current.mergeCommitSha)).toEqual([before, moved]);
    expect(head('refs/pull/8/head')).toBe(moved);
  });

  it('should let exactly one of two racing merges move the base', async () => {
    branch('race1', 'main', [{ 'race1.txt': '1\n' }]);
    branch('race2', 'main', [{ 'race2.txt': '2\n' }]);
    const [a, b] = [await pull(9, 'race1', 'merge'), await pull(10, 'race2', 'squash')];
    const outcomes = await Promise.allSettled([merges.merge(a), merges.merge(b)]);
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.reason).toBeInstanceOf(ContractError);
    expect(lost[0]!.reason).toMatchObject({ code: 'conflict', message: 'merge push out of date' });
    expect(head('main')).toBe((won[0] as PromiseFulfilledResult<{ mergeCommitSha: string }>).value.mergeCommitSha);
  });

  it('should delete the merged head branch only while it points at the merged head', async () => {
    branch('del', 'main', [{ 'del.txt': '1\n' }]);
    const req = await pull(11, 'del', 'merge');
    const result = await merges.merge(req);
    const moved = { headRepoId: BASE, headBranch: 'del', headSha: 'f'.repeat(40), doerId: 7 };
    expect(await merges.deleteMergedHead(moved)).toBe(false);
    expect(head('refs/heads/del')).toBe(result.headSha);
    expect(await merges.deleteMergedHead({ ...moved, headSha: result.headSha })).toBe(true);
    expect(() => head('refs/heads/del')).toThrow();
    expect(recorded[1]).toEqual({ repoId: BASE, updates: [{ oldSha: req.headSha, newSha: '0'.repeat(40), ref: 'refs/heads/del' }] });
  });

  it('should update a head by merging the base into it or by rebasing it', async () => {
    branch('upd', 'main', [{ 'u.txt': '1\n' }]);
    branch('upd2', 'main', [{ 'u2.txt': '1\n' }]);
    branch('adv', 'main', [{ 'adv.txt': '1\n' }]);
    await merges.merge(await pull(12, 'adv', 'fast-forward-only'));
    const base = head('main');
    const old = head('refs/heads/upd');
    const merged = await merges.update({ baseRepoId: BASE, baseBranch: 'main', headRepoId: BASE, headBranch: 'upd', index: 13, style: 'merge', doerId: 7 });
    expect(parents(merged.headSha)).toEqual([old, base]);
    expect(head('refs/heads/upd')).toBe(merged.headSha);
    const old2 = head('refs/heads/upd2');
    const rebased = await merges.update({ baseRepoId: BASE, baseBranch: 'main', headRepoId: BASE, headBranch: 'upd2', index: 14, style: 'rebase', doerId: 7 });
    expect(parents(rebased.headSha)).toEqual([base]);
    expect(head('refs/heads/upd2')).not.toBe(old2);
    // Up to date already: nothing moves.
    expect(await merges.update({ baseRepoId: BASE, baseBranch: 'main', headRepoId: BASE, headBranch: 'upd2', index: 14, style: 'rebase', doerId: 7 })).toEqual({ headSha: rebased.headSha });
    // Moved as the doer's push (merge-upstream), the head branch's protection decides: refused, it stays where it was.
    branch('guarded', 'main~1', [{ 'g.txt': '1\n' }]);
    const guarded = head('refs/heads/guarded');
    await expect(merges.update({ baseRepoId: BASE, baseBranch: 'main', headRepoId: BASE, headBranch: 'guarded', index: 15, style: 'merge', doerId: 7, asPush: true })).rejects.toMatchObject({
      code: 'permission_denied',
      message: 'Not allowed to push to protected branch guarded',
    });
    expect(head('refs/heads/guarded')).toBe(guarded);
  });

  describe(requiredContextsState.name, () => {
    it("should take each required glob's first matching status, the worst winning, pending when one matches none", () => {
      const statuses = [
        { context: 'ci/build', state: 'success' },
        { context: 'ci/lint', state: 'failure' },
      ];
      expect(requiredContextsState(statuses, ['ci/build'])).toBe('success');
      expect(requiredContextsState(statuses, ['ci/*'])).toBe('success');
      expect(requiredContextsState(statuses, ['ci/build', 'ci/lint'])).toBe('failure');
      expect(requiredContextsState(statuses, ['ci/build', 'deploy'])).toBe('pending');
      expect(requiredContextsState(statuses, [])).toBe('failure');
      expect(requiredContextsState([], ['ci/build'])).toBe('pending');
    });
  });
});
