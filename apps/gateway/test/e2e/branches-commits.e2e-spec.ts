import type {
  Branch,
  CombinedStatus,
  Commit,
  CommitStatus,
  Compare,
  CreateBranchRepoOption,
  CreateFileOptions,
  CreateRepoOption,
  CreateStatusOption,
  FileResponse,
  RenameBranchRepoOption,
  Repository,
} from '@gitforge/contracts';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { b64, gitOnDisk, markMirror, repoEvents } from './support/repo-disk.js';

describe.each(layoutsUnderTest())('branches, commits, statuses and compare (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;

  const createRepo = async (user: TestUser, body: Partial<CreateRepoOption> = {}): Promise<Repository> => {
    const res = await user.api.post<Repository>('/user/repos', { name: uniqueName('repo'), auto_init: true, ...body } satisfies Partial<CreateRepoOption>);
    if (res.status !== 201) throw new Error(`create repo: ${res.status} ${res.text}`);
    return res.body;
  };
  const write = async (repo: Repository, path: string, content: string, extra: Partial<CreateFileOptions> = {}): Promise<string> => {
    const res = await alice.api.post<FileResponse>(`/repos/${repo.full_name}/contents/${path}`, { content: b64(content), ...extra } satisfies CreateFileOptions);
    if (res.status !== 201) throw new Error(`write ${path}: ${res.status} ${res.text}`);
    return res.body.commit.sha;
  };

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
  });

  afterAll(async () => {
    await layout?.stop();
  });

  describe('branches', () => {
    let repo: Repository;
    let head: string;

    beforeAll(async () => {
      repo = await createRepo(alice);
      head = await write(repo, 'one.txt', '1');
      // A later committer date orders the branch first whatever second the writes fall in.
      await write(repo, 'two.txt', '2', { new_branch: 'release/1.x', dates: { committer: '2030-01-01T00:00:00Z' } });
      await gitOnDisk(layout, repo.id, ['tag', 'v1', head]);
    });

    it('should list branches, newest head first, paginated with Gitea headers', async () => {
      const all = await alice.api.get<Branch[]>(`/repos/${repo.full_name}/branches`);
      expect(all.status).toBe(200);
      expect(all.body.map((b) => b.name)).toEqual(['release/1.x', 'main']);
      const page = await alice.api.get<Branch[]>(`/repos/${repo.full_name}/branches?limit=1&page=2`);
      expect(page.body.map((b) => b.name)).toEqual(['main']);
      expect(page.headers.get('x-total-count')).toBe('2');
      expect(page.headers.get('link')).toContain('rel="first"');
    });

    it('should answer the Branch shape, slashes in names included', async () => {
      const res = await alice.api.get<Branch>(`/repos/${repo.full_name}/branches/release/1.x`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        name: 'release/1.x',
        commit: expect.objectContaining({
          id: expect.stringMatching(/^[0-9a-f]{40}$/),
          message: 'Add two.txt\n',
          url: expect.stringContaining(`${layout.rootUrl}${repo.full_name}/commit/`),
          author: { name: alice.username, email: alice.email, username: alice.username },
          committer: { name: alice.username, email: alice.email, username: alice.username },
          added: null,
          removed: null,
          modified: null,
        }),
        protected: false,
        required_approvals: 0,
        enable_status_check: false,
        status_check_contexts: [],
        user_can_push: true,
        user_can_merge: true,
        effective_branch_protection_name: '',
      });
      const asBob = await bob.api.get<Branch>(`/repos/${repo.full_name}/branches/main`);
      expect(asBob.body).toMatchObject({ user_can_push: false, user_can_merge: false });
      expect((await alice.api.get(`/repos/${repo.full_name}/branches/nope`)).status).toBe(404);
    });

    it('should create a branch from the default branch, a branch, a tag or a commit (201)', async () => {
      const plain = await alice.api.post<Branch>(`/repos/${repo.full_name}/branches`, { new_branch_name: 'from-default' } satisfies CreateBranchRepoOption);
      expect(plain.status).toBe(201);
      expect(plain.body.name).toBe('from-default');
      const fromOld = await alice.api.post<Branch>(`/repos/${repo.full_name}/branches`, {
        new_branch_name: 'from-release',
        old_branch_name: 'release/1.x',
      } satisfies CreateBranchRepoOption);
      expect(fromOld.body.commit.message).toBe('Add two.txt\n');
      const fromTag = await alice.api.post<Branch>(`/repos/${repo.full_name}/branches`, { new_branch_name: 'from-tag', old_ref_name: 'v1' } satisfies CreateBranchRepoOption);
      expect(fromTag.body.commit.id).toBe(head);
      const fromSha = await alice.api.post<Branch>(`/repos/${repo.full_name}/branches`, { new_branch_name: 'from-sha', old_ref_name: head } satisfies CreateBranchRepoOption);
      expect(fromSha.status).toBe(201);
      expect((await gitOnDisk(layout, repo.id, ['rev-parse', 'refs/heads/from-sha'])).trim()).toBe(head);
      const events = await repoEvents(layout, repo.id);
      expect(events.map((e) => [e.name, (e.payload as { ref: string }).ref])).toContainEqual(['repo.ref_created', 'from-sha']);
    });

    it('should answer Gitea’s status codes for failed creations', async () => {
      const exists = await alice.api.post(`/repos/${repo.full_name}/branches`, { new_branch_name: 'main' } satisfies CreateBranchRepoOption);
      expect(exists.status).toBe(409);
      expect(exists.body).toEqual(giteaError('The branch already exists.'));
      const clash = await alice.api.post(`/repos/${repo.full_name}/branches`, { new_branch_name: 'release' } satisfies CreateBranchRepoOption);
      expect(clash.status).toBe(409);
      const tag = await alice.api.post(`/repos/${repo.full_name}/branches`, { new_branch_name: 'v1' } satisfies CreateBranchRepoOption);
      expect(tag.status).toBe(409);
      const missing = await alice.api.post(`/repos/${repo.full_name}/branches`, { new_branch_name: 'x', old_branch_name: 'nope' } satisfies CreateBranchRepoOption);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(giteaError('The old branch does not exist'));
      const invalid = await alice.api.post(`/repos/${repo.full_name}/branches`, { new_branch_name: 'bad..name' } satisfies CreateBranchRepoOption);
      expect(invalid.status).toBe(422);
      expect((await bob.api.post(`/repos/${repo.full_name}/branches`, { new_branch_name: 'b' })).status).toBe(403);
      expect((await api.anonymous.post(`/repos/${repo.full_name}/branches`, { new_branch_name: 'b' })).status).toBe(401);

      const empty = await createRepo(alice, { auto_init: false });
      expect((await alice.api.post(`/repos/${empty.full_name}/branches`, { new_branch_name: 'b' })).status).toBe(404);
      const archived = await createRepo(alice);
      await alice.api.patch(`/repos/${archived.full_name}`, { archived: true });
      const locked = await alice.api.post(`/repos/${archived.full_name}/branches`, { new_branch_name: 'b' });
      expect(locked.status).toBe(423);
      expect(locked.body).toEqual(giteaError('repo is archived'));
      const mirror = await createRepo(alice);
      await markMirror(layout, mirror.id);
      const refused = await alice.api.post(`/repos/${mirror.full_name}/branches`, { new_branch_name: 'b' });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(giteaError('Git Repository is a mirror.'));
      const priv = await createRepo(alice, { private: true });
      expect((await bob.api.post(`/repos/${priv.full_name}/branches`, { new_branch_name: 'b' })).status).toBe(404);
      expect((await bob.api.get(`/repos/${priv.full_name}/branches`)).status).toBe(404);
    });

    it('should delete a branch (204) but never the default one', async () => {
      expect((await alice.api.delete(`/repos/${repo.full_name}/branches/from-default`)).status).toBe(204);
      expect((await alice.api.get(`/repos/${repo.full_name}/branches/from-default`)).status).toBe(404);
      const events = await repoEvents(layout, repo.id);
      expect(events.map((e) => [e.name, (e.payload as { ref: string }).ref])).toContainEqual(['repo.ref_deleted', 'from-default']);
      const main = await alice.api.delete(`/repos/${repo.full_name}/branches/main`);
      expect(main.status).toBe(403);
      expect(main.body).toEqual(giteaError('can not delete default or pull request target branch'));
      expect(await alice.api.delete(`/repos/${repo.full_name}/branches/nope`)).toMatchObject({ status: 404, body: giteaError('not found') });
      expect((await bob.api.delete(`/repos/${repo.full_name}/branches/from-tag`)).status).toBe(403);
      const repoNow = await alice.api.get<Repository>(`/repos/${repo.full_name}`);
      expect(repoNow.body.branch_count).toBe(5);
    });

    it('should rename a branch (204) with its own protection rule, and the default branch with it', async () => {
      const own = await createRepo(alice);
      await alice.api.post(`/repos/${own.full_name}/branches`, { new_branch_name: 'feature' });
      await alice.api.post(`/repos/${own.full_name}/branch_protections`, { rule_name: 'feature' });
      const renamed = await alice.api.patch(`/repos/${own.full_name}/branches/feature`, { name: 'feature-2' } satisfies RenameBranchRepoOption);
      expect(renamed.status).toBe(204);
      expect((await alice.api.get(`/repos/${own.full_name}/branches/feature`)).status).toBe(404);
      expect((await alice.api.get<Branch>(`/repos/${own.full_name}/branches/feature-2`)).body).toMatchObject({ name: 'feature-2', protected: true });
      expect((await alice.api.get(`/repos/${own.full_name}/branch_protections/feature-2`)).status).toBe(200);
      const events = (await repoEvents(layout, own.id)).map((e) => [e.name, (e.payload as { ref: string }).ref]);
      expect(events).toEqual(expect.arrayContaining([['repo.ref_deleted', 'feature'], ['repo.ref_created', 'feature-2']]));

      expect((await alice.api.patch(`/repos/${own.full_name}/branches/main`, { name: 'trunk' })).status).toBe(204);
      const after = await alice.api.get<Repository>(`/repos/${own.full_name}`);
      expect(after.body.default_branch).toBe('trunk');
      expect((await gitOnDisk(layout, own.id, ['symbolic-ref', 'HEAD'])).trim()).toBe('refs/heads/trunk');
    });

    it('should refuse renames as Gitea does', async () => {
      const own = await createRepo(alice);
      await alice.api.post(`/repos/${own.full_name}/branches`, { new_branch_name: 'release/1' });
      await alice.api.post(`/repos/${own.full_name}/branches`, { new_branch_name: 'topic' });
      const taken = await alice.api.patch(`/repos/${own.full_name}/branches/topic`, { name: 'main' });
      expect(taken.status).toBe(422);
      expect(taken.body).toEqual(giteaError('Cannot rename a branch using the same name or rename to a branch that already exists.'));
      const missing = await alice.api.patch(`/repos/${own.full_name}/branches/nope`, { name: 'x' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(giteaError("Branch doesn't exist."));
      expect((await alice.api.patch(`/repos/${own.full_name}/branches/topic`, { name: 'bad..name' })).status).toBe(422);
      await alice.api.post(`/repos/${own.full_name}/branch_protections`, { rule_name: 'release/*' });
      const glob = await alice.api.patch(`/repos/${own.full_name}/branches/release/1`, { name: 'release-1' });
      expect(glob.status).toBe(403);
      expect(glob.body).toEqual(giteaError('Failed to rename branch due to branch protection rules.'));
      // Nor to a name a rule keeps the doer from pushing to, whoever they are.
      await alice.api.post(`/repos/${own.full_name}/branch_protections`, { rule_name: 'locked-*' });
      expect(await alice.api.patch(`/repos/${own.full_name}/branches/topic`, { name: 'locked-1' })).toMatchObject({
        status: 403,
        body: giteaError('Failed to rename branch due to branch protection rules.'),
      });
      await alice.api.put(`/repos/${own.full_name}/collaborators/${bob.username}`, { permission: 'write' });
      const notAdmin = await bob.api.patch(`/repos/${own.full_name}/branches/main`, { name: 'trunk' });
      expect(notAdmin.status).toBe(403);
      expect(notAdmin.body).toEqual(giteaError('User must be a repo or site admin to rename default or protected branches.'));
      expect((await bob.api.patch(`/repos/${own.full_name}/branches/topic`, { name: 'bobs-topic' })).status).toBe(204);
      expect((await api.anonymous.patch(`/repos/${own.full_name}/branches/topic`, { name: 'x' })).status).toBe(401);
    });
  });

  describe('commits', () => {
    let repo: Repository;
    const shas: string[] = [];

    beforeAll(async () => {
      repo = await createRepo(alice);
      shas.push(await write(repo, 'a.txt', 'a\n'));
      shas.push(await write(repo, 'dir/b.txt', 'b\nb\n'));
      shas.push(await write(repo, 'dir/c.txt', 'c\n', { author: { name: 'Outsider', email: 'nobody@example.com' } }));
    });

    it('should list the default branch newest first with files, stats and Gitea’s paging headers', async () => {
      const res = await alice.api.get<Commit[]>(`/repos/${repo.full_name}/commits?limit=2`);
      expect(res.status).toBe(200);
      expect(res.body.map((c) => c.sha)).toEqual([shas[2], shas[1]]);
      expect(res.headers.get('x-total-count')).toBe('4');
      expect(res.headers.get('x-page')).toBe('1');
      expect(res.headers.get('x-perpage')).toBe('2');
      expect(res.headers.get('x-total')).toBe('4');
      expect(res.headers.get('x-pagecount')).toBe('2');
      expect(res.headers.get('x-hasmore')).toBe('true');
      const [c, b] = res.body;
      expect(b).toMatchObject({
        files: [{ filename: 'dir/b.txt', status: 'added' }],
        stats: { total: 2, additions: 2, deletions: 0 },
        // Rendered as anyone sees the author, even for the author (Gitea's ToCommit renders with no viewer).
        author: expect.objectContaining({ login: alice.username, email: `${alice.id}+${alice.username.toLowerCase()}@noreply.localhost`, last_login: '0001-01-01T00:00:00Z' }),
        parents: [{ sha: shas[0], url: `${layout.apiUrl}/repos/${repo.full_name}/git/commits/${shas[0]}`, created: '0001-01-01T00:00:00Z' }],
      });
      expect(b!.commit.tree.sha).toBe(b!.sha);
      expect(c!.author).toBeNull();
      expect(c!.commit.author).toMatchObject({ name: 'Outsider', email: 'nobody@example.com' });
      const last = await alice.api.get<Commit[]>(`/repos/${repo.full_name}/commits?limit=2&page=2`);
      expect(last.headers.get('x-hasmore')).toBe('false');
    });

    it('should filter by path and start at a given sha, and drop stat/files on request', async () => {
      const byPath = await alice.api.get<Commit[]>(`/repos/${repo.full_name}/commits?path=dir`);
      expect(byPath.body.map((c) => c.sha)).toEqual([shas[2], shas[1]]);
      const from = await alice.api.get<Commit[]>(`/repos/${repo.full_name}/commits?sha=${shas[1]}&stat=false&files=false&verification=false`);
      expect(from.body.map((c) => c.sha)).toEqual([shas[1], shas[0], expect.any(String)]);
      expect(from.body[0]).toMatchObject({ stats: null, files: null, commit: expect.objectContaining({ verification: null }) });
      expect((await alice.api.get(`/repos/${repo.full_name}/commits?path=none`)).status).toBe(404);
      expect(await alice.api.get(`/repos/${repo.full_name}/commits?sha=nope`)).toMatchObject({ status: 404, body: giteaError('object does not exist [id: nope, rel_path: ]') });
      // A path with history, but none in the dates asked: an empty page, not 404.
      const none = await alice.api.get<Commit[]>(`/repos/${repo.full_name}/commits?path=dir&until=2000-01-01T00:00:00Z`);
      expect(none).toMatchObject({ status: 200, body: [] });
      expect(none.headers.get('x-total-count')).toBe('0');
      expect((await alice.api.get(`/repos/${repo.full_name}/commits?path=none&until=2000-01-01T00:00:00Z`)).status).toBe(404);
      // since and until are RFC 3339 only, as Gitea checks them.
      expect((await alice.api.get<Commit[]>(`/repos/${repo.full_name}/commits?since=2000-01-01T00:00:00Z`)).body.map((c) => c.sha)).toEqual(
        (await alice.api.get<Commit[]>(`/repos/${repo.full_name}/commits`)).body.map((c) => c.sha),
      );
      expect((await alice.api.get<Commit[]>(`/repos/${repo.full_name}/commits?until=2000-01-01T00:00:00%2B02:00`)).body).toEqual([]);
      expect(await alice.api.get(`/repos/${repo.full_name}/commits?since=2025-01-01`)).toMatchObject({
        status: 422,
        body: giteaError("invalid 'since' format, expected ISO 8601 (RFC3339)"),
      });
      expect(await alice.api.get(`/repos/${repo.full_name}/commits?until=yesterday`)).toMatchObject({ status: 422, body: giteaError("invalid 'until' format, expected ISO 8601 (RFC3339)") });
      const empty = await createRepo(alice, { auto_init: false });
      const conflict = await alice.api.get(`/repos/${empty.full_name}/commits`);
      expect(conflict.status).toBe(409);
      expect(conflict.body).toEqual(giteaError('Git Repository is empty.'));
    });

    it('should answer a single commit by sha or ref, and its diff and patch as text', async () => {
      const one = await alice.api.get<Commit>(`/repos/${repo.full_name}/git/commits/${shas[1]}`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ sha: shas[1], html_url: `${layout.rootUrl}${repo.full_name}/commit/${shas[1]}` });
      expect((await alice.api.get<Commit>(`/repos/${repo.full_name}/git/commits/main`)).body.sha).toBe(shas[2]);
      expect((await alice.api.get<Commit>(`/repos/${repo.full_name}/commits/${shas[0]}`)).body.sha).toBe(shas[0]);
      const diff = await alice.api.get(`/repos/${repo.full_name}/git/commits/${shas[1]}.diff`);
      expect(diff.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(diff.text).toContain('+++ b/dir/b.txt');
      const patch = await alice.api.get(`/repos/${repo.full_name}/git/commits/${shas[1]}.patch`);
      expect(patch.text).toMatch(/^From [0-9a-f]{40} /);
      expect(patch.text).toContain('Subject: [PATCH] Add dir/b.txt');
      expect((await alice.api.get(`/repos/${repo.full_name}/git/commits/${'0'.repeat(40)}`)).status).toBe(404);
      expect((await alice.api.get(`/repos/${repo.full_name}/git/commits/${'0'.repeat(40)}.diff`)).status).toBe(404);
      expect((await bob.api.get(`/repos/${(await createRepo(alice, { private: true })).full_name}/commits`)).status).toBe(404);
    });
  });

  describe('statuses', () => {
    let repo: Repository;
    let sha: string;
    const report = (user: TestUser, ref: string, body: CreateStatusOption) => user.api.post<CommitStatus>(`/repos/${repo.full_name}/statuses/${ref}`, body);

    beforeAll(async () => {
      repo = await createRepo(alice);
      sha = await write(repo, 'x.txt', 'x');
    });

    it('should report a status (201) with Gitea’s shape', async () => {
      const res = await report(alice, sha, { state: 'pending', context: 'ci/build', target_url: 'https://ci.example.com/1', description: 'building' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        id: 1,
        status: 'pending',
        context: 'ci/build',
        target_url: 'https://ci.example.com/1',
        description: 'building',
        url: `${layout.apiUrl}/repos/${repo.full_name}/statuses/${sha}`,
        creator: expect.objectContaining({ login: alice.username }),
      });
      expect(res.body.updated_at).toBe(res.body.created_at);
    });

    it('should give each of 500 concurrent reports on one commit its own index (500 × 201, no spurious 409)', async () => {
      const busy = await createRepo(alice);
      const other = await write(busy, 'concurrent.txt', 'c');
      const total = 500;
      const statuses: number[] = [];
      const ids: number[] = [];
      let next = 0;
      // 8 callers at once, as the fault test that found the race did.
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let n = next++; n < total; n = next++) {
            const res = await alice.api.post<CommitStatus>(`/repos/${busy.full_name}/statuses/${other}`, { state: 'success', context: `ci/${n}` } satisfies CreateStatusOption);
            statuses.push(res.status);
            ids.push(res.body.id);
          }
        }),
      );
      expect(statuses.filter((s) => s !== 201)).toEqual([]);
      expect(ids.sort((x, y) => x - y)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    });

    it('should combine the latest status per context with Gitea’s rules', async () => {
      const combined = async (ref: string) => (await alice.api.get<CombinedStatus>(`/repos/${repo.full_name}/commits/${ref}/status`)).body;
      expect((await combined('main')).state).toBe('pending');
      await report(alice, sha, { state: 'success', context: 'ci/build' });
      await report(alice, sha, { state: 'skipped', context: 'ci/lint' });
      const ok = await combined('main');
      expect(ok).toMatchObject({ state: 'success', sha, total_count: 2, commit_url: `${layout.apiUrl}/repos/${repo.full_name}/commits/${sha}` });
      expect(ok.statuses!.map((s) => [s.context, s.status])).toEqual([
        ['ci/build', 'success'],
        ['ci/lint', 'skipped'],
      ]);
      expect(ok.repository.full_name).toBe(repo.full_name);
      // The latest status per context, paged, with X-Total-Count and Link (GetCombinedCommitStatusByRef).
      const paged = await alice.api.get<CombinedStatus>(`/repos/${repo.full_name}/commits/main/status?limit=1`);
      expect(paged.headers.get('x-total-count')).toBe('2');
      expect(paged.headers.get('link')).toContain('rel="next"');
      await report(alice, 'main', { state: 'warning', context: 'ci/lint' });
      expect((await combined(sha.slice(0, 7))).state).toBe('failure');
      const none = await write(repo, 'y.txt', 'y');
      const empty = await combined(none);
      expect(empty).toMatchObject({ state: 'pending', total_count: 0, statuses: null, sha: none });
      expect((await alice.api.get(`/repos/${repo.full_name}/commits/nope/status`)).status).toBe(404);
    });

    it('should list a commit’s statuses by sha and by ref, newest first by default', async () => {
      const bySha = await alice.api.get<CommitStatus[]>(`/repos/${repo.full_name}/statuses/${sha}`);
      expect(bySha.body.map((s) => s.id)).toEqual([4, 3, 2, 1]);
      expect(bySha.headers.get('x-total-count')).toBe('4');
      const oldest = await alice.api.get<CommitStatus[]>(`/repos/${repo.full_name}/statuses/${sha}?sort=oldest&state=success`);
      expect(oldest.body.map((s) => [s.id, s.status])).toEqual([[2, 'success']]);
      const byRef = await alice.api.get<CommitStatus[]>(`/repos/${repo.full_name}/commits/${sha}/statuses?limit=1`);
      expect(byRef.body).toHaveLength(1);
      expect(byRef.headers.get('link')).toContain('rel="next"');
      expect((await alice.api.get(`/repos/${repo.full_name}/commits/nope/statuses`)).status).toBe(404);
    });

    it('should require a valid state and write access', async () => {
      const bad = await alice.api.post(`/repos/${repo.full_name}/statuses/${sha}`, { state: 'great', context: 'x' });
      expect(bad.status).toBe(422);
      expect((await report(bob, sha, { state: 'success', context: 'x' })).status).toBe(403);
      expect((await api.anonymous.post(`/repos/${repo.full_name}/statuses/${sha}`, { state: 'success' })).status).toBe(401);
      expect((await report(alice, '0'.repeat(40), { state: 'success' })).status).toBe(404);
      expect((await api.anonymous.get(`/repos/${repo.full_name}/commits/${sha}/status`)).status).toBe(200);
    });
  });

  describe('compare', () => {
    let repo: Repository;
    let base: string;
    const heads: string[] = [];

    beforeAll(async () => {
      repo = await createRepo(alice);
      base = await write(repo, 'base.txt', 'base\n');
      heads.push(await write(repo, 'f1.txt', 'one\n', { new_branch: 'topic/work' }));
      heads.push(await write(repo, 'f2.txt', 'two\n', { branch: 'topic/work' }));
      await write(repo, 'main-only.txt', 'm\n');
      await gitOnDisk(layout, repo.id, ['tag', 'v0', base]);
    });

    it('should compare base...head from their merge base, with Gitea’s Commit shape', async () => {
      const res = await alice.api.get<Compare>(`/repos/${repo.full_name}/compare/main...topic/work`);
      expect(res.status).toBe(200);
      expect(res.body.total_commits).toBe(2);
      expect(res.body.commits.map((c) => c.sha)).toEqual([heads[1], heads[0]]);
      expect(res.body.commits[0]).toMatchObject({
        files: [{ filename: 'f2.txt', status: 'added' }],
        stats: { total: 1, additions: 1, deletions: 0 },
        author: expect.objectContaining({ login: alice.username }),
        committer: expect.objectContaining({ login: alice.username }),
        parents: [expect.objectContaining({ sha: heads[0] })],
      });
      const diff = await alice.api.get(`/repos/${repo.full_name}/compare/main...topic/work?output=diff`);
      expect(diff.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(diff.text).toContain('+++ b/f2.txt');
      expect(diff.text).not.toContain('main-only.txt');
      const direct = await alice.api.get(`/repos/${repo.full_name}/compare/main..topic/work?output=diff`);
      expect(direct.text).toContain('main-only.txt');
      const patch = await alice.api.get(`/repos/${repo.full_name}/compare/main...topic/work?output=patch`);
      expect(patch.text.match(/^From [0-9a-f]{40} /gm)).toHaveLength(3);
    });

    it('should take tags, full and short ids and ~N/^ suffixes', async () => {
      const count = async (basehead: string) => (await alice.api.get<Compare>(`/repos/${repo.full_name}/compare/${basehead}`)).body.total_commits;
      expect(await count(`v0...topic/work`)).toBe(2);
      expect(await count(`${base}..${heads[1]}`)).toBe(2);
      expect(await count(`${base.slice(0, 8)}..${heads[1]!.slice(0, 8)}`)).toBe(2);
      expect(await count(`topic/work~1..topic/work`)).toBe(1);
      expect(await count(`topic/work^..topic/work`)).toBe(1);
      expect(await count(`topic/work~2...topic/work`)).toBe(2);
      expect(await count(`${alice.username}:topic/work`)).toBe(2);
    });

    it('should answer 404 for unknown refs and 400 for other revision syntax', async () => {
      expect(await alice.api.get(`/repos/${repo.full_name}/compare/main...nope`)).toMatchObject({ status: 404, body: giteaError('ref "nope" does not exist') });
      expect((await alice.api.get(`/repos/${repo.full_name}/compare/nope..main`)).status).toBe(404);
      expect(await alice.api.get(`/repos/${repo.full_name}/compare/main~9...main`)).toMatchObject({ status: 404, body: giteaError('ref "main~9" does not exist') });
      expect((await alice.api.get(`/repos/${repo.full_name}/compare/main%40%7B1%7D...main`)).status).toBe(400);
      expect((await alice.api.get(`/repos/${repo.full_name}/compare/main...someone:main`)).status).toBe(404);
      const priv = await createRepo(alice, { private: true });
      expect((await bob.api.get(`/repos/${priv.full_name}/compare/main...main`)).status).toBe(404);
      expect((await api.anonymous.get(`/repos/${repo.full_name}/compare/main...topic/work`)).status).toBe(200);
    });
  });
});
