import type { Branch, CreateFileOptions, CreateRepoOption, FileResponse, Repository, UpdateBranchRepoOption } from '@gitforge/contracts';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { b64, commitOnDisk, gitOnDisk, markMirror, repoEvents } from './support/repo-disk.js';

/** Endpoints read from (or written to) a repository's git data: raw commit diffs, branch updates. */
describe.each(layoutsUnderTest())('repository git data (%s layout)', (kind) => {
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

  describe('git/commits/{sha}.{diffType}', () => {
    it('should answer a commit’s diff and patch as text, a ref with a dot still being a commit', async () => {
      const repo = await createRepo(alice);
      const sha = await write(repo, 'notes.txt', 'hello\n');
      await gitOnDisk(layout, repo.id, ['tag', 'v1.0', sha]);
      const diff = await alice.api.get(`/repos/${repo.full_name}/git/commits/${sha}.diff`);
      expect(diff.status).toBe(200);
      expect(diff.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(diff.text).toMatch(/^diff --git a\/notes\.txt b\/notes\.txt\n/);
      expect(diff.text).toContain('+hello');
      const patch = await alice.api.get(`/repos/${repo.full_name}/git/commits/${sha}.patch`);
      expect(patch.text).toMatch(new RegExp(`^From ${sha} `));
      expect(patch.text).toContain('Subject: [PATCH] Add notes.txt');
      expect((await alice.api.get(`/repos/${repo.full_name}/git/commits/v1.0.diff`)).text).toBe(diff.text);
      // `v1.0` is a tag, not `v1` with a `.0` diff type.
      expect((await alice.api.get<{ sha: string }>(`/repos/${repo.full_name}/git/commits/v1.0`)).body.sha).toBe(sha);
    });

    it('should answer 404 for an unknown commit and hide private repositories', async () => {
      const repo = await createRepo(alice, { private: true });
      const sha = await write(repo, 'a.txt', 'a');
      const missing = await alice.api.get(`/repos/${repo.full_name}/git/commits/${'0'.repeat(40)}.patch`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(giteaError());
      expect((await bob.api.get(`/repos/${repo.full_name}/git/commits/${sha}.diff`)).status).toBe(404);
      expect((await api.anonymous.get(`/repos/${repo.full_name}/git/commits/${sha}.diff`)).status).toBe(404);
    });
  });

  describe('PUT branches/{branch}', () => {
    it('should move a branch forward (204), and only with force backwards, each heard as a push', async () => {
      const repo = await createRepo(alice);
      const base = (await alice.api.get<Branch>(`/repos/${repo.full_name}/branches/main`)).body.commit.id;
      await alice.api.post(`/repos/${repo.full_name}/branches`, { new_branch_name: 'feature/x' });
      const ahead = await write(repo, 'x.txt', 'x');
      const forward = await alice.api.put(`/repos/${repo.full_name}/branches/feature/x`, { new_commit_id: ahead } satisfies UpdateBranchRepoOption);
      expect(forward.status).toBe(204);
      expect((await alice.api.get<Branch>(`/repos/${repo.full_name}/branches/feature/x`)).body.commit.id).toBe(ahead);

      const back = await alice.api.put(`/repos/${repo.full_name}/branches/feature/x`, { new_commit_id: base } satisfies UpdateBranchRepoOption);
      expect(back.status).toBe(409);
      expect(back.body).toEqual(giteaError('The update is not a fast-forward.'));
      const forced = await alice.api.put(`/repos/${repo.full_name}/branches/feature/x`, { new_commit_id: base, force: true, old_commit_id: ahead } satisfies UpdateBranchRepoOption);
      expect(forced.status).toBe(204);
      expect((await gitOnDisk(layout, repo.id, ['rev-parse', 'refs/heads/feature/x'])).trim()).toBe(base);
      // A branch name resolves too; the same target again changes nothing.
      expect((await alice.api.put(`/repos/${repo.full_name}/branches/feature/x`, { new_commit_id: 'main' })).status).toBe(204);
      expect((await alice.api.put(`/repos/${repo.full_name}/branches/feature/x`, { new_commit_id: ahead })).status).toBe(204);

      const pushes = (await repoEvents(layout, repo.id))
        .filter((e) => e.name === 'repo.pushed' && (e.payload as { ref: string }).ref === 'refs/heads/feature/x')
        .map((e) => [(e.payload as { before: string }).before, (e.payload as { after: string }).after]);
      // The first is the branch's creation.
      expect(pushes).toEqual([['0'.repeat(40), base], [base, ahead], [ahead, base], [base, ahead]]);
    });

    it('should answer Gitea’s errors: unknown branch or commit, stale old_commit_id, bad body', async () => {
      const repo = await createRepo(alice);
      const head = (await alice.api.get<Branch>(`/repos/${repo.full_name}/branches/main`)).body.commit.id;
      const missing = await alice.api.put(`/repos/${repo.full_name}/branches/nope`, { new_commit_id: head });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(giteaError("Branch doesn't exist."));
      const unknown = await alice.api.put(`/repos/${repo.full_name}/branches/main`, { new_commit_id: 'f'.repeat(40) });
      expect(unknown.status).toBe(422);
      expect(unknown.body).toEqual(giteaError(`object does not exist [id: ${'f'.repeat(40)}, rel_path: ]`));
      const next = await write(repo, 'n.txt', 'n');
      const stale = await alice.api.put(`/repos/${repo.full_name}/branches/main`, { new_commit_id: head, old_commit_id: head, force: true });
      expect(stale.status).toBe(409);
      expect((await gitOnDisk(layout, repo.id, ['rev-parse', 'refs/heads/main'])).trim()).toBe(next);
      expect((await alice.api.put(`/repos/${repo.full_name}/branches/main`, {})).status).toBe(422);
      expect((await alice.api.put(`/repos/${repo.full_name}/branches/main`, { new_commit_id: head, force: 'yes' })).status).toBe(422);
      // An option-looking revision is no option to git.
      expect((await alice.api.put(`/repos/${repo.full_name}/branches/main`, { new_commit_id: '--all' })).status).toBe(422);
    });

    it('should apply branch protection as a push would', async () => {
      const repo = await createRepo(alice);
      const base = (await alice.api.get<Branch>(`/repos/${repo.full_name}/branches/main`)).body.commit.id;
      const ahead = await write(repo, 'p.txt', 'p');
      await alice.api.post(`/repos/${repo.full_name}/branch_protections`, { rule_name: 'main', enable_push: true });
      const refused = await alice.api.put(`/repos/${repo.full_name}/branches/main`, { new_commit_id: base, force: true });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(giteaError('Branch main is protected from force push'));
      await alice.api.post(`/repos/${repo.full_name}/branch_protections`, { rule_name: 'locked' });
      await alice.api.post(`/repos/${repo.full_name}/branches`, { new_branch_name: 'locked', old_ref_name: base });
      const locked = await alice.api.put(`/repos/${repo.full_name}/branches/locked`, { new_commit_id: ahead });
      expect(locked.status).toBe(403);
      expect(locked.body).toEqual(giteaError('Not allowed to push to protected branch locked'));
    });

    it('should need write access, and refuse archived (423) and mirror (403) repositories', async () => {
      const repo = await createRepo(alice);
      const head = (await alice.api.get<Branch>(`/repos/${repo.full_name}/branches/main`)).body.commit.id;
      expect((await bob.api.put(`/repos/${repo.full_name}/branches/main`, { new_commit_id: head })).status).toBe(403);
      expect((await api.anonymous.put(`/repos/${repo.full_name}/branches/main`, { new_commit_id: head })).status).toBe(401);
      const priv = await createRepo(alice, { private: true });
      expect((await bob.api.put(`/repos/${priv.full_name}/branches/main`, { new_commit_id: head })).status).toBe(404);
      const mirror = await createRepo(alice);
      await markMirror(layout, mirror.id);
      const mirrored = await alice.api.put(`/repos/${mirror.full_name}/branches/main`, { new_commit_id: 'main' });
      expect(mirrored.status).toBe(403);
      const archived = await createRepo(alice);
      await commitOnDisk(layout, archived.id, 'side', [{ path: 's.txt', content: 's' }], 'side');
      expect((await alice.api.patch(`/repos/${archived.full_name}`, { archived: true })).status).toBe(200);
      expect((await alice.api.put(`/repos/${archived.full_name}/branches/main`, { new_commit_id: 'side', force: true })).status).toBe(423);
    });
  });
});
