import type { Activity, Issue, Organization, Repository, Team, TransferRepoOption, User } from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { addToTeam, createOrg, createTeam } from './support/accounts.js';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { GitCli, gitUrl } from './support/git.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { addCollaborator, createIssue, createRepo } from './support/repos.js';

/**
 * Repository transfers (Gitea's `POST /repos/{o}/{r}/transfer`, `…/transfer/accept`,
 * `…/transfer/reject`) and the redirects that keep old names working after a transfer or a
 * rename: Gitea's 301 on every repository route (repo-service's and issue-service's alike; 307 at
 * a renamed owner's old login, as Gitea's RedirectToUser), and
 * smart HTTP clones and pushes at the old URL. A private repository's new place is never told
 * to those who may not see it.
 */
describe.each(layoutsUnderTest())('transfers and redirects (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let git: GitCli;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let aliceOrg: Organization;
  let devs: Team;
  let bobOrg: Organization;

  const transfer = (as: Api, fullName: string, body: TransferRepoOption) => as.post<Repository>(`/repos/${fullName}/transfer`, body);
  const accept = (as: Api, fullName: string) => as.post<Repository>(`/repos/${fullName}/transfer/accept`);
  const reject = (as: Api, fullName: string) => as.post<Repository>(`/repos/${fullName}/transfer/reject`);
  /** A request that does not follow redirects, to see Gitea's 307 itself. */
  const raw = (user: TestUser | null, path: string, method = 'GET') =>
    fetch(`${layout.apiUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: user ? { authorization: `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}` } : {},
    });
  const url = (user: TestUser | null, owner: string, name: string) => gitUrl(layout, owner, name, user ? [user.username, user.password] : null);
  const cloneOf = async (user: TestUser | null, owner: string, name: string) => {
    const dir = git.dir();
    const res = await git.run(['clone', '--quiet', url(user, owner, name), dir], { allowFailure: true });
    return { ...res, dir };
  };

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    git = GitCli.create();
    [alice, bob, carol, dave] = [await createUser(api, 'alice'), await createUser(api, 'bob'), await createUser(api, 'carol'), await createUser(api, 'dave')];
    aliceOrg = await createOrg(alice.api);
    devs = await createTeam(alice.api, aliceOrg.name, { permission: 'write', units: ['repo.code', 'repo.issues'] });
    bobOrg = await createOrg(bob.api);
  });

  afterAll(async () => {
    git?.cleanup();
    await layout?.stop();
  });

  describe('to a user: pending until the recipient answers', () => {
    let repo: Repository;
    let oldName: string;

    beforeAll(async () => {
      repo = await createRepo(alice.api, { private: true, auto_init: true });
      oldName = repo.full_name;
      // carol may read it, so she can try to answer for bob; bob could not see it before the transfer.
      await addCollaborator(alice.api, repo, carol, 'read');
    });

    it('should leave the transfer pending (201) and show it as repo_transfer', async () => {
      expect((await bob.api.get(`/repos/${oldName}`)).status).toBe(404);
      const res = await transfer(alice.api, oldName, { new_owner: bob.username });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        full_name: oldName,
        owner: { login: alice.username },
        repo_transfer: { doer: { login: alice.username }, recipient: { login: bob.username }, teams: [] },
      });
      const got = await alice.api.get<Repository>(`/repos/${oldName}`);
      expect(got.body.repo_transfer).toMatchObject({ doer: { id: alice.id }, recipient: { id: bob.id } });
      // Both as anyone sees them, even to the doer (Gitea's ToRepoTransfer renders them with no viewer).
      expect(got.body.repo_transfer!.doer).toMatchObject({ email: `${alice.id}+${alice.username.toLowerCase()}@noreply.localhost`, active: false, last_login: '0001-01-01T00:00:00Z' });
      // The recipient was given read access so it can answer (Gitea's StartRepositoryTransfer).
      expect((await bob.api.get<Repository>(`/repos/${oldName}`)).body).toMatchObject({ permissions: { admin: false, push: false, pull: true } });
      // Other repositories show none.
      expect((await alice.api.get<Repository>(`/repos/${(await createRepo(alice.api)).full_name}`)).body).not.toHaveProperty('repo_transfer');
    });

    it('should refuse a second transfer while one is pending (409)', async () => {
      const res = await transfer(alice.api, oldName, { new_owner: carol.username });
      expect(res.status).toBe(409);
      expect(res.body).toEqual(giteaError(/already being transferred/));
    });

    it('should let only the recipient answer: 403 for others, 404 for those who cannot see the repository', async () => {
      for (const who of [carol, alice]) {
        expect((await accept(who.api, oldName)).status).toBe(403);
        expect((await reject(who.api, oldName)).status).toBe(403);
      }
      expect((await accept(dave.api, oldName)).status).toBe(404);
      expect((await accept(api.anonymous, oldName)).status).toBe(404);
      expect((await alice.api.get<Repository>(`/repos/${oldName}`)).body.repo_transfer).not.toBeNull();
    });

    it('should keep the repository where it is when the recipient rejects (200)', async () => {
      const res = await reject(bob.api, oldName);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ full_name: oldName });
      expect(res.body).not.toHaveProperty('repo_transfer');
      expect((await accept(bob.api, oldName)).status).toBe(404);
      expect((await reject(bob.api, oldName)).body).toEqual(giteaError(/doesn't have a pending transfer/));
    });

    it('should move the repository when the recipient accepts (202)', async () => {
      expect((await transfer(alice.api, oldName, { new_owner: bob.username })).status).toBe(201);
      const res = await accept(bob.api, oldName);
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ id: repo.id, full_name: `${bob.username}/${repo.name}`, owner: { login: bob.username }, private: true });
      expect(res.body).not.toHaveProperty('repo_transfer');
      expect(res.body.permissions).toMatchObject({ admin: true, push: true, pull: true });
      // The new owner is no collaborator any more; the others stay.
      const collaborators = await bob.api.get<User[]>(`/repos/${bob.username}/${repo.name}/collaborators`);
      expect(collaborators.body.map((c) => c.login)).toEqual([carol.username]);
      // alice no longer owns it: it is bob's private repository now.
      expect((await alice.api.get(`/repos/${bob.username}/${repo.name}`)).status).toBe(404);
      expect((await bob.api.get<Repository[]>(`/users/${bob.username}/repos`)).body.map((r) => r.id)).toContain(repo.id);
    });

    it('should answer the old name with a 301 to the new one (Gitea RedirectToRepo), to those who may see it only', async () => {
      const moved = await raw(bob, `/repos/${oldName}?foo=bar`);
      expect(moved.status).toBe(301);
      expect(moved.headers.get('location')).toBe(`/api/v1/repos/${bob.username}/${repo.name}?foo=bar`);
      expect((await raw(carol, `/repos/${oldName}`)).status).toBe(301);
      // Those who cannot see the repository where it is now learn nothing.
      for (const who of [dave, alice, null]) {
        const res = await raw(who, `/repos/${oldName}`);
        expect(res.status).toBe(404);
        expect(res.headers.get('location')).toBeNull();
      }
      // A client that follows redirects gets the repository.
      expect((await bob.api.get<Repository>(`/repos/${oldName}`)).body).toMatchObject({ id: repo.id, full_name: `${bob.username}/${repo.name}` });
    });

    it('should be cloned at the new name and at the old one, and pushed to at the old one', async () => {
      const fresh = await cloneOf(bob, bob.username, repo.name);
      expect(fresh.code).toBe(0);
      const old = await cloneOf(bob, alice.username, repo.name);
      expect(old.code).toBe(0);
      expect((await git.run(['log', '--format=%s'], { cwd: old.dir })).stdout.trim()).toBe('Initial commit');
      const pushed = await git.commit(old.dir, { 'more.txt': 'more\n' }, 'pushed to the old URL');
      await git.run(['push', '--quiet', 'origin', 'main'], { cwd: old.dir });
      expect((await bob.api.get<{ commit: { id: string } }>(`/repos/${bob.username}/${repo.name}/branches/main`)).body.commit.id).toBe(pushed);
      // No leak over git either: the old name of a private repository is a name that does not exist.
      const stranger = await cloneOf(dave, alice.username, repo.name);
      expect(stranger.code).not.toBe(0);
      expect(stranger.stderr).not.toContain(bob.username);
      const anonymous = await cloneOf(null, alice.username, repo.name);
      expect(anonymous.code).not.toBe(0);
      expect(anonymous.stderr).not.toContain(bob.username);
    });

    it('should not keep a repository waiting for a recipient whose account was deleted since', async () => {
      const stuck = await createRepo(alice.api);
      const frank = await createUser(api, 'frank');
      expect((await transfer(alice.api, stuck.full_name, { new_owner: frank.username })).status).toBe(201);
      expect((await api.admin.delete(`/admin/users/${frank.username}`)).status).toBe(204);
      // Nobody can answer that transfer any more: it is gone, not a 409 for ever.
      expect((await reject(alice.api, stuck.full_name)).body).toEqual(giteaError(/doesn't have a pending transfer/));
      const again = await transfer(alice.api, stuck.full_name, { new_owner: bob.username });
      expect(again.status).toBe(201);
      expect(again.body.repo_transfer).toMatchObject({ recipient: { login: bob.username } });
      expect((await reject(bob.api, stuck.full_name)).status).toBe(200);
    });

    it('should record transfer_repo with the old full name in the feed', async () => {
      await expectEventually(async () => {
        const feed = await bob.api.get<Activity[]>(`/users/${bob.username}/activities/feeds?only-performed-by=true`);
        expect(feed.body).toEqual(expect.arrayContaining([expect.objectContaining({ op_type: 'transfer_repo', repo_id: repo.id, content: oldName })]));
      });
    });
  });

  describe('to an organization the doer may create repositories in: at once', () => {
    it('should complete at once (202) and link the teams named', async () => {
      const repo = await createRepo(alice.api, { auto_init: true });
      const res = await transfer(alice.api, repo.full_name, { new_owner: aliceOrg.name, team_ids: [devs.id] });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ id: repo.id, full_name: `${aliceOrg.name}/${repo.name}` });
      expect(res.body).not.toHaveProperty('repo_transfer');
      const teams = await alice.api.get<Team[]>(`/repos/${aliceOrg.name}/${repo.name}/teams`);
      expect(teams.body.map((t) => t.id)).toContain(devs.id);
      // The team's members reach it through the team.
      await addToTeam(alice.api, devs.id, dave);
      expect((await dave.api.get<Repository>(`/repos/${aliceOrg.name}/${repo.name}`)).body.permissions).toMatchObject({ push: true, admin: false });
      // And back to alice (the doer transferring to itself is immediate): the team links go with the organization.
      const back = await transfer(alice.api, `${aliceOrg.name}/${repo.name}`, { new_owner: alice.username });
      expect(back.status).toBe(202);
      expect(back.body.full_name).toBe(repo.full_name);
      expect((await dave.api.get(`/repos/${repo.full_name}`)).status).toBe(200);
      expect((await dave.api.get<Repository>(`/repos/${repo.full_name}`)).body.permissions).toMatchObject({ push: false });
      // The old organization name redirects to the repository again at alice's.
      expect((await raw(alice, `/repos/${aliceOrg.name}/${repo.name}`)).headers.get('location')).toBe(`/api/v1/repos/${repo.full_name}`);
      // The name at alice's is the repository's own again: no redirect there.
      expect((await raw(alice, `/repos/${repo.full_name}`)).status).toBe(200);
    });

    it("should take the old organization's labels off the issues of a repository that leaves it", async () => {
      const repo = await createRepo(alice.api, {}, aliceOrg.name);
      const orgLabel = await alice.api.post<{ id: number }>(`/orgs/${aliceOrg.name}/labels`, { name: uniqueName('org'), color: '#00aabb' });
      const repoLabel = await alice.api.post<{ id: number }>(`/repos/${repo.full_name}/labels`, { name: uniqueName('own'), color: '#112233' });
      expect([orgLabel.status, repoLabel.status]).toEqual([201, 201]);
      const issue = await createIssue(alice.api, repo, { labels: [orgLabel.body.id, repoLabel.body.id] });
      expect(issue.labels.map((l) => l.id).sort()).toEqual([orgLabel.body.id, repoLabel.body.id].sort());
      const moved = await transfer(alice.api, repo.full_name, { new_owner: alice.username });
      expect(moved.status).toBe(202);
      await expectEventually(async () => {
        const labels = await alice.api.get<Array<{ id: number }>>(`/repos/${moved.body.full_name}/issues/${issue.number}/labels`);
        expect(labels.body.map((l) => l.id)).toEqual([repoLabel.body.id]);
      });
    });

    it('should check team_ids as Gitea does: 422 for a user target or an unknown team, 403 for another organization', async () => {
      const repo = await createRepo(alice.api);
      const onUser = await transfer(alice.api, repo.full_name, { new_owner: bob.username, team_ids: [devs.id] });
      expect(onUser.status).toBe(422);
      expect(onUser.body).toEqual(giteaError('Teams can only be added to organization-owned repositories'));
      expect((await transfer(alice.api, repo.full_name, { new_owner: aliceOrg.name, team_ids: [987654321] })).body).toEqual(giteaError('team 987654321 not found'));
      const bobTeam = await createTeam(bob.api, bobOrg.name);
      const foreign = await transfer(alice.api, repo.full_name, { new_owner: aliceOrg.name, team_ids: [bobTeam.id] });
      expect(foreign.status).toBe(403);
      expect(foreign.body).toEqual(giteaError(`team ${bobTeam.id} belongs not to org ${aliceOrg.id}`));
      expect((await alice.api.get<Repository>(`/repos/${repo.full_name}`)).body).not.toHaveProperty('repo_transfer');
    });

    it('should answer an id no row can have in team_ids as an unknown team (422, never 500)', async () => {
      const repo = await createRepo(alice.api);
      for (const id of [2147483648, -2147483649]) {
        const res = await transfer(alice.api, repo.full_name, { new_owner: aliceOrg.name, team_ids: [devs.id, id] });
        expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: giteaError(`team ${id} not found`) });
      }
      expect((await alice.api.get<Repository>(`/repos/${repo.full_name}`)).body).not.toHaveProperty('repo_transfer');
    });

    it('should leave a transfer to an organization pending when the doer may not create repositories there', async () => {
      const repo = await createRepo(carol.api);
      const res = await transfer(carol.api, repo.full_name, { new_owner: aliceOrg.name, team_ids: [devs.id] });
      expect(res.status).toBe(201);
      expect(res.body.repo_transfer).toMatchObject({ recipient: { login: aliceOrg.name }, teams: [{ id: devs.id }] });
      // dave is in a team that may not create repositories: not his to answer.
      expect((await accept(dave.api, repo.full_name)).status).toBe(403);
      const accepted = await accept(alice.api, repo.full_name);
      expect(accepted.status).toBe(202);
      expect(accepted.body.full_name).toBe(`${aliceOrg.name}/${repo.name}`);
      expect((await alice.api.get<Team[]>(`/repos/${aliceOrg.name}/${repo.name}/teams`)).body.map((t) => t.id)).toContain(devs.id);
    });
  });

  describe('watches (Gitea transferOwnership)', () => {
    const watching = async (who: TestUser, fullName: string) => (await who.api.get(`/repos/${fullName}/subscription`)).status === 200;

    it('should make the doer watch the repository it transferred, even when the recipient accepted', async () => {
      const repo = await createRepo(carol.api);
      expect((await carol.api.delete(`/repos/${repo.full_name}/subscription`)).status).toBe(204);
      expect(await watching(carol, repo.full_name)).toBe(false);
      expect((await transfer(carol.api, repo.full_name, { new_owner: dave.username })).status).toBe(201);
      expect((await accept(dave.api, repo.full_name)).status).toBe(202);
      const moved = `${dave.username}/${repo.name}`;
      // carol started it, so carol watches; dave, who accepted, does not.
      expect(await watching(carol, moved)).toBe(true);
      expect(await watching(dave, moved)).toBe(false);
      const counted = await dave.api.get<Repository>(`/repos/${moved}`);
      expect(counted.body.watchers_count).toBe(1);
    });

    it('should make the doer of a direct transfer watch the repository, and leave the other watchers be', async () => {
      const repo = await createRepo(alice.api);
      expect((await alice.api.delete(`/repos/${repo.full_name}/subscription`)).status).toBe(204);
      expect((await bob.api.put(`/repos/${repo.full_name}/subscription`)).status).toBe(200);
      const res = await transfer(alice.api, repo.full_name, { new_owner: aliceOrg.name });
      expect(res.status).toBe(202);
      expect(res.body.watchers_count).toBe(2);
      expect(await watching(alice, res.body.full_name)).toBe(true);
      expect(await watching(bob, res.body.full_name)).toBe(true);
    });
  });

  describe('errors and permissions', () => {
    let repo: Repository;

    beforeAll(async () => {
      repo = await createRepo(alice.api);
      await addCollaborator(alice.api, repo, carol, 'admin');
    });

    it('should answer 404 for an unknown new owner', async () => {
      const res = await transfer(alice.api, repo.full_name, { new_owner: uniqueName('nobody') });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(giteaError('The new owner does not exist or cannot be found'));
    });

    it('should hide a private organization from non-members (404)', async () => {
      const hidden = await createOrg(bob.api, { visibility: 'private' });
      expect((await transfer(alice.api, repo.full_name, { new_owner: hidden.name })).status).toBe(404);
    });

    it('should answer 422 when the new owner has a repository of that name', async () => {
      await createRepo(bob.api, { name: repo.name });
      const res = await transfer(alice.api, repo.full_name, { new_owner: bob.username });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(giteaError(`repository already exists [uname: ${bob.username.toLowerCase()}, name: ${repo.name}]`));
    });

    it('should let only the owner transfer: 403 for an admin collaborator, 401 anonymous, 422 without new_owner', async () => {
      const byAdmin = await transfer(carol.api, repo.full_name, { new_owner: carol.username });
      expect(byAdmin.status).toBe(403);
      expect(byAdmin.body).toEqual(giteaError('user should be the owner of the repo'));
      expect((await transfer(api.anonymous, repo.full_name, { new_owner: carol.username })).status).toBe(401);
      expect((await alice.api.post(`/repos/${repo.full_name}/transfer`, {})).status).toBe(422);
      expect((await transfer(alice.api, `${alice.username}/${uniqueName('none')}`, { new_owner: bob.username })).status).toBe(404);
    });
  });

  describe('redirects after a rename', () => {
    let repo: Repository;
    let issue: Issue;
    let newName: string;

    beforeAll(async () => {
      repo = await createRepo(alice.api, { auto_init: true });
      issue = await createIssue(alice.api, repo);
      newName = uniqueName('renamed');
      const res = await alice.api.patch<Repository>(`/repos/${repo.full_name}`, { name: newName });
      expect(res.status).toBe(200);
    });

    it('should answer every repository route at the old name with a 301 that keeps the rest of the path and the query', async () => {
      const cases: Array<[string, string]> = [
        [`/repos/${repo.full_name}`, `/api/v1/repos/${alice.username}/${newName}`],
        [`/repos/${repo.full_name}/issues?state=all&limit=5`, `/api/v1/repos/${alice.username}/${newName}/issues?state=all&limit=5`],
        [`/repos/${repo.full_name}/contents/README.md?ref=main`, `/api/v1/repos/${alice.username}/${newName}/contents/README.md?ref=main`],
        [`/repos/${repo.full_name}/issues/${issue.number}/comments`, `/api/v1/repos/${alice.username}/${newName}/issues/${issue.number}/comments`],
      ];
      for (const who of [alice, dave, null]) {
        for (const [path, location] of cases) {
          const res = await raw(who, path);
          expect({ path, status: res.status, location: res.headers.get('location') }).toEqual({ path, status: 301, location });
        }
      }
    });

    it('should redirect attachment uploads (streamed to issue-service) at the old name too', async () => {
      const form = new FormData();
      form.append('attachment', new Blob(['notes']), 'notes.txt');
      const res = await fetch(`${layout.apiUrl}/repos/${repo.full_name}/issues/${issue.number}/assets?name=n.txt`, {
        method: 'POST',
        body: form,
        redirect: 'manual',
        headers: { authorization: `Basic ${Buffer.from(`${alice.username}:${alice.password}`).toString('base64')}` },
      });
      expect(res.status).toBe(301);
      expect(res.headers.get('location')).toBe(`/api/v1/repos/${alice.username}/${newName}/issues/${issue.number}/assets?name=n.txt`);
      // Nothing was stored at the old name.
      expect((await alice.api.get<unknown[]>(`/repos/${alice.username}/${newName}/issues/${issue.number}/assets`)).body).toEqual([]);
    });

    it('should redirect release asset downloads and archives (streamed to repo-service) at the old name too', async () => {
      const now = `${alice.username}/${newName}`;
      const tag = uniqueName('v');
      const release = await alice.api.post<{ id: number }>(`/repos/${now}/releases`, { tag_name: tag, name: tag });
      expect(release.status).toBe(201);
      const form = new FormData();
      form.append('attachment', new Blob(['asset bytes']), 'a.txt');
      const asset = await fetch(`${layout.apiUrl}/repos/${now}/releases/${release.body.id}/assets?name=a.txt`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Basic ${Buffer.from(`${alice.username}:${alice.password}`).toString('base64')}` },
      });
      expect(asset.status).toBe(201);
      const at = (who: TestUser | null, path: string) =>
        fetch(`${layout.rootUrl}${path.slice(1)}`, {
          redirect: 'manual',
          headers: who ? { authorization: `Basic ${Buffer.from(`${who.username}:${who.password}`).toString('base64')}` } : {},
        });
      const cases: Array<[string, string]> = [
        [`/${repo.full_name}/releases/download/${tag}/a.txt`, `/${now}/releases/download/${tag}/a.txt`],
        [`/${repo.full_name}/archive/main.zip`, `/${now}/archive/main.zip`],
        [`/api/v1/repos/${repo.full_name}/archive/main.tar.gz?path=README.md`, `/api/v1/repos/${now}/archive/main.tar.gz?path=README.md`],
      ];
      for (const who of [alice, dave, null]) {
        for (const [path, location] of cases) {
          const res = await at(who, path);
          expect({ path, status: res.status, location: res.headers.get('location') }).toEqual({ path, status: 301, location });
        }
      }
      // A client that follows gets the file; a name that never was a repository's is still a 404.
      const followed = await fetch(`${layout.rootUrl}${repo.full_name}/releases/download/${tag}/a.txt`);
      expect({ status: followed.status, body: await followed.text() }).toEqual({ status: 200, body: 'asset bytes' });
      expect((await at(dave, `/${alice.username}/${uniqueName('none')}/archive/main.zip`)).status).toBe(404);
    });

    it('should serve what the new name serves to a client that follows', async () => {
      expect((await dave.api.get<Issue[]>(`/repos/${repo.full_name}/issues?state=all`)).body.map((i) => i.id)).toEqual([issue.id]);
      expect((await dave.api.get<{ name: string }>(`/repos/${repo.full_name}/contents/README.md`)).body).toMatchObject({ name: 'README.md' });
      expect((await dave.api.get<Repository>(`/repos/${repo.full_name}`)).body).toMatchObject({ id: repo.id, name: newName });
    });

    it('should be cloned at the old URL', async () => {
      const old = { dir: git.dir() };
      const res = await git.run(['clone', url(null, alice.username, repo.name), old.dir]);
      // git says where it was sent, and has the repository's history.
      expect(res.stderr).toContain(`redirecting to ${layout.rootUrl}${alice.username}/${newName}.git/`);
      const tip = (await alice.api.get<{ commit: { id: string } }>(`/repos/${alice.username}/${newName}/branches/main`)).body.commit.id;
      expect((await git.run(['rev-parse', 'HEAD'], { cwd: old.dir })).stdout.trim()).toBe(tip);
    });

    it('should end the redirect when a new repository takes the old name', async () => {
      const again = await createRepo(alice.api, { name: repo.name });
      expect(again.id).not.toBe(repo.id);
      expect((await raw(alice, `/repos/${repo.full_name}`)).status).toBe(200);
      expect((await alice.api.get<Repository>(`/repos/${repo.full_name}`)).body.id).toBe(again.id);
      expect((await alice.api.get<Repository>(`/repos/${alice.username}/${newName}`)).body.id).toBe(repo.id);
    });

    it('should not tell outsiders where a private repository went', async () => {
      const secret = await createRepo(alice.api, { private: true, auto_init: true });
      await addCollaborator(alice.api, secret, carol, 'read');
      const renamed = uniqueName('hidden');
      expect((await alice.api.patch(`/repos/${secret.full_name}`, { name: renamed })).status).toBe(200);
      expect((await raw(carol, `/repos/${secret.full_name}/issues`)).headers.get('location')).toBe(`/api/v1/repos/${alice.username}/${renamed}/issues`);
      for (const who of [dave, null]) {
        for (const path of [`/repos/${secret.full_name}`, `/repos/${secret.full_name}/issues`, `/repos/${secret.full_name}/contents/README.md`]) {
          const res = await raw(who, path);
          expect({ path, status: res.status, location: res.headers.get('location') }).toEqual({ path, status: 404, location: null });
        }
      }
      expect((await cloneOf(carol, alice.username, secret.name)).code).toBe(0);
      const stranger = await cloneOf(dave, alice.username, secret.name);
      expect(stranger.code).not.toBe(0);
      expect(stranger.stderr).not.toContain(renamed);
    });
  });

  describe('redirects after an owner rename (Gitea user_redirect)', () => {
    it('should send repository routes and clones at the old login to the new one, hiding private repositories', async () => {
      const eve = await createUser(api, 'eve');
      const open = await createRepo(eve.api, { auto_init: true });
      const hidden = await createRepo(eve.api, { private: true, auto_init: true });
      const oldLogin = eve.username;
      const newLogin = uniqueName('eve');
      expect((await api.admin.post(`/admin/users/${oldLogin}/rename`, { new_username: newLogin })).status).toBe(204);
      const renamed: TestUser = { ...eve, username: newLogin, api: api.asUser(newLogin, eve.password) };

      for (const who of [dave, null]) {
        const res = await raw(who, `/repos/${oldLogin}/${open.name}/issues?state=all`);
        expect({ status: res.status, location: res.headers.get('location') }).toEqual({ status: 307, location: `/api/v1/repos/${newLogin}/${open.name}/issues?state=all` });
        const secret = await raw(who, `/repos/${oldLogin}/${hidden.name}`);
        expect({ status: secret.status, location: secret.headers.get('location') }).toEqual({ status: 404, location: null });
      }
      expect((await raw(renamed, `/repos/${oldLogin}/${hidden.name}`)).headers.get('location')).toBe(`/api/v1/repos/${newLogin}/${hidden.name}`);
      // An unknown repository under the old login is still a 404.
      expect((await raw(dave, `/repos/${oldLogin}/${uniqueName('none')}`)).status).toBe(404);

      expect((await cloneOf(null, oldLogin, open.name)).code).toBe(0);
      expect((await cloneOf(renamed, oldLogin, hidden.name)).code).toBe(0);
      const stranger = await cloneOf(dave, oldLogin, hidden.name);
      expect(stranger.code).not.toBe(0);
      expect(stranger.stderr).not.toContain(newLogin);
    });

    it('should redirect the old name of a renamed organization', async () => {
      const org = await createOrg(alice.api);
      const repo = await createRepo(alice.api, {}, org.name);
      const next = uniqueName('org');
      expect((await alice.api.post(`/orgs/${org.name}/rename`, { new_name: next })).status).toBe(204);
      expect((await raw(dave, `/repos/${org.name}/${repo.name}`)).headers.get('location')).toBe(`/api/v1/repos/${next}/${repo.name}`);
      // A new account taking the old name ends the redirect.
      const again = await createOrg(bob.api, { username: org.name });
      expect((await raw(dave, `/repos/${again.name}/${repo.name}`)).status).toBe(404);
      // For good (Gitea's CreateOrganization deletes the user redirect): not back once that account goes.
      expect((await bob.api.delete(`/orgs/${again.name}`)).status).toBe(204);
      const gone = await raw(dave, `/repos/${again.name}/${repo.name}`);
      expect({ status: gone.status, location: gone.headers.get('location') }).toEqual({ status: 404, location: null });
    });
      it('should answer /users routes at the old login of a renamed user with a 307 to the new one (Gitea RedirectToUser)', async () => {
      const fay = await createUser(api, 'fay');
      await createRepo(fay.api);
      const oldLogin = fay.username;
      const newLogin = uniqueName('fay');
      expect((await api.admin.post(`/admin/users/${oldLogin}/rename`, { new_username: newLogin })).status).toBe(204);
      const paths = (login: string) => [`/users/${login}`, `/users/${login}/repos?limit=5&page=1`, `/users/${login}/activities/feeds`];
      const to = paths(newLogin);
      for (const who of [dave, null]) {
        for (const [i, path] of paths(oldLogin).entries()) {
          const res = await raw(who, path);
          expect({ path, status: res.status, location: res.headers.get('location') }).toEqual({ path, status: 307, location: `/api/v1${to[i]}` });
        }
      }
      // Routes that ask for a signed-in caller first, then the redirect.
      for (const rest of ['followers', 'orgs', 'starred', 'subscriptions', 'keys']) {
        expect((await raw(null, `/users/${oldLogin}/${rest}`)).status).toBe(401);
        expect((await raw(dave, `/users/${oldLogin}/${rest}`)).headers.get('location')).toBe(`/api/v1/users/${newLogin}/${rest}`);
      }
      // Following by the old login (Gitea assigns /user/following/{username} from the path too); nothing is followed at the old name.
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await raw(dave, `/user/following/${oldLogin}`, method);
        expect({ method, status: res.status, location: res.headers.get('location') }).toEqual({ method, status: 307, location: `/api/v1/user/following/${newLogin}` });
      }
      expect((await raw(dave, `/users/${dave.username}/following/${oldLogin}`)).status).toBe(404);
      // A client that follows gets the user at the new login.
      const followed = await dave.api.get<User>(`/users/${oldLogin}`);
      expect({ status: followed.status, login: followed.body.login }).toEqual({ status: 200, login: newLogin });
      // A login that never was one is still a 404.
      const unknown = await raw(dave, `/users/${uniqueName('nobody')}`);
      expect({ status: unknown.status, location: unknown.headers.get('location') }).toEqual({ status: 404, location: null });
    });

    it("should answer /orgs routes at a renamed organization's old name with a 307, and a private one's with a 404 to outsiders", async () => {
      const org = await createOrg(alice.api);
      await createRepo(alice.api, {}, org.name);
      const next = uniqueName('org');
      expect((await alice.api.post(`/orgs/${org.name}/rename`, { new_name: next })).status).toBe(204);
      for (const [who, path] of [
        [dave, `/orgs/${org.name}`],
        [null, `/orgs/${org.name}/repos?page=1`],
        [alice, `/orgs/${org.name}/teams`],
        // issue-service's and webhook-worker's organization routes too.
        [dave, `/orgs/${org.name}/labels`],
        [null, `/orgs/${org.name}/activities/feeds`],
        // admin-service's organization hooks.
        [alice, `/orgs/${org.name}/hooks`],
      ] as const) {
        const res = await raw(who, path);
        expect({ status: res.status, location: res.headers.get('location') }).toEqual({ status: 307, location: `/api/v1${path.replace(org.name, next)}` });
      }

      const secret = await createOrg(alice.api, { visibility: 'private' });
      const hiddenName = uniqueName('org');
      expect((await alice.api.post(`/orgs/${secret.name}/rename`, { new_name: hiddenName })).status).toBe(204);
      for (const who of [dave, null]) {
        for (const path of [`/orgs/${secret.name}`, `/orgs/${secret.name}/repos`, `/orgs/${secret.name}/labels`, `/orgs/${secret.name}/activities/feeds`]) {
          const res = await raw(who, path);
          expect({ path, status: res.status, location: res.headers.get('location') }).toEqual({ path, status: 404, location: null });
        }
      }
      expect((await raw(alice, `/orgs/${secret.name}/repos`)).headers.get('location')).toBe(`/api/v1/orgs/${hiddenName}/repos`);
    });
  });
});
