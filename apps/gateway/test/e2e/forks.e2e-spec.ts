import type { Activity, Branch, Compare, CreateForkOption, CreateHookOption, Repository } from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { addToTeam, createOrg, createTeam } from './support/accounts.js';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { GitCli, gitUrl } from './support/git.js';
import { HookReceiver } from './support/hook-receiver.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { addCollaborator, createRepo } from './support/repos.js';

/**
 * Forks through the gateway: Gitea's `POST/GET /repos/{owner}/{repo}/forks`, the fork fields of
 * every Repository, the bookkeeping of deletions, real git on both sides, and the fork webhook.
 */
describe.each(layoutsUnderTest())('forks (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let git: GitCli;
  let receiver: HookReceiver;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let bobOrg: string;
  let aliceOrg: string;
  let src: Repository;
  let firstCommit: string;

  const fork = (as: Api, repo: Repository | string, body: CreateForkOption = {}) =>
    as.post<Repository>(`/repos/${typeof repo === 'string' ? repo : repo.full_name}/forks`, body);
  const url = (user: TestUser, fullName: string) => {
    const [owner, name] = fullName.split('/') as [string, string];
    return gitUrl(layout, owner, name, [user.username, user.password]);
  };
  const tip = async (as: Api, fullName: string, branch = 'main') => (await as.get<Branch>(`/repos/${fullName}/branches/${branch}`)).body.commit.id;

  beforeAll(async () => {
    layout = await Layout.start(kind, { env: { GITFORGE_WEBHOOK_ALLOW_LOOPBACK: '1' } });
    api = new Api(layout);
    git = GitCli.create();
    receiver = await HookReceiver.start();
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
    carol = await createUser(api, 'carol');
    bobOrg = (await createOrg(bob.api)).name;
    // bob is a member of alice's organization, in a team that may not create repositories.
    aliceOrg = (await createOrg(alice.api)).name;
    const readers = await createTeam(alice.api, aliceOrg, { permission: 'read', can_create_org_repo: false });
    await addToTeam(alice.api, readers.id, bob);

    src = await createRepo(alice.api, { name: uniqueName('src'), description: 'the source', auto_init: true });
    firstCommit = await tip(alice.api, src.full_name);
    const work = git.dir();
    await git.run(['clone', '--quiet', url(alice, src.full_name), work]);
    await git.commit(work, { 'two.txt': 'two\n' }, 'second commit');
    await git.run(['push', '--quiet', 'origin', 'main'], { cwd: work });
  });

  afterAll(async () => {
    git?.cleanup();
    await receiver?.close();
    await layout?.stop();
  });

  describe('creating', () => {
    let bobFork: Repository;

    it('should fork to the caller (202) with the source as parent and count it', async () => {
      const res = await fork(bob.api, src);
      expect(res.status).toBe(202);
      bobFork = res.body;
      expect(bobFork).toMatchObject({
        full_name: `${bob.username}/${src.name}`,
        owner: expect.objectContaining({ login: bob.username }),
        fork: true,
        private: false,
        empty: false,
        description: 'the source',
        default_branch: 'main',
        forks_count: 0,
        permissions: { admin: true, push: true, pull: true },
        parent: expect.objectContaining({ id: src.id, full_name: src.full_name, fork: false, forks_count: 1 }),
      });
      // The parent as bob sees it: a reader of a public repository.
      expect(bobFork.parent!.permissions).toEqual({ admin: false, push: false, pull: true });
      const source = (await alice.api.get<Repository>(`/repos/${src.full_name}`)).body;
      expect(source).toMatchObject({ forks_count: 1, fork: false });
      // No parent: left out, as Gitea's omitempty does.
      expect(source).not.toHaveProperty('parent');
      expect((await bob.api.get<Repository>(`/repos/${bobFork.full_name}`)).body).toMatchObject({ fork: true, parent: { id: src.id } });
      expect((await carol.api.get<Repository>(`/repositories/${bobFork.id}`)).body.parent).toMatchObject({ id: src.id });
    });

    it('should refuse a second fork by the same owner (409), whatever its name', async () => {
      const res = await fork(bob.api, src, { name: uniqueName('again') });
      expect(res.status).toBe(409);
      expect(res.body).toEqual(
        giteaError(`repository is already forked by user [uname: ${bob.username}, repo path: ${src.full_name}, fork path: ${bobFork.full_name}]`),
      );
    });

    it('should refuse to fork your own repository into yourself under its own name (409), and allow a new name', async () => {
      const same = await fork(alice.api, src);
      expect(same.status).toBe(409);
      expect(same.body).toEqual(giteaError(`repository already exists [uname: ${alice.username}, name: ${src.name}]`));
      const renamed = await fork(alice.api, src, { name: `${src.name}-copy` });
      expect(renamed.status).toBe(202);
      expect(renamed.body).toMatchObject({ full_name: `${alice.username}/${src.name}-copy`, fork: true, parent: { id: src.id } });
    });

    it('should fork into an organization where the caller may create repositories, under a new name', async () => {
      const name = uniqueName('renamed');
      const res = await fork(bob.api, src, { organization: bobOrg, name });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ full_name: `${bobOrg}/${name}`, fork: true, parent: { id: src.id }, permissions: { admin: true } });
      expect((await api.anonymous.get<Repository>(`/repos/${src.full_name}`)).body.forks_count).toBe(3);
    });

    it('should refuse an organization the caller may not create in (403), and unknown ones (404)', async () => {
      const denied = await fork(bob.api, src, { organization: aliceOrg });
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(giteaError('User is not allowed to create repositories in this organization.'));
      expect((await fork(bob.api, src, { organization: uniqueName('nope') })).status).toBe(404);
      expect((await fork(bob.api, src, { organization: bob.username })).status).toBe(404);
    });

    it('should refuse bad names (422), anonymous callers (401) and unknown sources (404)', async () => {
      expect((await fork(carol.api, src, { name: 'bad name!' })).status).toBe(422);
      expect((await fork(carol.api, src, { name: '.git' })).status).toBe(422);
      expect((await fork(api.anonymous, src)).status).toBe(401);
      expect((await fork(carol.api, `${alice.username}/${uniqueName('missing')}`)).status).toBe(404);
    });

    it('should list the forks the caller may see, oldest first, paged', async () => {
      const all = await api.anonymous.get<Repository[]>(`/repos/${src.full_name}/forks`);
      expect(all.status).toBe(200);
      expect(all.headers.get('x-total-count')).toBe('3');
      expect(all.body.map((r) => r.owner.login)).toEqual([bob.username, alice.username, bobOrg]);
      expect(all.body.every((r) => r.fork && r.parent?.id === src.id)).toBe(true);
      const page = await api.anonymous.get<Repository[]>(`/repos/${src.full_name}/forks?page=2&limit=1`);
      expect(page.body.map((r) => r.owner.login)).toEqual([alice.username]);
      expect(page.headers.get('x-total-count')).toBe('3');
      expect(page.headers.get('link')).toContain('rel="next"');
      expect((await api.anonymous.get(`/repos/${alice.username}/${uniqueName('missing')}/forks`)).status).toBe(404);
    });

    it('should find forks with search mode=fork and leave them out of mode=source', async () => {
      const q = encodeURIComponent(src.name);
      const forks = await api.anonymous.get<{ ok: boolean; data: Repository[] }>(`/repos/search?q=${q}&mode=fork&limit=50`);
      expect(forks.body.data.map((r) => r.full_name).sort()).toEqual(
        expect.arrayContaining([bobFork.full_name, `${alice.username}/${src.name}-copy`]),
      );
      expect(forks.body.data.every((r) => r.fork)).toBe(true);
      const sources = await api.anonymous.get<{ ok: boolean; data: Repository[] }>(`/repos/search?q=${q}&mode=source&limit=50`);
      expect(sources.body.data.map((r) => r.full_name)).toContain(src.full_name);
      expect(sources.body.data.some((r) => r.fork)).toBe(false);
    });

    it("should clone the fork with the source's history, and keep pushes to the fork out of the source", async () => {
      const sourceTip = await tip(alice.api, src.full_name);
      const work = git.dir();
      await git.run(['clone', '--quiet', url(bob, bobFork.full_name), work]);
      const log = (await git.run(['log', '--format=%H %s'], { cwd: work })).stdout.trim().split('\n');
      expect(log).toEqual([`${sourceTip} second commit`, `${firstCommit} Initial commit`]);
      const pushed = await git.commit(work, { 'fork.txt': 'only in the fork\n' }, 'fork commit');
      await git.run(['push', '--quiet', 'origin', 'main'], { cwd: work });
      expect(await tip(bob.api, bobFork.full_name)).toBe(pushed);
      expect(await tip(alice.api, src.full_name)).toBe(sourceTip);
      const check = git.dir();
      await git.run(['clone', '--quiet', url(alice, src.full_name), check]);
      expect((await git.run(['cat-file', '-t', pushed], { cwd: check, allowFailure: true })).code).not.toBe(0);
    });

    it("should compare the source with a fork's branch (owner:branch, owner/repo:branch), 400 for an owner without a fork", async () => {
      const forkTip = await tip(bob.api, bobFork.full_name);
      const byOwner = await alice.api.get<Compare>(`/repos/${src.full_name}/compare/main...${bob.username}:main`);
      expect(byOwner.status).toBe(200);
      expect(byOwner.body).toMatchObject({ total_commits: 1, commits: [{ sha: forkTip }] });
      // Compared in the fork, as Gitea does: the commits link there, and none of them reaches the source.
      expect(byOwner.body.commits[0]!.html_url).toBe(`${layout.rootUrl}${bobFork.full_name}/commit/${forkTip}`);
      expect((await alice.api.get(`/repos/${src.full_name}/git/commits/${forkTip}`)).status).toBe(404);
      const byName = await alice.api.get<Compare>(`/repos/${src.full_name}/compare/main...${bobFork.full_name}:main`);
      expect(byName.body.commits.map((c) => c.sha)).toEqual([forkTip]);
      // An empty side is the default branch; an empty owner the base itself.
      expect((await alice.api.get<Compare>(`/repos/${src.full_name}/compare/main...${bob.username}:`)).body.total_commits).toBe(1);
      expect((await alice.api.get<Compare>(`/repos/${src.full_name}/compare/main...:main`)).body.total_commits).toBe(0);
      const diff = await alice.api.get(`/repos/${src.full_name}/compare/main...${bob.username}:main?output=diff`);
      expect(diff.text).toContain('+only in the fork');
      // From the fork, its parent's owner names the parent: nothing there the fork lacks, and
      // comparing copies none of the fork's commits into the parent.
      expect((await bob.api.get<Compare>(`/repos/${bobFork.full_name}/compare/main...${alice.username}:main`)).body.total_commits).toBe(0);
      expect((await alice.api.get(`/repos/${src.full_name}/git/commits/${forkTip}`)).status).toBe(404);
      const noFork = await alice.api.get<{ message: string }>(`/repos/${src.full_name}/compare/main...${carol.username}:main`);
      expect(noFork.status).toBe(400);
      expect(noFork.body.message).toBe(`the user ${carol.username} does not have a fork of the base repository`);
      expect((await alice.api.get(`/repos/${src.full_name}/compare/main...${bob.username}:nope`)).status).toBe(404);
    });

    it('should record the fork as create_repo in the forker feed', async () => {
      await expectEventually(async () => {
        const feed = await bob.api.get<Activity[]>(`/users/${bob.username}/activities/feeds?only-performed-by=true`);
        expect(feed.body).toEqual(expect.arrayContaining([expect.objectContaining({ op_type: 'create_repo', repo_id: bobFork.id })]));
      });
    });
  });

  describe('private and empty sources', () => {
    it('should keep a fork of a private repository private, 404 to outsiders, and hide a parent the caller no longer sees', async () => {
      const secret = await createRepo(alice.api, { name: uniqueName('secret'), private: true, auto_init: true });
      expect((await fork(carol.api, secret)).status).toBe(404);
      expect((await carol.api.get(`/repos/${secret.full_name}/forks`)).status).toBe(404);
      await addCollaborator(alice.api, secret, bob, 'read');
      const res = await fork(bob.api, secret);
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ private: true, fork: true, parent: { id: secret.id, private: true } });
      expect((await carol.api.get(`/repos/${res.body.full_name}`)).status).toBe(404);
      expect((await api.anonymous.get(`/repos/${res.body.full_name}`)).status).toBe(404);
      // The parent's owner does not see bob's private fork in the list; bob does.
      expect((await alice.api.get<Repository[]>(`/repos/${secret.full_name}/forks`)).body).toEqual([]);
      expect((await bob.api.get<Repository[]>(`/repos/${secret.full_name}/forks`)).body.map((r) => r.id)).toEqual([res.body.id]);
      expect((await alice.api.delete(`/repos/${secret.full_name}/collaborators/${bob.username}`)).status).toBe(204);
      const after = await bob.api.get<Repository>(`/repos/${res.body.full_name}`);
      expect(after.body).toMatchObject({ fork: true });
      expect(after.body).not.toHaveProperty('parent');
    });

    it('should fork an empty repository as an empty one that takes pushes', async () => {
      const empty = await createRepo(alice.api, { name: uniqueName('empty'), default_branch: 'trunk' });
      const res = await fork(carol.api, empty);
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ empty: true, fork: true, default_branch: 'trunk' });
      const work = git.dir();
      await git.run(['init', '--quiet', '--initial-branch=trunk', work]);
      const sha = await git.commit(work, { 'a.txt': 'a\n' }, 'first');
      await git.run(['push', '--quiet', url(carol, res.body.full_name), 'trunk'], { cwd: work });
      expect(await tip(carol.api, res.body.full_name, 'trunk')).toBe(sha);
    });
  });

  describe('merging upstream', () => {
    const contents = (as: Api, fullName: string, path: string, content: string, branch = 'main') =>
      as.post(`/repos/${fullName}/contents/${path}`, { content: Buffer.from(content).toString('base64'), message: `add ${path}`, branch });

    it("should fast-forward a fork's branch to its parent's, merge when it has diverged, and say when there is nothing to take (Gitea's merge-upstream)", async () => {
      const parent = await createRepo(alice.api, { name: uniqueName('upstream'), auto_init: true });
      const forked = (await fork(bob.api, parent)).body;
      const merge = (body: Record<string, unknown>, as = bob.api, target = forked.full_name) => as.post<{ merge_type: string }>(`/repos/${target}/merge-upstream`, body);
      expect(await merge({ branch: 'main' })).toMatchObject({ status: 200, body: { merge_type: 'up-to-date' } });

      expect((await contents(alice.api, parent.full_name, 'up-1.txt', 'one\n')).status).toBe(201);
      expect(await merge({ branch: 'main' })).toMatchObject({ status: 200, body: { merge_type: 'fast-forward' } });
      expect(await tip(bob.api, forked.full_name)).toBe(await tip(alice.api, parent.full_name));

      // Both sides move: ff_only refuses (400), a merge commit otherwise, with both as its parents.
      expect((await contents(alice.api, parent.full_name, 'up-2.txt', 'two\n')).status).toBe(201);
      expect((await contents(bob.api, forked.full_name, 'mine.txt', 'mine\n')).status).toBe(201);
      const before = await tip(bob.api, forked.full_name);
      expect(await merge({ branch: 'main', ff_only: true })).toMatchObject({ status: 400, body: giteaError('fast-forward merge not possible: branch has diverged') });
      expect(await merge({ branch: 'main' })).toMatchObject({ status: 200, body: { merge_type: 'merge' } });
      const work = git.dir();
      await git.run(['clone', '--quiet', url(bob, forked.full_name), work]);
      const [merged, ...parents] = (await git.run(['log', '-1', '--format=%H %P', 'main'], { cwd: work })).stdout.trim().split(' ');
      expect(merged).toBe(await tip(bob.api, forked.full_name));
      expect(parents).toEqual([before, await tip(alice.api, parent.full_name)]);
      expect((await git.run(['log', '-1', '--format=%s', 'main'], { cwd: work })).stdout.trim()).toBe('merge upstream');
      expect((await git.run(['ls-tree', '--name-only', 'main'], { cwd: work })).stdout.split('\n')).toEqual(expect.arrayContaining(['up-1.txt', 'up-2.txt', 'mine.txt']));
      expect(await merge({ branch: 'main' })).toMatchObject({ status: 200, body: { merge_type: 'up-to-date' } });

      // A branch the parent lacks takes the parent's default branch.
      expect((await bob.api.post(`/repos/${forked.full_name}/branches`, { new_branch_name: 'topic', old_ref_name: before })).status).toBe(201);
      expect(await merge({ branch: 'topic' })).toMatchObject({ status: 200, body: { merge_type: 'merge' } });
    });

    it("should refuse conflicts (409) and changes to the fork branch's protected files (403), leaving none of the parent's new commits in the fork", async () => {
      const parent = await createRepo(alice.api, { name: uniqueName('upstream'), auto_init: true });
      const forked = (await fork(bob.api, parent)).body;
      const merge = () => bob.api.post(`/repos/${forked.full_name}/merge-upstream`, { branch: 'main' });
      const inFork = async (sha: string) => (await bob.api.get(`/repos/${forked.full_name}/git/commits/${sha}`)).status;
      const readme = async (as: Api, fullName: string, text: string) => {
        const sha = (await as.get<{ sha: string }>(`/repos/${fullName}/contents/README.md`)).body.sha;
        expect((await as.put(`/repos/${fullName}/contents/README.md`, { content: Buffer.from(text).toString('base64'), sha, message: 'readme' })).status).toBe(200);
      };
      await readme(alice.api, parent.full_name, 'upstream\n');
      await readme(bob.api, forked.full_name, 'fork\n');
      const upstream = await tip(alice.api, parent.full_name);
      expect(await merge()).toMatchObject({ status: 409, body: giteaError('merge failed because of conflict') });
      expect(await inFork(upstream)).toBe(404);

      // Protected files: refused fast-forward and refused merge alike.
      const other = await createRepo(alice.api, { name: uniqueName('upstream'), auto_init: true });
      const guarded = (await fork(bob.api, other)).body;
      expect((await bob.api.post(`/repos/${guarded.full_name}/branch_protections`, { rule_name: 'main', enable_push: true, protected_file_patterns: 'guarded.*' })).status).toBe(201);
      expect((await contents(alice.api, other.full_name, 'guarded.txt', 'no\n')).status).toBe(201);
      const guardedTip = await tip(alice.api, other.full_name);
      const refused = await bob.api.post(`/repos/${guarded.full_name}/merge-upstream`, { branch: 'main' });
      expect(refused).toMatchObject({ status: 403, body: giteaError('Branch main is protected from changing file guarded.txt') });
      expect((await bob.api.get(`/repos/${guarded.full_name}/git/commits/${guardedTip}`)).status).toBe(404);
      expect((await contents(bob.api, guarded.full_name, 'own.txt', 'own\n')).status).toBe(201);
      expect((await bob.api.post(`/repos/${guarded.full_name}/merge-upstream`, { branch: 'main' })).status).toBe(403);
      expect((await bob.api.get(`/repos/${guarded.full_name}/git/commits/${guardedTip}`)).status).toBe(404);

      // Unrelated histories (an orphan branch the parent lacks meets the parent's default branch): 409, not a failure.
      const orphan = git.dir();
      await git.run(['init', '--quiet', '--initial-branch=orphan', orphan]);
      await git.commit(orphan, { 'alone.txt': 'alone\n' }, 'alone');
      await git.run(['push', '--quiet', url(bob, forked.full_name), 'orphan'], { cwd: orphan });
      expect(await bob.api.post(`/repos/${forked.full_name}/merge-upstream`, { branch: 'orphan' })).toMatchObject({ status: 409, body: giteaError('merge failed because of conflict') });
    });

    it('should refuse what is not a fork (400), unknown branches (404), non-writers (403), anonymous callers (401) and a parent the doer can no longer read (403)', async () => {
      const parent = await createRepo(alice.api, { name: uniqueName('upstream'), auto_init: true });
      const forked = (await fork(bob.api, parent)).body;
      const merge = (as: Api, target: string, body: Record<string, unknown> = { branch: 'main' }) => as.post(`/repos/${target}/merge-upstream`, body);
      expect(await merge(alice.api, parent.full_name)).toMatchObject({ status: 400, body: giteaError('repo is not a fork') });
      expect((await merge(bob.api, forked.full_name, { branch: 'nope' })).status).toBe(404);
      expect((await merge(bob.api, forked.full_name, {})).status).toBe(404);
      expect((await merge(bob.api, forked.full_name, { branch: 'main', ff_only: 'yes' })).status).toBe(422);
      expect((await merge(carol.api, forked.full_name)).status).toBe(403);
      expect((await merge(api.anonymous, forked.full_name)).status).toBe(401);
      expect((await alice.api.patch(`/repos/${parent.full_name}`, { private: true })).status).toBe(200);
      expect(await merge(bob.api, forked.full_name)).toMatchObject({ status: 403, body: giteaError(`permission denied to read base repo ${parent.id}`) });
    });
  });

  describe('deleting', () => {
    it('should leave forks standalone and clonable when their parent is deleted', async () => {
      const parent = await createRepo(alice.api, { name: uniqueName('parent'), auto_init: true });
      const child = (await fork(bob.api, parent)).body;
      const sha = await tip(alice.api, parent.full_name);
      expect((await alice.api.delete(`/repos/${parent.full_name}`)).status).toBe(204);
      const detached = (await bob.api.get<Repository>(`/repos/${child.full_name}`)).body;
      expect(detached).toMatchObject({ fork: false });
      expect(detached).not.toHaveProperty('parent');
      const search = await api.anonymous.get<{ data: Repository[] }>(`/repos/search?q=${encodeURIComponent(parent.name)}&mode=source`);
      expect(search.body.data.map((r) => r.id)).toContain(child.id);
      const work = git.dir();
      await git.run(['clone', '--quiet', url(bob, child.full_name), work]);
      expect((await git.run(['rev-parse', 'HEAD'], { cwd: work })).stdout.trim()).toBe(sha);
      expect((await git.run(['fsck', '--no-progress'], { cwd: work })).code).toBe(0);
    });

    it('should count one fork less when a fork is deleted, and leave the parent clonable', async () => {
      const parent = await createRepo(alice.api, { name: uniqueName('parent'), auto_init: true });
      const child = (await fork(bob.api, parent)).body;
      expect((await api.anonymous.get<Repository>(`/repos/${parent.full_name}`)).body.forks_count).toBe(1);
      expect((await bob.api.delete(`/repos/${child.full_name}`)).status).toBe(204);
      expect((await api.anonymous.get<Repository>(`/repos/${parent.full_name}`)).body.forks_count).toBe(0);
      expect((await api.anonymous.get<Repository[]>(`/repos/${parent.full_name}/forks`)).body).toEqual([]);
      const work = git.dir();
      await git.run(['clone', '--quiet', url(alice, parent.full_name), work]);
      expect((await git.run(['fsck', '--no-progress'], { cwd: work })).code).toBe(0);
      // The same owner may fork it again.
      expect((await fork(bob.api, parent)).status).toBe(202);
    });
  });

  describe('webhooks', () => {
    it("should deliver Gitea's fork payload to the forked repository's hooks, and announce an organization's fork as created", async () => {
      const hooked = await createRepo(alice.api, { name: uniqueName('hooked'), auto_init: true });
      const hook = (path: string, events: string[]): CreateHookOption => ({
        type: 'gitea',
        config: { url: receiver.url(path), content_type: 'json' },
        events,
        active: true,
      });
      expect((await alice.api.post(`/repos/${hooked.full_name}/hooks`, hook('/forked', ['fork']))).status).toBe(201);
      expect((await bob.api.post(`/orgs/${bobOrg}/hooks`, hook('/org-created', ['repository']))).status).toBe(201);

      const userFork = (await fork(bob.api, hooked)).body;
      const [d] = await receiver.waitFor('/forked');
      expect(d!.headers['x-gitea-event']).toBe('fork');
      expect(d!.headers['x-gitea-event-type']).toBe('fork');
      const body = JSON.parse(d!.body) as { forkee: Repository; repository: Repository; sender: { login: string } };
      expect(Object.keys(body)).toEqual(['forkee', 'repository', 'sender']);
      // Gitea's order: forkee is the repository forked, repository the new fork.
      expect(body.forkee).toMatchObject({ id: hooked.id, full_name: hooked.full_name, forks_count: 1 });
      expect(body.repository).toMatchObject({ id: userFork.id, fork: true, parent: { id: hooked.id } });
      expect(body.sender.login).toBe(bob.username);

      const orgFork = (await fork(bob.api, hooked, { organization: bobOrg })).body;
      const [created] = await receiver.waitFor('/org-created');
      expect(created!.headers['x-gitea-event']).toBe('repository');
      expect(JSON.parse(created!.body)).toMatchObject({ action: 'created', repository: { id: orgFork.id, fork: true }, organization: { login: bobOrg } });
      const forked = await receiver.waitFor('/forked', 2);
      expect(JSON.parse(forked[1]!.body)).toMatchObject({ forkee: { id: hooked.id }, repository: { id: orgFork.id } });
    });
  });
});
