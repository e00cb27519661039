import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  Branch,
  Commit,
  ContentsResponse,
  CreateBranchProtectionOption,
  CreateFileOptions,
  CreateRepoOption,
  DeleteFileOptions,
  FileResponse,
  Repository,
} from '@gitforge/contracts';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { GitCli, gitUrl } from './support/git.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { b64 } from './support/repo-disk.js';

describe.each(layoutsUnderTest())('contents against git clone and push, and branch protection (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let git: GitCli;
  let alice: TestUser;
  let bob: TestUser;

  const createRepo = async (user: TestUser, body: Partial<CreateRepoOption> = {}): Promise<Repository> => {
    const res = await user.api.post<Repository>('/user/repos', { name: uniqueName('repo'), auto_init: true, ...body } satisfies Partial<CreateRepoOption>);
    if (res.status !== 201) throw new Error(`create repo: ${res.status} ${res.text}`);
    return res.body;
  };
  const put = (user: TestUser, repo: Repository, path: string, content: string, extra: Partial<CreateFileOptions> = {}) =>
    user.api.post<FileResponse>(`/repos/${repo.full_name}/contents/${path}`, { content: b64(content), ...extra } satisfies CreateFileOptions);
  const clone = async (user: TestUser, repo: Repository): Promise<string> => {
    const dir = git.dir('clone');
    await git.run(['clone', '--quiet', gitUrl(layout, repo.owner.login, repo.name, [user.username, user.password]), dir]);
    return dir;
  };

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    git = GitCli.create();
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
  });

  afterAll(async () => {
    git?.cleanup();
    await layout?.stop();
  });

  describe('what git clone shows, and what a push makes the API show', () => {
    it('should clone exactly what the API wrote, in the commits it made', async () => {
      const repo = await createRepo(alice);
      const created = await put(alice, repo, 'src/app.js', 'export const x = 1;\n', { message: 'Add the app' });
      expect(created.status).toBe(201);
      await put(alice, repo, 'docs/readme.txt', 'docs\n', { new_branch: 'docs/work' });
      const dir = await clone(alice, repo);
      expect(readFileSync(join(dir, 'src/app.js'), 'utf8')).toBe('export const x = 1;\n');
      expect((await git.run(['log', '-1', '--format=%H%n%s%n%an <%ae>'], { cwd: dir })).stdout.trim().split('\n')).toEqual([
        created.body.commit.sha,
        'Add the app',
        `${alice.username} <${alice.email}>`,
      ]);
      const remote = await git.lsRemote(gitUrl(layout, alice.username, repo.name, [alice.username, alice.password]));
      expect(remote.get('refs/heads/docs/work')).toBe((await alice.api.get<Branch>(`/repos/${repo.full_name}/branches/docs/work`)).body.commit.id);
    });

    it('should show through the API what a push wrote, and let the API build on it', async () => {
      const repo = await createRepo(alice);
      const dir = await clone(alice, repo);
      const pushed = await git.commit(dir, { 'pushed.txt': 'from git\n' }, 'Pushed with git');
      await git.run(['push', '--quiet', 'origin', 'main'], { cwd: dir });

      const file = await alice.api.get<ContentsResponse>(`/repos/${repo.full_name}/contents/pushed.txt`);
      expect(Buffer.from(file.body.content!, 'base64').toString()).toBe('from git\n');
      expect(file.body.last_commit_sha).toBe(pushed);
      const commits = await alice.api.get<Commit[]>(`/repos/${repo.full_name}/commits?limit=1`);
      expect(commits.body[0]).toMatchObject({ sha: pushed, commit: expect.objectContaining({ message: 'Pushed with git\n' }) });

      const removed = await alice.api.delete(`/repos/${repo.full_name}/contents/pushed.txt`, { sha: file.body.sha } satisfies DeleteFileOptions);
      expect(removed.status).toBe(200);
      await git.run(['pull', '--quiet', 'origin', 'main'], { cwd: dir });
      expect((await git.run(['ls-files'], { cwd: dir })).stdout.trim().split('\n')).toEqual(['README.md']);
    });
  });

  describe('branch protection through the API', () => {
    let repo: Repository;

    beforeAll(async () => {
      repo = await createRepo(alice);
      await put(alice, repo, 'keep.txt', 'k');
      const rule = await alice.api.post(`/repos/${repo.full_name}/branch_protections`, {
        rule_name: 'main',
        enable_push: true,
        enable_push_whitelist: true,
        push_whitelist_usernames: [alice.username],
        protected_file_patterns: 'locked/**',
        unprotected_file_patterns: 'free/**',
        enable_status_check: true,
        status_check_contexts: ['ci/build'],
        required_approvals: 2,
      } satisfies CreateBranchProtectionOption);
      expect(rule.status).toBe(201);
      const collab = await alice.api.put(`/repos/${repo.full_name}/collaborators/${bob.username}`, { permission: 'write' });
      expect(collab.status).toBe(204);
    });

    it('should show the rule in the Branch shape, its name to admins only', async () => {
      const asAlice = await alice.api.get<Branch>(`/repos/${repo.full_name}/branches/main`);
      expect(asAlice.body).toMatchObject({
        protected: true,
        required_approvals: 2,
        enable_status_check: true,
        status_check_contexts: ['ci/build'],
        user_can_push: true,
        user_can_merge: true,
        effective_branch_protection_name: 'main',
      });
      const asBob = await bob.api.get<Branch>(`/repos/${repo.full_name}/branches/main`);
      expect(asBob.body).toMatchObject({ protected: true, user_can_push: false, effective_branch_protection_name: '' });
      const anonymous = await api.anonymous.get<Branch>(`/repos/${repo.full_name}/branches/main`);
      expect(anonymous.body).toMatchObject({ protected: true, user_can_push: false, user_can_merge: false });
    });

    it('should refuse file changes the rule forbids, and allow the ones it leaves free', async () => {
      const refused = await put(bob, repo, 'bob.txt', 'b');
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(giteaError(`user cannot commit to repo [user: ${bob.username.toLowerCase()}]`));
      expect((await put(bob, repo, 'free/bob.txt', 'b')).status).toBe(201);
      expect((await put(bob, repo, 'bob.txt', 'b', { new_branch: 'bob-work' })).status).toBe(201);
      const locked = await put(alice, repo, 'locked/secret.txt', 's');
      expect(locked.status).toBe(403);
      expect(locked.body).toEqual(giteaError('path is protected and can not be changed [path: locked/secret.txt]'));
      expect((await put(alice, repo, 'alice.txt', 'a')).status).toBe(201);
    });

    it('should refuse deleting a protected branch', async () => {
      await alice.api.post(`/repos/${repo.full_name}/branches`, { new_branch_name: 'release/1' });
      await alice.api.post(`/repos/${repo.full_name}/branch_protections`, { rule_name: 'release/*' } satisfies CreateBranchProtectionOption);
      const res = await alice.api.delete(`/repos/${repo.full_name}/branches/release/1`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(giteaError('branch protected'));
      const branch = await alice.api.get<Branch>(`/repos/${repo.full_name}/branches/release/1`);
      expect(branch.body).toMatchObject({ protected: true, effective_branch_protection_name: 'release/*', user_can_push: false });
    });
  });
});
