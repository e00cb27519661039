import type {
  AccessToken,
  CurrentAccessToken,
  CreateOrgOption,
  CreateRepoOption,
  Organization,
  OrganizationPermissions,
  RenameOrgOption,
  RenameUserOption,
  Repository,
  ServerVersion,
  Team,
  User,
} from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { addToTeam, createOrg, createTeam, tokenApi } from './support/accounts.js';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';

/**
 * Accounts as Gitea's routers/api/v1/{admin,org,user,repo} answer them: the admin user and
 * organization routes, renames, token management order, public-only tokens, repository teams,
 * organization permissions and the owner as a repository shows it.
 */
describe.each(layoutsUnderTest())('accounts through the gateway (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    layout = await Layout.start(kind, { env: { GITFORGE_AUTH_CACHE_TTL_MS: '200' } });
    api = new Api(layout);
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
  });

  afterAll(async () => {
    await layout?.stop();
  });

  describe('GET /version', () => {
    it('should answer any token, whatever its scopes (Gitea requires none here)', async () => {
      const token = await tokenApi(alice, ['read:repository']);
      const res = await token.get<ServerVersion>('/version');
      expect(res.status).toBe(200);
      expect(res.body.version).toEqual(expect.any(String));
    });
  });

  describe('GET /admin/users', () => {
    let zed: TestUser;
    let hidden: TestUser;

    beforeAll(async () => {
      zed = await createUser(api, 'zzsearch', { full_name: 'Zed Searchable', visibility: 'limited' });
      hidden = await createUser(api, 'zzsearch', { visibility: 'private' });
      await api.admin.patch(`/admin/users/${hidden.username}`, { login_name: 'ext-login', prohibit_login: true });
    });

    it('should list individuals of every visibility by name, with paging headers', async () => {
      const res = await api.admin.get<User[]>('/admin/users?q=zzsearch');
      expect(res.status).toBe(200);
      expect(res.body.map((u) => u.login)).toEqual([zed.username, hidden.username].sort());
      expect(res.headers.get('x-total-count')).toBe('2');
      // Site admins see the private fields.
      expect(res.body.find((u) => u.login === zed.username)).toMatchObject({ active: true, visibility: 'limited', email: zed.email });
      const paged = await api.admin.get<User[]>('/admin/users?q=zzsearch&limit=1');
      expect(paged.body).toHaveLength(1);
      expect(paged.headers.get('link')).toContain('rel="next"');
    });

    it('should leave organizations out', async () => {
      const org = await createOrg(alice.api);
      const res = await api.admin.get<User[]>(`/admin/users?q=${org.name}`);
      expect(res.body).toEqual([]);
    });

    it('should filter by login name, visibility and flags, and sort on request', async () => {
      expect((await api.admin.get<User[]>('/admin/users?login_name=ext-login')).body.map((u) => u.login)).toEqual([hidden.username]);
      expect((await api.admin.get<User[]>('/admin/users?q=zzsearch&visibility=private')).body.map((u) => u.login)).toEqual([hidden.username]);
      expect((await api.admin.get<User[]>('/admin/users?q=zzsearch&is_prohibit_login=true')).body.map((u) => u.login)).toEqual([hidden.username]);
      expect((await api.admin.get<User[]>('/admin/users?q=zzsearch&is_2fa_enabled=true')).body).toEqual([]);
      const newest = await api.admin.get<User[]>('/admin/users?q=zzsearch&sort=id&order=desc');
      expect(newest.body.map((u) => u.login)).toEqual([hidden.username, zed.username]);
    });

    it('should answer 422 for an unknown sort, 403 for non-admins and 401 anonymously', async () => {
      expect(await api.admin.get('/admin/users?sort=alpha')).toMatchObject({ status: 422, body: giteaError('Invalid sort mode: "alpha"') });
      expect(await api.admin.get('/admin/users?sort=id&order=sideways')).toMatchObject({ status: 422, body: giteaError('Invalid sort order: "sideways"') });
      // Without a sort, the order is no concern (Gitea's ResolveSortOrder).
      expect((await api.admin.get('/admin/users?order=sideways')).status).toBe(200);
      expect(await api.admin.get('/admin/users?visibility=bogus')).toMatchObject({ status: 422, body: giteaError('invalid visibility') });
      expect((await alice.api.get('/admin/users')).body).toEqual(giteaError('user should be the site admin'));
      expect((await api.anonymous.get('/admin/users')).status).toBe(401);
    });
  });

  describe('admin user validation', () => {
    it('should refuse unknown login sources and invalid e-mail addresses (422)', async () => {
      const username = uniqueName('val');
      const source = await api.admin.post('/admin/users', { username, email: `${username}@example.com`, password: 'password-1', source_id: 7 });
      expect(source.status).toBe(422);
      expect(source.body).toEqual(giteaError('login source does not exist [id: 7]'));
      const email = await api.admin.post('/admin/users', { username, email: '-dash@example.com', password: 'password-1' });
      expect(email.status).toBe(422);
    });
  });

  describe('POST /admin/users/{username}/repos', () => {
    it('should create a repository for another user, who owns it (201)', async () => {
      const name = uniqueName('given');
      const res = await api.admin.post<Repository>(`/admin/users/${bob.username}/repos`, { name, private: true } satisfies CreateRepoOption);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name, full_name: `${bob.username}/${name}`, private: true, owner: { login: bob.username } });
      expect(res.body.permissions).toEqual({ admin: true, push: true, pull: true });
      expect((await bob.api.get<Repository>(`/repos/${bob.username}/${name}`)).body.permissions).toEqual({ admin: true, push: true, pull: true });
    });

    it('should create one for an organization too', async () => {
      const org = await createOrg(alice.api);
      const res = await api.admin.post<Repository>(`/admin/users/${org.name}/repos`, { name: uniqueName('r') });
      expect(res.status).toBe(201);
      expect(res.body.owner.login).toBe(org.name);
    });

    it('should answer 404 for unknown users, 409 for a taken name and 403 for non-admins', async () => {
      expect((await api.admin.post('/admin/users/no-such-user-here/repos', { name: 'x' })).status).toBe(404);
      const name = uniqueName('dup');
      expect((await api.admin.post(`/admin/users/${bob.username}/repos`, { name })).status).toBe(201);
      const dup = await api.admin.post(`/admin/users/${bob.username}/repos`, { name });
      expect(dup.status).toBe(409);
      expect(dup.body).toEqual(giteaError('The repository with the same name already exists.'));
      expect((await alice.api.post(`/admin/users/${bob.username}/repos`, { name: 'x' })).status).toBe(403);
      expect((await api.admin.post(`/admin/users/${bob.username}/repos`, {})).body).toEqual(giteaError('[Name]: Required'));
    });
  });

  describe('POST /admin/users/{username}/orgs and GET /admin/orgs', () => {
    it('should create an organization owned by the user (201), ignoring the e-mail as Gitea does', async () => {
      const name = uniqueName('given');
      const res = await api.admin.post<Organization>(`/admin/users/${bob.username}/orgs`, {
        username: name,
        full_name: 'Given Org',
        email: 'ignored@example.com',
        visibility: 'private',
      } satisfies CreateOrgOption);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name, full_name: 'Given Org', email: '', visibility: 'private' });
      expect((await bob.api.get<OrganizationPermissions>(`/users/${bob.username}/orgs/${name}/permissions`)).body.is_owner).toBe(true);
      expect((await api.admin.get<Organization[]>(`/admin/users/${bob.username}/orgs`)).body.map((o) => o.name)).toContain(name);
    });

    it('should refuse taken names (422), unknown users (404) and non-admins (403)', async () => {
      const org = await createOrg(alice.api);
      const taken = await api.admin.post(`/admin/users/${bob.username}/orgs`, { username: org.name });
      expect(taken.status).toBe(422);
      expect(taken.body).toEqual(giteaError(`user already exists [name: ${org.name}]`));
      expect((await api.admin.post('/admin/users/no-such-user-here/orgs', { username: uniqueName('o') })).status).toBe(404);
      expect((await alice.api.post(`/admin/users/${bob.username}/orgs`, { username: uniqueName('o') })).status).toBe(403);
    });

    it('should list every organization, private ones included, by name', async () => {
      const hidden = await createOrg(alice.api, { visibility: 'private' });
      const res = await api.admin.get<Organization[]>('/admin/orgs?limit=50');
      expect(res.status).toBe(200);
      const names = res.body.map((o) => o.name);
      expect(names).toContain(hidden.name);
      expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      expect(Number(res.headers.get('x-total-count'))).toBeGreaterThanOrEqual(1);
      expect((await alice.api.get('/admin/orgs')).status).toBe(403);
    });
  });

  describe('renames', () => {
    it('should rename a user (204); its repositories follow', async () => {
      const cat = await createUser(api, 'cat');
      await cat.api.post('/user/repos', { name: 'kept' });
      const next = uniqueName('renamed');
      const res = await api.admin.post(`/admin/users/${cat.username}/rename`, { new_username: next } satisfies RenameUserOption);
      expect(res.status).toBe(204);
      expect((await api.admin.get<User>(`/users/${next}`)).body.login).toBe(next);
      // The old login redirects to the new one (Gitea's RedirectToUser; the client follows the 307).
      expect((await api.admin.get<User>(`/users/${cat.username}`)).body.login).toBe(next);
      const repo = await api.admin.get<Repository>(`/repos/${next}/kept`);
      expect(repo.body.full_name).toBe(`${next}/kept`);
    });

    it('should refuse taken and reserved names (422) and organizations', async () => {
      const dan = await createUser(api, 'dan');
      const taken = await api.admin.post(`/admin/users/${dan.username}/rename`, { new_username: bob.username.toUpperCase() });
      expect(taken.status).toBe(422);
      // Gitea's admin RenameUser answers the error's own words.
      expect(taken.body).toEqual(giteaError(`user already exists [name: ${bob.username.toUpperCase()}]`));
      expect(await api.admin.post(`/admin/users/${dan.username}/rename`, { new_username: 'admin' })).toMatchObject({ status: 422, body: giteaError('name is reserved [name: admin]') });
      expect(await api.admin.post(`/admin/users/${dan.username}/rename`, { new_username: 'bad name' })).toMatchObject({
        status: 422,
        body: giteaError('name is invalid [bad name]: must be valid alpha or numeric or dash(-_) or dot characters'),
      });
      expect((await api.admin.post(`/admin/users/${dan.username}/rename`, {})).status).toBe(422);
      const org = await createOrg(alice.api);
      expect((await api.admin.post(`/admin/users/${org.name}/rename`, { new_username: uniqueName('x') })).body).toEqual(
        giteaError('target is an organization but not user'),
      );
      expect((await alice.api.post(`/admin/users/${dan.username}/rename`, { new_username: uniqueName('x') })).status).toBe(403);
    });

    it('should let organization owners rename the organization (204)', async () => {
      const org = await createOrg(alice.api);
      await alice.api.post(`/orgs/${org.name}/repos`, { name: 'inside' });
      const next = uniqueName('org');
      expect((await bob.api.post(`/orgs/${org.name}/rename`, { new_name: next })).status).toBe(403);
      expect((await api.anonymous.post(`/orgs/${org.name}/rename`, { new_name: next })).status).toBe(401);
      const res = await alice.api.post(`/orgs/${org.name}/rename`, { new_name: next } satisfies RenameOrgOption);
      expect(res.status).toBe(204);
      expect((await alice.api.get<Organization>(`/orgs/${next}`)).body.name).toBe(next);
      expect((await alice.api.get<Organization>(`/orgs/${org.name}`)).body.name).toBe(next);
      expect((await alice.api.get<Repository>(`/repos/${next}/inside`)).body.owner.login).toBe(next);
      const taken = await alice.api.post(`/orgs/${next}/rename`, { new_name: bob.username });
      expect(taken.status).toBe(422);
      expect(taken.body).toEqual(giteaError(`user already exists [name: ${bob.username}]`));
      expect((await alice.api.post('/orgs/no-such-org-anywhere/rename', { new_name: uniqueName('x') })).status).toBe(404);
    });
  });

  describe('admin delete with purge', () => {
    it('should delete the user with its repositories and memberships, and organizations it alone owns', async () => {
      const eve = await createUser(api, 'eve');
      await eve.api.post('/user/repos', { name: 'gone' });
      const solo = await createOrg(eve.api);
      await eve.api.post(`/orgs/${solo.name}/repos`, { name: 'gone-too' });
      const shared = await createOrg(alice.api);
      await addToTeam(alice.api, (await createTeam(alice.api, shared.name)).id, eve);
      expect((await api.admin.delete(`/admin/users/${eve.username}`)).status).toBe(422);
      expect((await api.admin.delete(`/admin/users/${eve.username}?purge=true`)).status).toBe(204);
      expect((await api.admin.get(`/users/${eve.username}`)).status).toBe(404);
      expect((await api.admin.get(`/orgs/${solo.name}`)).status).toBe(404);
      expect((await api.admin.get(`/repos/${solo.name}/gone-too`)).status).toBe(404);
      expect((await api.admin.get<Organization>(`/orgs/${shared.name}`)).status).toBe(200);
      expect((await alice.api.get<User[]>(`/orgs/${shared.name}/members`)).body.map((u) => u.login)).not.toContain(eve.username);
    });
  });

  describe('/users/{username}/tokens', () => {
    it('should look the user up first (404), then require self or admin (403), then Basic (401)', async () => {
      expect((await api.anonymous.get('/users/no-such-user-here/tokens')).status).toBe(404);
      const anonymous = await api.anonymous.get(`/users/${alice.username}/tokens`);
      expect(anonymous.status).toBe(403);
      expect(anonymous.body).toEqual(giteaError('doer should be the site admin or be same as the contextUser'));
      expect((await bob.api.post(`/users/${alice.username}/tokens`, { name: 'x', scopes: ['read:user'] })).status).toBe(403);
      const bearer = await tokenApi(alice, ['read:user']);
      const res = await bearer.get(`/users/${alice.username}/tokens`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(giteaError('auth required'));
    });

    it('should list tokens with X-Total-Count and no Link header', async () => {
      const fay = await createUser(api, 'fay');
      for (const name of ['a', 'b']) await fay.api.post(`/users/${fay.username}/tokens`, { name, scopes: ['read:user'] });
      const res = await fay.api.get<AccessToken[]>(`/users/${fay.username}/tokens?limit=1`);
      expect(res.body).toHaveLength(1);
      expect(res.headers.get('x-total-count')).toBe('2');
      expect(res.headers.get('link')).toBeNull();
    });

    it('should answer scopes in Gitea order and refuse unknown scopes (400)', async () => {
      const res = await alice.api.post<AccessToken>(`/users/${alice.username}/tokens`, {
        name: uniqueName('t'),
        scopes: ['read:user', 'write:repository', 'public-only', 'read:admin'],
      });
      expect(res.body.scopes).toEqual(['public-only', 'read:admin', 'write:repository', 'read:user']);
      const bad = await alice.api.post(`/users/${alice.username}/tokens`, { name: uniqueName('t'), scopes: ['read:nothing'] });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual(giteaError('invalid access token scope provided: invalid access token scope: read:nothing'));
    });
  });

  describe('/token', () => {
    it('should answer the token of the Authorization header, whatever its scopes, and delete it', async () => {
      const created = await alice.api.post<AccessToken>(`/users/${alice.username}/tokens`, { name: uniqueName('self'), scopes: ['read:issue'] });
      const self = api.as({ token: created.body.sha1 });
      const res = await self.get<CurrentAccessToken>('/token');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: created.body.id,
        name: created.body.name,
        scopes: ['read:issue'],
        created_at: expect.any(String),
        last_used_at: expect.any(String),
        user: { id: alice.id, login: alice.username },
      });
      expect((await self.delete('/token')).status).toBe(204);
      await expectEventually(async () => expect((await self.get('/user')).status).toBe(401), { timeoutMs: 5000 });
    });

    it('should answer 404 for other credentials and 401 anonymously', async () => {
      const basic = await alice.api.get('/token');
      expect(basic.status).toBe(404);
      expect(basic.body).toEqual(giteaError('invalid access token'));
      expect((await api.anonymous.get('/token')).status).toBe(401);
    });
  });

  describe('sudo', () => {
    it('should refuse sudo to anonymous callers (403)', async () => {
      const res = await api.anonymous.get(`/users/${alice.username}?sudo=${bob.username}`);
      expect(res.status).toBe(403);
      // Gitea's sudo middleware writes {message} alone.
      expect(res.body).toEqual({ message: 'Only administrators allowed to sudo.' });
      const bySomeone = await alice.api.get(`/user?sudo=${bob.username}`);
      expect(bySomeone.status).toBe(403);
      expect(bySomeone.body).toEqual({ message: 'Only administrators allowed to sudo.' });
    });
  });

  describe('public-only tokens', () => {
    let owner: TestUser;
    let publicOnly: Api;
    let limitedOrg: Organization;
    let openOrg: Organization;

    beforeAll(async () => {
      owner = await createUser(api, 'po');
      await owner.api.post('/user/repos', { name: 'open' });
      await owner.api.post('/user/repos', { name: 'closed', private: true });
      limitedOrg = await createOrg(owner.api, { visibility: 'limited' });
      openOrg = await createOrg(owner.api);
      await owner.api.post(`/orgs/${openOrg.name}/repos`, { name: 'org-closed', private: true });
      publicOnly = await tokenApi(owner, ['public-only', 'write:repository', 'write:organization', 'write:user']);
    });

    it('should stop at private repositories (403) and keep public ones', async () => {
      expect((await publicOnly.get(`/repos/${owner.username}/open`)).status).toBe(200);
      const closed = await publicOnly.get(`/repos/${owner.username}/closed`);
      expect(closed.status).toBe(403);
      expect(closed.body).toEqual(giteaError('token scope is limited to public repos'));
      expect((await publicOnly.patch(`/repos/${owner.username}/closed`, { description: 'x' })).status).toBe(403);
    });

    it('should stop at organizations that are not public (403)', async () => {
      const res = await publicOnly.get(`/orgs/${limitedOrg.name}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(giteaError('token scope is limited to public orgs'));
      expect((await publicOnly.post(`/orgs/${limitedOrg.name}/repos`, { name: uniqueName('r') })).status).toBe(403);
      expect((await publicOnly.get(`/orgs/${openOrg.name}`)).status).toBe(200);
    });

    it('should stop at users that are not public (403)', async () => {
      const shy = await createUser(api, 'shy', { visibility: 'limited' });
      const res = await publicOnly.get(`/users/${shy.username}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(giteaError('token scope is limited to public users'));
    });

    it("should refuse a user who is not public their own /user routes (Gitea's group-level checkTokenPublicOnly)", async () => {
      const shy = await createUser(api, 'shyme', { visibility: 'private' });
      const token = await tokenApi(shy, ['public-only', 'read:user', 'read:organization']);
      for (const path of ['/user', '/user/followers', '/user/emails']) {
        expect([path, await token.get(path)]).toEqual([path, expect.objectContaining({ status: 403, body: giteaError('token scope is limited to public users') })]);
      }
      // /user/orgs is registered apart, with no user to check.
      expect((await token.get('/user/orgs')).status).toBe(200);
      expect((await publicOnly.get('/user')).status).toBe(200);
    });

    it('should refuse to create repositories of the user (403)', async () => {
      const res = await publicOnly.post('/user/repos', { name: uniqueName('r') });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(giteaError('this endpoint is not available for public-only tokens'));
    });

    it("should refuse the caller's hooks, keys, times, stopwatches, actions and notifications (403, Gitea's rejectPublicOnly)", async () => {
      const all = await tokenApi(owner, ['public-only', 'all']);
      for (const path of ['/user/hooks', '/user/keys', '/user/times', '/user/stopwatches', '/user/actions/variables', '/notifications']) {
        const res = await all.get(path);
        expect([path, res.status, res.body]).toEqual([path, 403, giteaError('this endpoint is not available for public-only tokens')]);
        expect([path, (await owner.api.get(path)).status]).toEqual([path, 200]);
      }
    });

    it('should leave private and limited entries out of lists', async () => {
      const mine = (await publicOnly.get<Repository[]>('/user/repos?limit=50')).body.map((r) => r.name);
      expect(mine).toContain('open');
      expect(mine).not.toContain('closed');
      expect((await publicOnly.get<Repository[]>(`/orgs/${openOrg.name}/repos`)).body.map((r) => r.name)).not.toContain('org-closed');
      const orgs = (await publicOnly.get<Organization[]>('/user/orgs')).body.map((o) => o.name);
      expect(orgs).not.toContain(limitedOrg.name);
      expect((await publicOnly.get<Organization[]>('/orgs?limit=50')).body.map((o) => o.name)).not.toContain(limitedOrg.name);
    });
  });

  describe('GET /repositories/{id}', () => {
    it('should answer a visible repository by id and 404 for hidden or unknown ones', async () => {
      const created = await alice.api.post<Repository>('/user/repos', { name: uniqueName('byid'), private: true });
      const res = await alice.api.get<Repository>(`/repositories/${created.body.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: created.body.id, full_name: created.body.full_name, permissions: { admin: true, push: true, pull: true } });
      expect((await bob.api.get(`/repositories/${created.body.id}`)).status).toBe(404);
      expect((await alice.api.get('/repositories/999999999')).status).toBe(404);
      expect((await api.anonymous.get(`/repositories/${created.body.id}`)).status).toBe(401);
    });
  });

  describe('repository teams', () => {
    let org: Organization;
    let repo: Repository;
    let team: Team;
    let admin: TestUser;

    beforeAll(async () => {
      org = await createOrg(alice.api);
      repo = (await alice.api.post<Repository>(`/orgs/${org.name}/repos`, { name: uniqueName('tr') })).body;
      team = await createTeam(alice.api, org.name, { name: uniqueName('Devs') });
      admin = await createUser(api, 'repoadmin');
      await alice.api.put(`/repos/${org.name}/${repo.name}/collaborators/${admin.username}`, { permission: 'admin' });
    });

    it('should add, show, list and remove a team (204/200)', async () => {
      expect((await alice.api.put(`/repos/${org.name}/${repo.name}/teams/${team.name.toLowerCase()}`)).status).toBe(204);
      const one = await alice.api.get<Team>(`/repos/${org.name}/${repo.name}/teams/${team.name}`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ id: team.id, name: team.name, organization: null });
      const list = await alice.api.get<Team[]>(`/repos/${org.name}/${repo.name}/teams`);
      expect(list.body.map((t) => t.name)).toEqual(['Owners', team.name]);
      const again = await alice.api.put(`/repos/${org.name}/${repo.name}/teams/${team.name}`);
      expect(again.status).toBe(422);
      expect(again.body).toEqual(giteaError(`team '${team.name}' is already added to repo`));
      expect((await alice.api.delete(`/repos/${org.name}/${repo.name}/teams/${team.name}`)).status).toBe(204);
      expect((await alice.api.get(`/repos/${org.name}/${repo.name}/teams/${team.name}`)).status).toBe(404);
      const gone = await alice.api.delete(`/repos/${org.name}/${repo.name}/teams/${team.name}`);
      expect(gone.status).toBe(422);
      expect(gone.body).toEqual(giteaError(`team '${team.name}' was not added to repo`));
    });

    it('should answer 404 for unknown teams and 405 for repositories of users', async () => {
      expect((await alice.api.get(`/repos/${org.name}/${repo.name}/teams/no-such-team`)).status).toBe(404);
      expect((await alice.api.put(`/repos/${org.name}/${repo.name}/teams/no-such-team`)).status).toBe(404);
      const own = await alice.api.post<Repository>('/user/repos', { name: uniqueName('solo') });
      const res = await alice.api.get(`/repos/${alice.username}/${own.body.name}/teams`);
      expect(res.status).toBe(405);
      expect(res.body).toEqual(giteaError('repo is not owned by an organization'));
    });

    it('should let repository admins change teams only when the organization allows it (403)', async () => {
      const refused = await admin.api.put(`/repos/${org.name}/${repo.name}/teams/${team.name}`);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(giteaError('Must have permission to manage team repository access'));
      await alice.api.patch(`/orgs/${org.name}`, { repo_admin_change_team_access: true });
      expect((await admin.api.put(`/repos/${org.name}/${repo.name}/teams/${team.name}`)).status).toBe(204);
      expect((await bob.api.put(`/repos/${org.name}/${repo.name}/teams/${team.name}`)).status).toBe(403);
      expect((await bob.api.get<Team[]>(`/repos/${org.name}/${repo.name}/teams`)).status).toBe(200);
      expect((await api.anonymous.get(`/repos/${org.name}/${repo.name}/teams`)).status).toBe(401);
    });
  });

  describe('GET /users/{username}/orgs/{org}/permissions', () => {
    it('should answer what each user may do in the organization', async () => {
      const org = await createOrg(alice.api);
      const makers = await createTeam(alice.api, org.name, { permission: 'write', units: ['repo.code'], can_create_org_repo: true });
      await addToTeam(alice.api, makers.id, bob);
      expect((await bob.api.get<OrganizationPermissions>(`/users/${alice.username}/orgs/${org.name}/permissions`)).body).toEqual({
        can_create_repository: true,
        can_read: true,
        can_write: true,
        is_admin: true,
        is_owner: true,
      });
      expect((await alice.api.get<OrganizationPermissions>(`/users/${bob.username}/orgs/${org.name}/permissions`)).body).toEqual({
        can_create_repository: true,
        can_read: true,
        can_write: true,
        is_admin: false,
        is_owner: false,
      });
      const stranger = await createUser(api, 'stranger');
      expect((await alice.api.get<OrganizationPermissions>(`/users/${stranger.username}/orgs/${org.name}/permissions`)).body).toEqual({
        can_create_repository: false,
        can_read: false,
        can_write: false,
        is_admin: false,
        is_owner: false,
      });
    });

    it('should answer 404 for unknown names and hidden organizations, 401 anonymously', async () => {
      const hidden = await createOrg(alice.api, { visibility: 'private' });
      expect((await bob.api.get(`/users/${alice.username}/orgs/${hidden.name}/permissions`)).status).toBe(404);
      expect((await bob.api.get(`/users/${alice.username}/orgs/no-such-org-anywhere/permissions`)).status).toBe(404);
      expect((await bob.api.get(`/users/no-such-user-here/orgs/${hidden.name}/permissions`)).status).toBe(404);
      expect((await api.anonymous.get(`/users/${alice.username}/orgs/${hidden.name}/permissions`)).status).toBe(401);
    });
  });

  describe('organization repositories created by members', () => {
    it('should make a member whose team may create repositories an admin of the new one', async () => {
      const org = await createOrg(alice.api);
      const makers = await createTeam(alice.api, org.name, { permission: 'read', units: ['repo.code'], can_create_org_repo: true });
      const maker = await createUser(api, 'maker');
      await addToTeam(alice.api, makers.id, maker);
      const res = await maker.api.post<Repository>(`/orgs/${org.name}/repos`, { name: uniqueName('made') });
      expect(res.status).toBe(201);
      expect(res.body.permissions).toEqual({ admin: true, push: true, pull: true });
      const seen = await maker.api.get<Repository>(`/repos/${org.name}/${res.body.name}`);
      expect(seen.body.permissions).toEqual({ admin: true, push: true, pull: true });
      const collaborators = await alice.api.get<User[]>(`/repos/${org.name}/${res.body.name}/collaborators`);
      expect(collaborators.body.map((u) => u.login)).toEqual([maker.username]);
    });
  });

  describe('repository templates', () => {
    it('should refuse unknown README (400) and label (422) templates', async () => {
      const readme = await alice.api.post('/user/repos', { name: uniqueName('t'), auto_init: true, readme: 'NOPE' });
      expect(readme.status).toBe(400);
      expect(readme.body).toEqual(giteaError('readme template does not exist, available templates: [Default]'));
      expect((await alice.api.post('/user/repos', { name: uniqueName('t'), issue_labels: 'Nope' })).status).toBe(422);
      expect((await alice.api.post('/user/repos', { name: uniqueName('t'), readme: 'NOPE' })).status).toBe(201);
      expect((await alice.api.post('/user/repos', { name: uniqueName('t'), auto_init: true, readme: 'Default', issue_labels: 'Default' })).status).toBe(201);
    });
  });

  describe('the owner of a repository', () => {
    it('should show the e-mail to anyone who can read the repository, and never the private fields', async () => {
      const name = uniqueName('shown');
      await alice.api.post('/user/repos', { name });
      for (const caller of [api.anonymous, bob.api, alice.api, api.admin]) {
        const owner = (await caller.get<Repository>(`/repos/${alice.username}/${name}`)).body.owner;
        expect(owner).toMatchObject({ login: alice.username, email: alice.email, is_admin: false, active: false, language: '' });
        expect(owner.last_login).toBe('0001-01-01T00:00:00Z');
      }
    });
  });

  describe('lists', () => {
    it('should list the caller\'s repositories by name', async () => {
      const gus = await createUser(api, 'gus');
      for (const name of ['zeta', 'alpha', 'mid']) await gus.api.post('/user/repos', { name });
      expect((await gus.api.get<Repository[]>('/user/repos')).body.map((r) => r.name)).toEqual(['alpha', 'mid', 'zeta']);
    });

    it('should show limited organizations of a user to signed-in callers, public ones to everybody', async () => {
      const hal = await createUser(api, 'hal');
      const limited = await createOrg(hal.api, { visibility: 'limited' });
      const open = await createOrg(hal.api);
      const secret = await createOrg(hal.api, { visibility: 'private' });
      for (const org of [limited, open, secret]) expect((await hal.api.put(`/orgs/${org.name}/public_members/${hal.username}`)).status).toBe(204);
      const names = async (caller: Api) => (await caller.get<Organization[]>(`/users/${hal.username}/orgs`)).body.map((o) => o.name).sort();
      expect(await names(bob.api)).toEqual([limited.name, open.name].sort());
      expect(await names(hal.api)).toEqual([limited.name, open.name, secret.name].sort());
      expect(await names(api.admin)).toEqual([limited.name, open.name, secret.name].sort());
    });
  });

  describe('organizations', () => {
    it('should hide the e-mail of an organization from anonymous callers', async () => {
      const org = await createOrg(alice.api, { email: 'contact@example.com' });
      expect((await api.anonymous.get<Organization>(`/orgs/${org.name}`)).body.email).toBe('');
      expect((await bob.api.get<Organization>(`/orgs/${org.name}`)).body.email).toBe('contact@example.com');
    });

    it('should answer "not found" for unknown organizations', async () => {
      expect((await alice.api.get('/orgs/no-such-org-anywhere')).body).toEqual(giteaError('not found'));
    });
  });
});
