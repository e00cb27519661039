import { giteaApi } from 'gitea-js';
import type { AccessToken, ChangedFile, Commit, Issue, PullRequest, Repository, TimelineComment } from '@gitforge/contracts';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { GitCli, gitUrl } from './support/git.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { addCollaborator, createRepo } from './support/repos.js';
import { expectEventually } from '@gitforge/platform/testing';

/** The pull sync follows pushes through the event queue. */
const eventually = <T>(check: () => Promise<T>): Promise<T> => expectEventually(check, { timeoutMs: 20_000, intervalMs: 150 });

const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe.each(layoutsUnderTest())('pull requests (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let forker: TestUser;
  let git: GitCli;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    [owner, writer, reader, outsider, forker] = await Promise.all([
      createUser(api, 'powner'),
      createUser(api, 'pwriter'),
      createUser(api, 'preader'),
      createUser(api, 'poutsider'),
      createUser(api, 'pforker'),
    ]);
    git = GitCli.create();
  });

  afterAll(async () => {
    git?.cleanup();
    await layout?.stop();
  });

  /** A repository with a README on main, the writer and the reader as collaborators. */
  async function project(extra: Record<string, unknown> = {}): Promise<Repository> {
    const repo = await createRepo(owner.api, { auto_init: true, ...extra });
    await addCollaborator(owner.api, repo, writer, 'write');
    await addCollaborator(owner.api, repo, reader, 'read');
    return repo;
  }

  /** A commit on `branch` (created from `from` when new) writing `file`; answers the commit id. */
  async function commitTo(as: Api, repo: Repository, branch: string, file: string, content: string, from?: string): Promise<string> {
    const existing = await as.get<{ sha: string }>(`/repos/${repo.full_name}/contents/${file}?ref=${branch}`);
    const body: Record<string, unknown> = { content: b64(content), message: `change ${file}` };
    if (from) Object.assign(body, { branch: from, new_branch: branch });
    else body.branch = branch;
    const res = existing.status === 200 && !from ? await as.put(`/repos/${repo.full_name}/contents/${file}`, { ...body, sha: existing.body.sha }) : await as.post(`/repos/${repo.full_name}/contents/${file}`, body);
    if (res.status !== 201 && res.status !== 200) throw new Error(`commit to ${branch}: ${res.status} ${res.text}`);
    return (res.body as { commit: { sha: string } }).commit.sha;
  }

  async function openPull(as: Api, repo: Repository, head: string, base = 'main', extra: Record<string, unknown> = {}): Promise<PullRequest> {
    const res = await as.post<PullRequest>(`/repos/${repo.full_name}/pulls`, { head, base, title: uniqueName('pull'), ...extra });
    if (res.status !== 201) throw new Error(`opening a pull: ${res.status} ${res.text}`);
    return res.body;
  }

  async function clone(repo: Repository): Promise<string> {
    const dir = git.dir('clone');
    await git.run(['clone', '--quiet', gitUrl(layout, owner.username, repo.name, [owner.username, owner.password]), dir]);
    return dir;
  }

  const gitOut = async (dir: string, ...args: string[]): Promise<string> => (await git.run(args, { cwd: dir })).stdout.trim();

  it('should open a pull in Gitea’s shape, answer it by number and by base/head, and fill the issue’s pull_request', async () => {
    const repo = await project();
    const headSha = await commitTo(writer.api, repo, 'feature', 'a.txt', 'one\n', 'main');
    const pull = await openPull(writer.api, repo, 'feature', 'main', { body: 'please', assignees: [writer.username] });
    expect(pull).toMatchObject({
      number: 1,
      state: 'open',
      draft: false,
      merged: false,
      merged_at: null,
      merge_commit_sha: null,
      merged_by: null,
      mergeable: true,
      body: 'please',
      comments: 0,
      additions: 1,
      deletions: 0,
      changed_files: 1,
      // A single pull shows empty lists as [] (Gitea's ToAPIPullRequest), and review_comments only when there are some.
      requested_reviewers: [],
      requested_reviewers_teams: [],
      html_url: `${layout.rootUrl}${repo.full_name}/pulls/1`,
      diff_url: `${layout.rootUrl}${repo.full_name}/pulls/1.diff`,
      patch_url: `${layout.rootUrl}${repo.full_name}/pulls/1.patch`,
      base: { label: 'main', ref: 'main', repo_id: repo.id, repo: { id: repo.id } },
      head: { label: 'feature', ref: 'feature', sha: headSha, repo_id: repo.id, repo: { id: repo.id } },
    });
    expect(pull.user.login).toBe(writer.username);
    expect(pull.assignees?.map((u) => u.login)).toEqual([writer.username]);
    expect(pull.merge_base).toMatch(/^[0-9a-f]{40}$/);
    expect(pull).not.toHaveProperty('review_comments');

    const got = await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/1`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ number: 1, head: { sha: headSha } });
    const byBaseHead = await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/main/feature`);
    expect(byBaseHead.body.number).toBe(1);
    expect((await reader.api.get(`/repos/${repo.full_name}/pulls/main/nope`)).status).toBe(404);

    const issue = await reader.api.get<Issue>(`/repos/${repo.full_name}/issues/1`);
    expect(issue.body.pull_request).toEqual({ merged: false, merged_at: null, draft: false, html_url: pull.html_url });
    const list = await reader.api.get<PullRequest[]>(`/repos/${repo.full_name}/pulls?state=open`);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect(list.body[0]).not.toHaveProperty('additions');

    const wip = await openPull(writer.api, repo, 'feature', 'main', {}).catch((e: Error) => e);
    expect(String(wip)).toMatch(/409/);
    const dup = await writer.api.post(`/repos/${repo.full_name}/pulls`, { head: 'feature', base: 'main', title: 'again' });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual(giteaError(/pull request already exists for these targets/));
  });

  it('should refuse bad heads and bases, hide private repositories and let readers open pulls', async () => {
    const repo = await project({ private: true });
    await commitTo(writer.api, repo, 'topic', 'b.txt', 'b\n', 'main');
    const post = (as: Api, body: Record<string, unknown>) => as.post(`/repos/${repo.full_name}/pulls`, { title: 't', ...body });
    expect((await post(writer.api, { head: 'main', base: 'main' })).status).toBe(422);
    expect((await post(writer.api, { head: 'ghost', base: 'main' })).status).toBe(404);
    expect((await post(writer.api, { head: 'topic', base: 'ghost' })).status).toBe(404);
    expect((await post(writer.api, { head: '--upload-pack=x', base: 'main' })).status).toBe(404);
    expect((await post(writer.api, { base: 'main' })).status).toBe(422);
    expect((await post(outsider.api, { head: 'topic', base: 'main' })).status).toBe(404);
    expect((await outsider.api.get(`/repos/${repo.full_name}/pulls`)).status).toBe(404);
    const wip = await post(reader.api, { head: 'topic', base: 'main', title: 'WIP: not yet' });
    expect(wip.status).toBe(201);
    expect((wip.body as PullRequest).draft).toBe(true);
    expect((wip.body as PullRequest).mergeable).toBe(false);
    const merge = await owner.api.post(`/repos/${repo.full_name}/pulls/${(wip.body as PullRequest).number}/merge`, { Do: 'merge' });
    expect(merge.status).toBe(405);
    expect(merge.body).toEqual(giteaError('Work in progress PRs cannot be merged'));

    await owner.api.patch(`/repos/${repo.full_name}`, { archived: true });
    expect((await post(writer.api, { head: 'topic', base: 'main', title: 'archived' })).status).toBe(423);
  });

  it('should close and reopen issues named in commits pushed to the default branch, and those a merged pull names', async () => {
    const repo = await project();
    const issue = async (title: string) => (await owner.api.post<Issue>(`/repos/${repo.full_name}/issues`, { title })).body;
    const [fixed, mentioned, elsewhere, byPull, reopened] = await Promise.all(['fixed', 'mentioned', 'elsewhere', 'by pull', 'reopened'].map(issue));
    const commit = async (branch: string, message: string, from?: string) => {
      const body = { content: b64(`${message}\n`), message, ...(from ? { branch: from, new_branch: branch } : { branch }) };
      const res = await writer.api.post<{ commit: { sha: string } }>(`/repos/${repo.full_name}/contents/${uniqueName('f')}.txt`, body);
      expect(res.status).toBe(201);
      return res.body.commit.sha;
    };
    const state = async (n: number) => (await owner.api.get<Issue>(`/repos/${repo.full_name}/issues/${n}`)).body.state;
    const timeline = async (n: number) => (await owner.api.get<TimelineComment[] | null>(`/repos/${repo.full_name}/issues/${n}/timeline`)).body ?? [];

    // A commit on another branch leaves a reference only; on the default branch its keyword closes.
    const side = await commit('side', `Fixes #${elsewhere.number}`, 'main');
    const sha = await commit('main', `Fixes #${fixed.number}, see #${mentioned.number}\n\nmore words`);
    await eventually(async () => expect(await state(fixed.number)).toBe('closed'));
    const rows = await timeline(fixed.number);
    expect(rows.map((r) => [r.type, r.ref_commit_sha, r.user?.login])).toEqual([
      ['commit_ref', sha, writer.username],
      ['close', sha, writer.username],
    ]);
    expect(rows[0]!.body).toBe(`<a href="/${repo.full_name}/commit/${sha}">Fixes #${fixed.number}, see #${mentioned.number}</a>`);
    await eventually(async () => expect((await timeline(mentioned.number)).map((r) => r.type)).toEqual(['commit_ref']));
    expect(await state(mentioned.number)).toBe('open');
    await eventually(async () => expect((await timeline(elsewhere.number)).map((r) => [r.type, r.ref_commit_sha])).toEqual([['commit_ref', side]]));
    expect(await state(elsewhere.number)).toBe('open');

    // `reopens` reopens; a merged pull closes what its body names, as the merger, naming the merge commit.
    expect((await owner.api.patch(`/repos/${repo.full_name}/issues/${reopened.number}`, { state: 'closed' })).status).toBe(201);
    await commit('main', `Reopens #${reopened.number}`);
    await eventually(async () => expect(await state(reopened.number)).toBe('open'));
    // The poster may not change issues of `elsewhereRepo`: the maintainer's merge does not close them for them.
    const elsewhereRepo = await createRepo(owner.api, { auto_init: true });
    const guarded = (await owner.api.post<Issue>(`/repos/${elsewhereRepo.full_name}/issues`, { title: 'not theirs' })).body;
    await commit('topic-refs', 'a change', 'main');
    const pull = await openPull(writer.api, repo, 'topic-refs', 'main', { body: `This resolves #${byPull.number}.\n\nAlso fixes ${elsewhereRepo.full_name}#${guarded.number}` });
    const merged = await owner.api.post(`/repos/${repo.full_name}/pulls/${pull.number}/merge`, { Do: 'merge' });
    expect(merged.status).toBe(200);
    const mergeSha = (await owner.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${pull.number}`)).body.merge_commit_sha;
    expect(await state(byPull.number)).toBe('closed');
    const closeRow = (await timeline(byPull.number)).find((r) => r.type === 'close');
    expect(closeRow).toMatchObject({ ref_commit_sha: mergeSha, user: { login: owner.username } });
    expect((await owner.api.get<Issue>(`/repos/${elsewhereRepo.full_name}/issues/${guarded.number}`)).body.state).toBe('open');
  });

  it('should let only its owner, collaborators, team members and site admins open pulls from the repository’s own branches (Gitea’s NewPullRequest)', async () => {
    const repo = await project();
    await commitTo(writer.api, repo, 'open-to-all', 'c.txt', 'c\n', 'main');
    const post = (as: Api) => as.post<PullRequest>(`/repos/${repo.full_name}/pulls`, { head: 'open-to-all', base: 'main', title: uniqueName('t') });
    // A public repository: anyone reads it, but a stranger's pull must come from a head they may push to.
    const refused = await post(outsider.api);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(giteaError('user must be a collaborator'));
    expect((await post(reader.api)).status).toBe(201);
    expect((await post(api.admin)).status).toBe(409);
  });

  it('should answer the diff, the patch, the changed files and the commits of a pull', async () => {
    const repo = await project();
    await commitTo(writer.api, repo, 'docs', 'guide.md', 'hello\n', 'main');
    await commitTo(writer.api, repo, 'docs', 'guide.md', 'hello\nworld\n');
    const pull = await openPull(writer.api, repo, 'docs');
    const diff = await reader.api.get(`/repos/${repo.full_name}/pulls/${pull.number}.diff`);
    expect(diff.status).toBe(200);
    expect(diff.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(diff.text).toContain('diff --git a/guide.md b/guide.md');
    expect(diff.text).toContain('+world');
    const patch = await reader.api.get(`/repos/${repo.full_name}/pulls/${pull.number}.patch`);
    expect(patch.text).toMatch(/^From [0-9a-f]{40} /);
    expect(patch.text.match(/^Subject: /gm)).toHaveLength(2);
    const files = await reader.api.get<ChangedFile[]>(`/repos/${repo.full_name}/pulls/${pull.number}/files`);
    expect(files.body).toEqual([expect.objectContaining({ filename: 'guide.md', status: 'added', additions: 2, deletions: 0, changes: 2 })]);
    expect(files.headers.get('x-total-count')).toBe('1');
    expect(files.headers.get('x-hasmore')).toBe('false');
    const commits = await reader.api.get<Commit[]>(`/repos/${repo.full_name}/pulls/${pull.number}/commits`);
    expect(commits.headers.get('x-total-count')).toBe('2');
    expect(commits.body).toHaveLength(2);
    // Gitea's page counts on both listings, exposed to browsers.
    const firstCommit = await reader.api.get<Commit[]>(`/repos/${repo.full_name}/pulls/${pull.number}/commits?limit=1`);
    expect(firstCommit.body).toHaveLength(1);
    expect({
      page: firstCommit.headers.get('x-page'),
      perPage: firstCommit.headers.get('x-perpage'),
      pageCount: firstCommit.headers.get('x-pagecount'),
      hasMore: firstCommit.headers.get('x-hasmore'),
    }).toEqual({ page: '1', perPage: '1', pageCount: '2', hasMore: 'true' });
    expect(firstCommit.headers.get('access-control-expose-headers')).toBe('X-Total-Count, Link, X-Page, X-PerPage, X-PageCount, X-HasMore');
    expect((await reader.api.get(`/repos/${repo.full_name}/pulls/${pull.number}.exe`)).status).toBe(404);
    expect((await reader.api.get(`/repos/${repo.full_name}/pulls/999.diff`)).status).toBe(404);
  });

  it('should start the changed files at skip-to and count lines by the whitespace behaviour asked for', async () => {
    const repo = await project();
    await commitTo(writer.api, repo, 'main', 'b.txt', 'one two\n');
    await commitTo(writer.api, repo, 'spaces', 'a.txt', 'a\n', 'main');
    await commitTo(writer.api, repo, 'spaces', 'b.txt', 'one   two\n');
    await commitTo(writer.api, repo, 'spaces', 'c.txt', 'c\n');
    const pull = await openPull(writer.api, repo, 'spaces');
    const files = async (query = '') => {
      const res = await reader.api.get<ChangedFile[]>(`/repos/${repo.full_name}/pulls/${pull.number}/files${query}`);
      return { status: res.status, total: res.headers.get('x-total-count'), files: Array.isArray(res.body) ? res.body.map((f) => [f.filename, f.additions, f.deletions]) : res.body };
    };
    expect(await files()).toEqual({ status: 200, total: '3', files: [['a.txt', 1, 0], ['b.txt', 1, 1], ['c.txt', 1, 0]] });
    // A change of spacing alone counts nothing when whitespace is ignored; the file is still listed.
    expect((await files('?whitespace=ignore-all')).files).toEqual([['a.txt', 1, 0], ['b.txt', 0, 0], ['c.txt', 1, 0]]);
    expect((await files('?whitespace=ignore-change')).files).toEqual([['a.txt', 1, 0], ['b.txt', 0, 0], ['c.txt', 1, 0]]);
    expect((await files('?whitespace=show-all')).files).toEqual([['a.txt', 1, 0], ['b.txt', 1, 1], ['c.txt', 1, 0]]);
    // The list starts at the file; the total stays the diff's, as Gitea reports it.
    expect(await files('?skip-to=b.txt')).toEqual({ status: 200, total: '3', files: [['b.txt', 1, 1], ['c.txt', 1, 0]] });
    expect((await files('?skip-to=b.txt&limit=1&page=2')).files).toEqual([['c.txt', 1, 0]]);
    // A file the diff does not have is 404, also one that looks like an option.
    expect((await files('?skip-to=nothing.txt')).status).toBe(404);
    expect((await files('?skip-to=--output=x')).status).toBe(404);
  });

  it('should merge with each style and leave the history each promises in a real clone', async () => {
    const repo = await project();
    const results: Record<string, { head: string; pull: PullRequest }> = {};
    for (const style of ['merge', 'squash', 'rebase', 'rebase-merge', 'fast-forward-only'] as const) {
      const branch = `st-${style}`;
      await commitTo(writer.api, repo, branch, `${style}-1.txt`, '1\n', 'main');
      const head = await commitTo(writer.api, repo, branch, `${style}-2.txt`, '2\n');
      const pull = await openPull(writer.api, repo, branch);
      expect((await owner.api.get(`/repos/${repo.full_name}/pulls/${pull.number}/merge`)).status).toBe(404);
      const merged = await owner.api.post(`/repos/${repo.full_name}/pulls/${pull.number}/merge`, { Do: style, MergeTitleField: style === 'merge' ? 'Merged by the test' : undefined });
      expect([style, merged.status, merged.text]).toEqual([style, 200, '']);
      expect((await owner.api.get(`/repos/${repo.full_name}/pulls/${pull.number}/merge`)).status).toBe(204);
      const after = await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${pull.number}`);
      expect(after.body).toMatchObject({ state: 'closed', merged: true, merged_by: { login: owner.username } });
      expect(after.body.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
      results[style] = { head, pull: after.body };
      if (style === 'merge') {
        // Neither route changes a merged pull's state (Gitea's EditIssue and EditPullRequest: 412).
        for (const route of ['issues', 'pulls']) {
          const reopened = await owner.api.patch(`/repos/${repo.full_name}/${route}/${pull.number}`, { state: 'open' });
          expect([route, reopened.status, reopened.body]).toEqual([route, 412, giteaError('cannot change state of this pull request, it was already merged')]);
        }
      }
    }
    const dir = await clone(repo);
    const parents = async (sha: string) => (await gitOut(dir, 'rev-list', '--parents', '-n', '1', sha)).split(' ').slice(1);
    // merge: a merge commit whose second parent is the head, with the title given.
    const m = results.merge!;
    expect(await parents(m.pull.merge_commit_sha!)).toHaveLength(2);
    expect((await parents(m.pull.merge_commit_sha!))[1]).toBe(m.head);
    expect(await gitOut(dir, 'log', '-1', '--format=%s', m.pull.merge_commit_sha!)).toBe('Merged by the test');
    // squash: one commit with one parent holding both files, Gitea's default title.
    const s = results.squash!;
    expect(await parents(s.pull.merge_commit_sha!)).toHaveLength(1);
    // Gitea's default squash title, then its co-author trailers (the writer authored, the owner merged).
    const squashMessage = (await gitOut(dir, 'log', '-1', '--format=%B', s.pull.merge_commit_sha!)).split('\n');
    expect(squashMessage[0]).toBe(`${s.pull.title} (#${s.pull.number})`);
    expect(squashMessage).toContain(`Co-authored-by: ${writer.username} <${writer.username}@example.com>`);
    expect((await gitOut(dir, 'show', '--name-only', '--format=', s.pull.merge_commit_sha!)).split('\n').sort()).toEqual(['squash-1.txt', 'squash-2.txt']);
    // rebase: the head's two commits replayed linearly (single parents), the last is the merge commit.
    const r = results.rebase!;
    expect(await parents(r.pull.merge_commit_sha!)).toHaveLength(1);
    expect(await gitOut(dir, 'log', '-2', '--format=%s', r.pull.merge_commit_sha!)).toBe('change rebase-2.txt\nchange rebase-1.txt');
    // rebase-merge: a merge commit over the rebased commits.
    const rm = results['rebase-merge']!;
    const rmParents = await parents(rm.pull.merge_commit_sha!);
    expect(rmParents).toHaveLength(2);
    expect(await gitOut(dir, 'log', '-1', '--format=%s', rmParents[1]!)).toBe('change rebase-merge-2.txt');
    // fast-forward-only: main is the head itself.
    const ff = results['fast-forward-only']!;
    expect(ff.pull.merge_commit_sha).toBe(ff.head);
    expect(await gitOut(dir, 'rev-parse', 'origin/main')).toBe(ff.head);
    // The whole of main is one line of first parents through every merge.
    expect(await gitOut(dir, 'log', '--first-parent', '--format=%H', 'origin/main')).toContain(m.pull.merge_commit_sha!);
  });

  it('should merge and tag as a user whose full name git refuses, under their login', async () => {
    const repo = await project();
    await commitTo(writer.api, repo, 'dotted', 'd.txt', 'd\n', 'main');
    const pull = await openPull(writer.api, repo, 'dotted');
    expect((await writer.api.patch('/user/settings', { full_name: '...' })).status).toBe(200);
    try {
      expect((await writer.api.post(`/repos/${repo.full_name}/pulls/${pull.number}/merge`, { Do: 'merge' })).status).toBe(200);
      const tag = await writer.api.post(`/repos/${repo.full_name}/tags`, { tag_name: 'v-dotted', message: 'annotated' });
      expect(tag.status).toBe(201);
      const merged = (await writer.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${pull.number}`)).body;
      const dir = await clone(repo);
      expect(await gitOut(dir, 'log', '-1', '--format=%an|%cn', merged.merge_commit_sha!)).toBe(`${writer.username}|${writer.username}`);
      expect(await gitOut(dir, 'for-each-ref', '--format=%(taggername)', 'refs/tags/v-dotted')).toBe(writer.username);
    } finally {
      await writer.api.patch('/user/settings', { full_name: '' });
    }
  });

  it('should list every pull without a state, refuse tags and commits as sides, and follow Gitea’s edit rules', async () => {
    const repo = await project();
    const first = await commitTo(writer.api, repo, 'listed-1', 'l1.txt', 'one\n', 'main');
    await commitTo(writer.api, repo, 'listed-2', 'l2.txt', 'two\n', 'main');
    const open = await openPull(writer.api, repo, 'listed-1');
    const closed = await openPull(writer.api, repo, 'listed-2');
    expect((await writer.api.patch(`/repos/${repo.full_name}/pulls/${closed.number}`, { state: 'closed' })).status).toBe(201);
    const numbers = async (query: string) => (await reader.api.get<PullRequest[]>(`/repos/${repo.full_name}/pulls${query}`)).body.map((p) => p.number).sort();
    expect(await numbers('')).toEqual([open.number, closed.number].sort());
    expect(await numbers('?state=all')).toEqual([open.number, closed.number].sort());
    expect(await numbers('?state=open')).toEqual([open.number]);
    expect(await numbers('?state=closed')).toEqual([closed.number]);

    // A tag or a commit names something that is no branch: 422, where a name that is nothing is 404.
    expect((await owner.api.post(`/repos/${repo.full_name}/tags`, { tag_name: 'v-side', target: 'listed-1' })).status).toBe(201);
    const post = (head: string, base = 'main') => writer.api.post(`/repos/${repo.full_name}/pulls`, { head, base, title: 'sides' });
    const tagHead = await post('v-side');
    expect(tagHead.status).toBe(422);
    expect(tagHead.body).toEqual(giteaError('Invalid PullRequest: base and head must be branches'));
    expect((await post(first)).status).toBe(422);
    expect((await post('listed-1', 'v-side')).status).toBe(422);
    expect((await post('no-such-thing')).status).toBe(404);
    // Changing the base to a tag is Gitea's 404 for a base that is no branch.
    const rebased = await writer.api.patch(`/repos/${repo.full_name}/pulls/${open.number}`, { base: 'v-side' });
    expect(rebased.status).toBe(404);
    expect(rebased.body).toEqual(giteaError("new base 'v-side' not exist"));
    // Its own head branch as the new base: 422 (Gitea's ErrBranchesEqual), and the pull stays as it was.
    const intoItself = await writer.api.patch(`/repos/${repo.full_name}/pulls/${open.number}`, { base: 'listed-1' });
    expect(intoItself.status).toBe(422);
    expect(intoItself.body).toEqual(giteaError('branches are equal [head: listed-1, base: listed-1]'));
    expect((await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${open.number}`)).body.base.ref).toBe('main');

    // A stale content_version changes nothing (409); the current one goes through.
    const stale = await writer.api.patch(`/repos/${repo.full_name}/pulls/${open.number}`, { title: 'never', content_version: open.content_version + 5 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual(giteaError('the issue is already changed'));
    const fresh = await writer.api.patch<PullRequest>(`/repos/${repo.full_name}/pulls/${open.number}`, { body: 'edited', content_version: open.content_version });
    expect(fresh.status).toBe(201);
    expect(fresh.body).toMatchObject({ title: open.title, body: 'edited', content_version: open.content_version + 1 });

    // Unsaid, allow_maintainer_edit follows the repository's default.
    expect((await owner.api.patch(`/repos/${repo.full_name}`, { default_allow_maintainer_edit: true })).status).toBe(200);
    await commitTo(writer.api, repo, 'listed-3', 'l3.txt', 'three\n', 'main');
    expect((await openPull(writer.api, repo, 'listed-3')).allow_maintainer_edit).toBe(true);
    await commitTo(writer.api, repo, 'listed-4', 'l4.txt', 'four\n', 'main');
    const own = await openPull(writer.api, repo, 'listed-4', 'main', { allow_maintainer_edit: false });
    expect(own.allow_maintainer_edit).toBe(false);
    // Only the poster, with write access to the head, sets it (Gitea's SetAllowEdits), the repository's owner not, even to the same value.
    const path = `/repos/${repo.full_name}/pulls/${own.number}`;
    for (const value of [true, false]) {
      const refused = await owner.api.patch(path, { allow_maintainer_edit: value });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(giteaError('SetAllowEdits: user not allowed to do this action'));
    }
    const allowed = await writer.api.patch<PullRequest>(path, { allow_maintainer_edit: true });
    expect(allowed.status).toBe(201);
    expect(allowed.body.allow_maintainer_edit).toBe(true);
  });

  it('should merge what the head branch holds right after a push, and check a head_commit_id against it', async () => {
    const repo = await project();
    await commitTo(writer.api, repo, 'moving-on', 'm.txt', '1\n', 'main');
    const pull = await openPull(writer.api, repo, 'moving-on');
    // Pushed and merged at once, before the pull has followed the push (Gitea merges the branch).
    const pushed = await commitTo(writer.api, repo, 'moving-on', 'm.txt', '2\n');
    const stale = await owner.api.post(`/repos/${repo.full_name}/pulls/${pull.number}/merge`, { Do: 'merge', head_commit_id: pull.head.sha });
    expect(stale).toMatchObject({ status: 409, body: giteaError('head out of date') });
    expect((await owner.api.post(`/repos/${repo.full_name}/pulls/${pull.number}/merge`, { Do: 'merge', head_commit_id: pushed })).status).toBe(200);
    const merged = (await owner.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${pull.number}`)).body;
    expect(merged).toMatchObject({ merged: true, head: { sha: pushed } });
    expect((await gitOut(await clone(repo), 'log', '-1', '--format=%P', merged.merge_commit_sha!)).split(' ')[1]).toBe(pushed);
  });

  it('should refuse merges that are not allowed: repeated, stale heads, styles switched off, non-writers', async () => {
    const repo = await project();
    await commitTo(writer.api, repo, 'guarded', 'g.txt', 'g\n', 'main');
    const pull = await openPull(writer.api, repo, 'guarded');
    const merge = (as: Api, body: Record<string, unknown>) => as.post(`/repos/${repo.full_name}/pulls/${pull.number}/merge`, body);
    expect((await merge(reader.api, { Do: 'merge' })).body).toEqual(giteaError('User not allowed to merge PR'));
    expect((await merge(owner.api, { Do: 'merge', head_commit_id: '0'.repeat(40) })).status).toBe(409);
    expect((await merge(owner.api, { Do: 'octopus' })).status).toBe(422);
    await owner.api.patch(`/repos/${repo.full_name}`, { allow_squash_merge: false });
    expect((await merge(owner.api, { do: 'squash' })).body).toEqual(giteaError('squash is not allowed an allowed merge style for this repository'));
    // The documented snake_case names are read first (Gitea's MergePullRequestForm).
    expect((await merge(owner.api, { do: 'merge', head_commit_id: pull.head.sha, MergeTitleField: 'old name', merge_title_field: 'Merged by snake case' })).status).toBe(200);
    const merged = (await owner.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${pull.number}`)).body;
    expect(await gitOut(await clone(repo), 'log', '-1', '--format=%s', merged.merge_commit_sha!)).toBe('Merged by snake case');
    const again = await merge(owner.api, { Do: 'merge' });
    expect(again.status).toBe(405);
    expect(again.body).toEqual(giteaError('The PR is already merged'));
    const edit = await owner.api.patch(`/repos/${repo.full_name}/pulls/${pull.number}`, { state: 'open' });
    expect(edit.status).toBe(412);
  });

  it('should record a pull merged by hand once its head is in the base, and refuse it before', async () => {
    const repo = await project();
    expect((await owner.api.patch(`/repos/${repo.full_name}`, { allow_manual_merge: true })).status).toBe(200);
    const head = await commitTo(writer.api, repo, 'by-hand', 'h.txt', 'h\n', 'main');
    const pull = await openPull(writer.api, repo, 'by-hand');
    const mark = () => owner.api.post(`/repos/${repo.full_name}/pulls/${pull.number}/merge`, { Do: 'manually-merged', MergeCommitID: head });
    expect((await mark()).status).toBe(409);
    const dir = await clone(repo);
    await git.run(['push', '--quiet', 'origin', `${head}:refs/heads/main`], { cwd: dir });
    expect((await mark()).status).toBe(200);
    const got = await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${pull.number}`);
    expect(got.body).toMatchObject({ merged: true, state: 'closed', merge_commit_sha: head, merged_by: { login: owner.username } });
  });

  it('should block a protected base until the required status succeeds, then merge a scheduled auto-merge', async () => {
    const repo = await project();
    const rule = await owner.api.post(`/repos/${repo.full_name}/branch_protections`, {
      rule_name: 'main',
      enable_push: true,
      enable_status_check: true,
      status_check_contexts: ['ci/*'],
    });
    expect(rule.status).toBe(201);
    const head = await commitTo(writer.api, repo, 'checked', 'c.txt', 'c\n', 'main');
    const pull = await openPull(writer.api, repo, 'checked');
    const blocked = await owner.api.post(`/repos/${repo.full_name}/pulls/${pull.number}/merge`, { Do: 'merge' });
    expect(blocked.status).toBe(405);
    expect(blocked.body).toEqual(giteaError('Not all required status checks successful'));
    const scheduled = await owner.api.post(`/repos/${repo.full_name}/pulls/${pull.number}/merge`, { Do: 'merge', merge_when_checks_succeed: true });
    expect(scheduled.status).toBe(201);
    const again = await owner.api.post(`/repos/${repo.full_name}/pulls/${pull.number}/merge`, { Do: 'merge', merge_when_checks_succeed: true });
    expect(again.status).toBe(409);
    expect((await owner.api.post(`/repos/${repo.full_name}/statuses/${head}`, { state: 'failure', context: 'ci/build' })).status).toBe(201);
    expect((await owner.api.post(`/repos/${repo.full_name}/statuses/${head}`, { state: 'success', context: 'ci/build' })).status).toBe(201);
    await eventually(async () => {
      const got = await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${pull.number}`);
      expect(got.body.merged).toBe(true);
    });
  });

  it('should schedule an auto-merge past branch protection, as Gitea does, and merge it at once when its checks passed already', async () => {
    const repo = await project();
    expect((await owner.api.post(`/repos/${repo.full_name}/branch_protections`, { rule_name: 'main', required_approvals: 1 })).status).toBe(201);
    await commitTo(writer.api, repo, 'waits', 'w.txt', 'w\n', 'main');
    const waiting = await openPull(writer.api, repo, 'waits');
    // Without the approval it needs: scheduled all the same (201), and not merged until approved.
    const scheduled = await owner.api.post(`/repos/${repo.full_name}/pulls/${waiting.number}/merge`, { Do: 'merge', merge_when_checks_succeed: true });
    expect(scheduled.status).toBe(201);
    expect((await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${waiting.number}`)).body.merged).toBe(false);

    // Nothing left to wait for: still 201, and the pull is merged by then.
    const free = await project();
    await commitTo(writer.api, free, 'ready', 'r.txt', 'r\n', 'main');
    const ready = await openPull(writer.api, free, 'ready');
    expect((await owner.api.post(`/repos/${free.full_name}/pulls/${ready.number}/merge`, { Do: 'merge', merge_when_checks_succeed: true })).status).toBe(201);
    expect((await reader.api.get<PullRequest>(`/repos/${free.full_name}/pulls/${ready.number}`)).body).toMatchObject({ merged: true, state: 'closed' });
  });

  it('should count approvals toward a protected base and mark them stale when the head moves', async () => {
    const repo = await project();
    expect((await owner.api.post(`/repos/${repo.full_name}/branch_protections`, { rule_name: 'main', required_approvals: 1 })).status).toBe(201);
    await commitTo(writer.api, repo, 'reviewed', 'r.txt', 'r\n', 'main');
    const pull = await openPull(writer.api, repo, 'reviewed', 'main', { reviewers: [owner.username] });
    expect(pull.requested_reviewers?.map((u) => u.login)).toEqual([owner.username]);
    const merge = () => owner.api.post(`/repos/${repo.full_name}/pulls/${pull.number}/merge`, { Do: 'merge' });
    expect((await merge()).body).toEqual(giteaError('Does not have enough approvals'));
    const own = await writer.api.post(`/repos/${repo.full_name}/pulls/${pull.number}/reviews`, { event: 'APPROVED', body: 'mine' });
    expect(own.status).toBe(422);
    const approved = await owner.api.post<{ state: string; official: boolean }>(`/repos/${repo.full_name}/pulls/${pull.number}/reviews`, { event: 'APPROVED', body: 'fine' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ state: 'APPROVED', official: true });
    // A reviewer who answered stays among the requested reviewers, as Gitea lists the latest review of each.
    expect((await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${pull.number}`)).body.requested_reviewers?.map((u) => u.login)).toEqual([owner.username]);
    const listed = (await reader.api.get<PullRequest[]>(`/repos/${repo.full_name}/pulls`)).body.find((p) => p.number === pull.number);
    expect(listed?.requested_reviewers?.map((u) => u.login)).toEqual([owner.username]);
    const next = await commitTo(writer.api, repo, 'reviewed', 'r.txt', 'r2\n');
    await eventually(async () => {
      const reviews = await reader.api.get<Array<{ stale: boolean; commit_id: string }>>(`/repos/${repo.full_name}/pulls/${pull.number}/reviews`);
      expect(reviews.body.find((r) => r.commit_id !== next)?.stale).toBe(true);
      expect((await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${pull.number}`)).body.head.sha).toBe(next);
    });
    expect((await merge()).status).toBe(200);
  });

  it('should hold a merge while an official review is requested, or while the head is behind the base, where the rule says so', async () => {
    const repo = await project();
    const rule = { rule_name: 'main', enable_push: true, block_on_official_review_requests: true, block_on_outdated_branch: true };
    expect((await owner.api.post(`/repos/${repo.full_name}/branch_protections`, rule)).status).toBe(201);
    await commitTo(writer.api, repo, 'asked', 'a.txt', 'a\n', 'main');
    const pull = await openPull(writer.api, repo, 'asked', 'main', { reviewers: [owner.username] });
    const merge = () => owner.api.post(`/repos/${repo.full_name}/pulls/${pull.number}/merge`, { Do: 'merge' });
    expect(await merge()).toMatchObject({ status: 405, body: giteaError('There are official review requests') });
    // The answer takes the request's officialness away, as Gitea's CreateReview does.
    expect((await owner.api.post(`/repos/${repo.full_name}/pulls/${pull.number}/reviews`, { event: 'COMMENT', body: 'looked' })).status).toBe(200);

    const base = await commitTo(owner.api, repo, 'main', 'later.txt', 'later\n');
    await eventually(async () => {
      expect((await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${pull.number}`)).body.base.sha).toBe(base);
    });
    expect(await merge()).toMatchObject({ status: 405, body: giteaError('The head branch is behind the base branch') });
    expect((await writer.api.post(`/repos/${repo.full_name}/pulls/${pull.number}/update`, {})).status).toBe(200);
    await eventually(async () => {
      expect((await merge()).status).toBe(200);
    });
  });

  it('should let one of two conflicting merges win and refuse the other', async () => {
    const repo = await project();
    await commitTo(writer.api, repo, 'left', 'same.txt', 'left\n', 'main');
    await commitTo(writer.api, repo, 'right', 'same.txt', 'right\n', 'main');
    const [a, b] = [await openPull(writer.api, repo, 'left'), await openPull(writer.api, repo, 'right')];
    const results = await Promise.all([a, b].map((p) => owner.api.post(`/repos/${repo.full_name}/pulls/${p.number}/merge`, { Do: 'merge' })));
    const codes = results.map((r) => r.status).sort();
    expect(codes[0]).toBe(200);
    expect([405, 409]).toContain(codes[1]);
    const states = await Promise.all([a, b].map(async (p) => (await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${p.number}`)).body.merged));
    expect(states.filter(Boolean)).toHaveLength(1);
    // The loser now conflicts with its base, as the background check finds.
    const loser = states[0] ? b : a;
    await eventually(async () => {
      const got = await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${loser.number}`);
      expect(got.body.mergeable).toBe(false);
    });
  });

  it('should follow pushes to the head, and merge a pull from a fork', async () => {
    const repo = await project();
    await commitTo(writer.api, repo, 'moving', 'm.txt', '1\n', 'main');
    const pull = await openPull(writer.api, repo, 'moving');
    const next = await commitTo(writer.api, repo, 'moving', 'm.txt', '2\n');
    await eventually(async () => {
      const got = await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${pull.number}`);
      expect(got.body.head.sha).toBe(next);
    });

    const fork = await forker.api.post<Repository>(`/repos/${repo.full_name}/forks`, {});
    expect(fork.status).toBe(202);
    const forkHead = await commitTo(forker.api, fork.body, 'from-fork', 'f.txt', 'fork\n', 'main');
    const cross = await openPull(forker.api, repo, `${forker.username}:from-fork`);
    expect(cross).toMatchObject({ head: { label: 'from-fork', sha: forkHead, repo_id: fork.body.id }, base: { repo_id: repo.id } });
    // An owner with no repository in the fork network is Gitea's 400; an unknown one 404.
    const noFork = await outsider.api.post<{ message: string }>(`/repos/${repo.full_name}/pulls`, { head: `${outsider.username}:from-fork`, base: 'main', title: 'x' });
    expect(noFork.status).toBe(400);
    expect(noFork.body.message).toBe(`the user ${outsider.username} does not have a fork of the base repository`);
    expect((await outsider.api.post(`/repos/${repo.full_name}/pulls`, { head: `${uniqueName('nobody')}:from-fork`, base: 'main', title: 'x' })).status).toBe(404);
    const merged = await owner.api.post(`/repos/${repo.full_name}/pulls/${cross.number}/merge`, { Do: 'merge' });
    expect(merged.status).toBe(200);
    const dir = await clone(repo);
    expect(await gitOut(dir, 'merge-base', '--is-ancestor', forkHead, 'origin/main').then(() => true)).toBe(true);
    const refs = await git.lsRemote(gitUrl(layout, owner.username, repo.name, [owner.username, owner.password]));
    expect(refs.get(`refs/pull/${cross.number}/head`)).toBe(forkHead);

    // Deleting the fork closes its open pulls as the deleter, as Gitea's CloseRepoBranchesPulls does: a merge is then 404, never a 500.
    await commitTo(forker.api, fork.body, 'from-fork-2', 'g.txt', 'g\n', 'main');
    const left = await openPull(forker.api, repo, `${forker.username}:from-fork-2`);
    expect((await forker.api.delete(`/repos/${fork.body.full_name}`)).status).toBe(204);
    const closed = await eventually(async () => {
      const got = await owner.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${left.number}`);
      expect(got.body.state).toBe('closed');
      return got.body;
    });
    expect(closed.merged).toBe(false);
    expect((await owner.api.post(`/repos/${repo.full_name}/pulls/${left.number}/merge`, { Do: 'merge' })).status).toBe(404);
    const timeline = await owner.api.get<Array<{ type: string; user: { login: string } | null }>>(`/repos/${repo.full_name}/issues/${left.number}/timeline`);
    expect(timeline.body.filter((t) => t.type === 'close').map((t) => t.user?.login)).toEqual([forker.username]);
  });

  it('should close the pulls of a deleted head branch, move those of a deleted base to the default branch, and let pulls follow a renamed branch', async () => {
    const repo = await project();
    await commitTo(writer.api, repo, 'gone', 'gone.txt', '1\n', 'main');
    const closing = await openPull(writer.api, repo, 'gone');
    await commitTo(writer.api, repo, 'stack-base', 'base.txt', '1\n', 'main');
    await commitTo(writer.api, repo, 'stacked', 'stacked.txt', '1\n', 'stack-base');
    const stacked = await openPull(writer.api, repo, 'stacked', 'stack-base');
    await commitTo(writer.api, repo, 'old-name', 'renamed.txt', '1\n', 'main');
    const following = await openPull(writer.api, repo, 'old-name');

    // Renamed: the pull follows, and stays open.
    expect((await writer.api.patch(`/repos/${repo.full_name}/branches/old-name`, { name: 'new-name' })).status).toBe(204);
    // Deleted: as Gitea's AdjustPullsCausedByBranchDeleted.
    expect((await writer.api.delete(`/repos/${repo.full_name}/branches/gone`)).status).toBe(204);
    expect((await writer.api.delete(`/repos/${repo.full_name}/branches/stack-base`)).status).toBe(204);
    const closed = await eventually(async () => {
      const got = await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${closing.number}`);
      expect(got.body.state).toBe('closed');
      return got.body;
    });
    expect(closed.merged).toBe(false);
    const rows = (await reader.api.get<TimelineComment[]>(`/repos/${repo.full_name}/issues/${closing.number}/timeline`)).body;
    expect(rows.map((t) => [t.type, t.old_ref, t.user?.login])).toEqual([
      ['close', '', writer.username],
      ['delete_branch', 'gone', writer.username],
    ]);
    const moved = await eventually(async () => {
      const got = await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${stacked.number}`);
      expect(got.body.base.ref).toBe('main');
      return got.body;
    });
    expect(moved.state).toBe('open');
    const retarget = (await reader.api.get<TimelineComment[]>(`/repos/${repo.full_name}/issues/${stacked.number}/timeline`)).body.filter((t) => t.type === 'change_target_branch');
    expect(retarget.map((t) => [t.old_ref, t.new_ref])).toEqual([['stack-base', 'main']]);
    const renamed = await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${following.number}`);
    expect(renamed.body).toMatchObject({ state: 'open', head: { ref: 'new-name' } });

    // A merge keeps a head branch another open pull still comes from (Gitea's DeleteBranchAfterMerge).
    await commitTo(writer.api, repo, 'side', 'side.txt', '1\n', 'main');
    await commitTo(writer.api, repo, 'shared', 'shared.txt', '1\n', 'main');
    const first = await openPull(writer.api, repo, 'shared');
    const second = await openPull(writer.api, repo, 'shared', 'side');
    expect((await owner.api.post(`/repos/${repo.full_name}/pulls/${first.number}/merge`, { Do: 'merge', delete_branch_after_merge: true })).status).toBe(200);
    expect((await reader.api.get(`/repos/${repo.full_name}/branches/shared`)).status).toBe(200);
    expect((await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${second.number}`)).body.state).toBe('open');
  });

  it('should follow pushes and close pulls of a deleted fork in a private repository too', async () => {
    const repo = await project({ private: true });
    await commitTo(writer.api, repo, 'moving', 'm.txt', '1\n', 'main');
    const pull = await openPull(writer.api, repo, 'moving');
    const next = await commitTo(writer.api, repo, 'moving', 'm.txt', '2\n');
    await eventually(async () => {
      expect((await reader.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${pull.number}`)).body.head.sha).toBe(next);
    });
    const fork = await writer.api.post<Repository>(`/repos/${repo.full_name}/forks`, { name: uniqueName('private-fork') });
    expect(fork.status).toBe(202);
    await commitTo(writer.api, fork.body, 'from-fork', 'f.txt', 'fork\n', 'main');
    const cross = await openPull(writer.api, repo, `${writer.username}:from-fork`);
    expect((await writer.api.delete(`/repos/${fork.body.full_name}`)).status).toBe(204);
    await eventually(async () => {
      expect((await owner.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${cross.number}`)).body.state).toBe('closed');
    });
  });

  it('should bring the base into the head (merge or rebase) where the repository allows it, and not into merged pulls', async () => {
    const repo = await project();
    const headSha = await commitTo(writer.api, repo, 'behind', 'b.txt', 'b\n', 'main');
    const pull = await openPull(writer.api, repo, 'behind');
    const baseSha = await commitTo(owner.api, repo, 'main', 'base.txt', 'base\n');
    const updatePath = `/repos/${repo.full_name}/pulls/${pull.number}/update`;
    expect(await reader.api.post(updatePath)).toMatchObject({ status: 403 });
    expect((await owner.api.patch(`/repos/${repo.full_name}`, { allow_merge_update: false })).status).toBe(200);
    expect((await writer.api.post(updatePath)).status).toBe(403);
    expect((await owner.api.patch(`/repos/${repo.full_name}`, { allow_merge_update: true })).status).toBe(200);
    expect((await writer.api.post(updatePath)).status).toBe(200);
    const merged = await eventually(async () => {
      const got = await writer.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${pull.number}`);
      expect(got.body.head.sha).not.toBe(headSha);
      return got.body;
    });
    const commit = await writer.api.get<Commit>(`/repos/${repo.full_name}/git/commits/${merged.head.sha}`);
    expect(commit.body.parents.map((p) => p.sha)).toEqual([headSha, baseSha]);
    expect((await owner.api.post(`/repos/${repo.full_name}/pulls/${pull.number}/merge`, { Do: 'merge' })).status).toBe(200);
    expect(await writer.api.post(updatePath)).toMatchObject({ status: 422, body: giteaError('pull request is already merged') });
  });

  it('should update a pull only as the head branch’s protection lets the doer push, or the poster where maintainers may edit', async () => {
    const repo = await project();
    await commitTo(writer.api, repo, 'guarded', 'g.txt', 'g\n', 'main');
    const pull = await openPull(writer.api, repo, 'guarded');
    await commitTo(owner.api, repo, 'main', 'moved.txt', 'moved\n');
    const updatePath = `/repos/${repo.full_name}/pulls/${pull.number}/update`;
    // Only the owner may push to the head branch, and nobody may force-push (a rebase).
    const rule = await owner.api.post(`/repos/${repo.full_name}/branch_protections`, {
      rule_name: 'guarded',
      enable_push: true,
      enable_push_whitelist: true,
      push_whitelist_usernames: [owner.username],
    });
    expect(rule.status).toBe(201);
    expect(await writer.api.post(updatePath)).toMatchObject({ status: 403 });
    expect(await owner.api.post(`${updatePath}?style=rebase`)).toMatchObject({ status: 403 });
    expect((await owner.api.post(updatePath)).status).toBe(200);

    // A fork's pull its poster opened to maintainers: the base's owner, who cannot push to the
    // fork, updates it with the poster's rights; closed to maintainers, it is refused.
    const fork = await forker.api.post<Repository>(`/repos/${repo.full_name}/forks`, { name: uniqueName('upd-fork') });
    expect(fork.status).toBe(202);
    await commitTo(forker.api, fork.body, 'offered', 'o.txt', 'o\n', 'main');
    const offered = await openPull(forker.api, repo, `${forker.username}:offered`, 'main', { allow_maintainer_edit: true });
    await commitTo(owner.api, repo, 'main', 'moved-again.txt', 'again\n');
    const offeredPath = `/repos/${repo.full_name}/pulls/${offered.number}/update`;
    expect(await writer.api.post(offeredPath)).toMatchObject({ status: 200 });
    // The fork holds every object of its new head, the merged tree included (the base's mergeability checks wrote the same tree there).
    const dir = git.dir('fork-clone');
    await git.run(['clone', '--quiet', gitUrl(layout, forker.username, fork.body.name, [forker.username, forker.password]), dir]);
    expect(await gitOut(dir, 'ls-tree', '--name-only', 'origin/offered')).toBe(['README.md', 'moved-again.txt', 'moved.txt', 'o.txt'].join('\n'));
    await commitTo(owner.api, repo, 'main', 'moved-thrice.txt', 'thrice\n');
    expect((await forker.api.patch(`/repos/${repo.full_name}/pulls/${offered.number}`, { allow_maintainer_edit: false })).status).toBe(201);
    expect(await writer.api.post(offeredPath)).toMatchObject({ status: 403 });
    expect((await forker.api.post(offeredPath)).status).toBe(200);
  });

  it('should let a maintainer who cannot read a private fork update its pull with the poster’s rights', async () => {
    const repo = await project({ private: true });
    await addCollaborator(owner.api, repo, forker, 'read');
    const fork = await forker.api.post<Repository>(`/repos/${repo.full_name}/forks`, { name: uniqueName('private-upd') });
    expect(fork.status).toBe(202);
    expect(fork.body.private).toBe(true);
    expect((await writer.api.get(`/repos/${fork.body.full_name}`)).status).toBe(404);
    await commitTo(forker.api, fork.body, 'hidden', 'h.txt', 'h\n', 'main');
    const pull = await openPull(forker.api, repo, `${forker.username}:hidden`, 'main', { allow_maintainer_edit: true });
    await commitTo(owner.api, repo, 'main', 'later.txt', 'later\n');
    const path = `/repos/${repo.full_name}/pulls/${pull.number}/update`;
    // A reader may merge nothing into the base: no rights to lend them.
    expect(await reader.api.post(path)).toMatchObject({ status: 403 });
    expect((await writer.api.post(path)).status).toBe(200);
    const head = (await forker.api.get<{ commit: { id: string } }>(`/repos/${fork.body.full_name}/branches/hidden`)).body.commit.id;
    const commit = await forker.api.get<Commit>(`/repos/${fork.body.full_name}/git/commits/${head}`);
    expect(commit.body.parents).toHaveLength(2);
  });

  it('should create, list and merge a pull with gitea-js unchanged', async () => {
    const repo = await project();
    await commitTo(writer.api, repo, 'js', 'js.txt', 'js\n', 'main');
    const token = await owner.api.post<AccessToken>(`/users/${owner.username}/tokens`, { name: uniqueName('js'), scopes: ['write:repository'] });
    const client = giteaApi(layout.rootUrl.replace(/\/$/, ''), { token: token.body.sha1, customFetch: fetch });
    const [o, r] = [owner.username, repo.name];
    const created = await client.repos.repoCreatePullRequest(o, r, { head: 'js', base: 'main', title: 'From gitea-js' });
    expect(created.status).toBe(201);
    const listed = await client.repos.repoListPullRequests(o, r, { state: 'open' });
    expect(listed.data.map((p) => p.number)).toContain(created.data.number);
    const merged = await client.repos.repoMergePullRequest(o, r, created.data.number!, { Do: 'squash', delete_branch_after_merge: true });
    expect(merged.status).toBe(200);
    const got = await client.repos.repoGetPullRequest(o, r, created.data.number!);
    expect(got.data.merged).toBe(true);
    expect((await owner.api.get(`/repos/${repo.full_name}/branches/js`)).status).toBe(404);
    // The deletion is in the pull's timeline after its merge, and the merged pull stays merged.
    const rows = (await owner.api.get<TimelineComment[]>(`/repos/${repo.full_name}/issues/${created.data.number}/timeline`)).body;
    expect(rows.slice(-2).map((t) => [t.type, t.old_ref])).toEqual([['merge_pull', ''], ['delete_branch', 'js']]);
    // With its branch deleted, the head is the pull's own ref (same commit), as Gitea shows it; a
    // branch of that name made again is the head again.
    const path = `/repos/${repo.full_name}/pulls/${created.data.number}`;
    await eventually(async () => {
      const head = (await reader.api.get<PullRequest>(path)).body.head;
      expect(head).toMatchObject({ label: 'js', ref: `refs/pull/${created.data.number}/head`, sha: created.data.head!.sha });
    });
    const listed2 = await reader.api.get<PullRequest[]>(`/repos/${repo.full_name}/pulls?state=closed`);
    expect(listed2.body.find((p) => p.number === created.data.number)!.head.ref).toBe(`refs/pull/${created.data.number}/head`);
    expect((await owner.api.post(`/repos/${repo.full_name}/branches`, { new_branch_name: 'js', old_ref_name: 'main' })).status).toBe(201);
    await eventually(async () => expect((await reader.api.get<PullRequest>(path)).body.head.ref).toBe('js'));
  });
});
