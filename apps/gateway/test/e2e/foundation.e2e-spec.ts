import type { AccessToken, CreateRepoOption, Organization, Repository, User } from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { ADMIN, Layout, layoutsUnderTest } from './support/layout.js';

describe.each(layoutsUnderTest())('foundation through the gateway (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    layout = await Layout.start(kind, { env: { GITFORGE_AUTH_CACHE_TTL_MS: '300' } });
    api = new Api(layout);
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
  });

  afterAll(async () => {
    await layout?.stop();
  });

  describe('server', () => {
    it('should answer the version', async () => {
      const res = await api.get<{ version: string }>('/version');
      expect(res.status).toBe(200);
      expect(res.body.version).toMatch(/^\d+\.\d+\.\d+/);
    });

    it('should report every service healthy', async () => {
      const res = await fetch(`${layout.rootUrl}api/healthz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'pass' });
    });

    it('should answer unknown routes with Gitea plain-text 404', async () => {
      const res = await api.get('/no/such/route');
      expect(res.status).toBe(404);
      expect(res.text).toContain('404 page not found');
    });
  });

  describe('authentication', () => {
    it('should have ensured the admin from the environment', async () => {
      const res = await api.admin.get<User>('/user');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ login: ADMIN.username, is_admin: true, email: ADMIN.email });
    });

    it('should refuse bad credentials with 401 and no WWW-Authenticate', async () => {
      const res = await api.asUser(alice.username, 'wrong-password').get('/user');
      expect(res.status).toBe(401);
      expect(res.body).toEqual(giteaError('invalid username, password or token'));
      expect(res.headers.get('www-authenticate')).toBeNull();
      const badToken = await api.as({ token: 'f'.repeat(40) }).get('/version');
      expect(badToken.status).toBe(401);
    });

    it('should require sign-in where Gitea does', async () => {
      const res = await api.anonymous.get('/user');
      expect(res.status).toBe(401);
      expect(res.body).toEqual(giteaError('token is required'));
    });

    it('should accept a login by e-mail address', async () => {
      const res = await api.asUser(alice.email, alice.password).get<User>('/user');
      expect(res.status).toBe(200);
      expect(res.body.login).toBe(alice.username);
    });
  });

  describe('admin users', () => {
    it('should create a user (201) with Gitea fields', async () => {
      const username = uniqueName('carol');
      const res = await api.admin.post<User>('/admin/users', {
        username,
        email: `${username}@example.com`,
        password: 'carol-password',
        must_change_password: false,
        full_name: 'Carol C',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ login: username, username, full_name: 'Carol C', is_admin: false, visibility: 'public' });
      expect(res.body.id).toEqual(expect.any(Number));
    });

    it('should refuse non-admins with 403 and anonymous with 401', async () => {
      const body = { username: uniqueName('x'), email: 'x@example.com', password: 'password1' };
      expect((await alice.api.post('/admin/users', body)).status).toBe(403);
      expect((await alice.api.post('/admin/users', body)).body).toEqual(giteaError('user should be the site admin'));
      expect((await api.anonymous.post('/admin/users', body)).status).toBe(401);
    });

    it('should validate: missing username 422, bad name 422, taken name 422, short password 400', async () => {
      expect((await api.admin.post('/admin/users', { email: 'a@example.com', password: 'password1' })).body).toEqual(
        giteaError('[Username]: Required'),
      );
      expect((await api.admin.post('/admin/users', { username: '-bad', email: 'b@example.com', password: 'password1' })).status).toBe(422);
      const taken = await api.admin.post('/admin/users', { username: alice.username, email: 'other@example.com', password: 'password1' });
      expect(taken.status).toBe(422);
      expect(taken.body).toEqual(giteaError(/user already exists/));
      const short = await api.admin.post('/admin/users', { username: uniqueName('d'), email: 'd@example.com', password: 'short' });
      expect(short.status).toBe(400);
    });

    it('should make an admin-created user change its password unless told otherwise', async () => {
      const username = uniqueName('must');
      await api.admin.post('/admin/users', { username, email: `${username}@example.com`, password: 'password-1' });
      const res = await api.asUser(username, 'password-1').get('/user');
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ message: expect.stringMatching(/change your password/) });
    });
  });

  describe('users', () => {
    it('should show a user, hiding the e-mail from anonymous callers', async () => {
      const signed = await bob.api.get<User>(`/users/${alice.username}`);
      expect(signed.status).toBe(200);
      expect(signed.body).toMatchObject({ login: alice.username, email: alice.email, is_admin: false });
      const anon = await api.anonymous.get<User>(`/users/${alice.username}`);
      expect(anon.status).toBe(200);
      expect(anon.body.email).not.toBe(alice.email);
    });

    it('should answer 404 for an unknown user', async () => {
      expect((await api.anonymous.get('/users/nobody-here-at-all')).status).toBe(404);
    });
  });

  describe('access tokens', () => {
    let token: AccessToken;

    it('should create a token with Basic auth and show the secret once', async () => {
      const res = await alice.api.post<AccessToken>(`/users/${alice.username}/tokens`, {
        name: 't1',
        scopes: ['write:repository', 'read:user'],
      });
      expect(res.status).toBe(201);
      expect(res.body.sha1).toMatch(/^[0-9a-f]{40}$/);
      expect(res.body.token_last_eight).toBe(res.body.sha1.slice(-8));
      // Gitea's order: by category (repository before user), not alphabetical.
      expect(res.body.scopes).toEqual(['write:repository', 'read:user']);
      token = res.body;
      const list = await alice.api.get<AccessToken[]>(`/users/${alice.username}/tokens`);
      expect(list.status).toBe(200);
      expect(list.headers.get('x-total-count')).toBe('1');
      expect(list.body[0]).toMatchObject({ name: 't1', sha1: '' });
      // Gitea's creation answer carries no times; listed, a token never used was last "used" when made.
      expect(res.body).toMatchObject({ created_at: '0001-01-01T00:00:00Z', last_used_at: '0001-01-01T00:00:00Z' });
      expect(list.body[0]!.last_used_at).toBe(list.body[0]!.created_at);
      expect(Date.parse(list.body[0]!.created_at)).toBeGreaterThan(Date.now() - 60_000);
    });

    it('should authenticate with the token in every Gitea form', async () => {
      const forms = [
        api.as({ token: token.sha1 }),
        new Api(layout, null),
      ];
      expect((await forms[0]!.get<User>('/user')).body.login).toBe(alice.username);
      const bearer = await fetch(`${layout.apiUrl}/user`, { headers: { authorization: `Bearer ${token.sha1}` } });
      expect(bearer.status).toBe(200);
      const basicAsUser = await api.asUser(token.sha1, 'x-oauth-basic').get<User>('/user');
      expect(basicAsUser.body.login).toBe(alice.username);
      const basicAsPassword = await api.asUser('anyone', token.sha1).get<User>('/user');
      expect(basicAsPassword.body.login).toBe(alice.username);
      const query = await fetch(`${layout.apiUrl}/user?token=${token.sha1}`);
      expect(query.status).toBe(200);
    });

    it('should enforce token scopes with 403', async () => {
      const res = await api.as({ token: token.sha1 }).post('/orgs', { username: uniqueName('org') });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(giteaError(/token does not have at least one of required scope/));
    });

    it('should refuse token management without Basic auth, duplicates and empty scopes', async () => {
      expect((await api.as({ token: token.sha1 }).get(`/users/${alice.username}/tokens`)).status).toBe(401);
      expect((await alice.api.post(`/users/${alice.username}/tokens`, { name: 't1', scopes: ['read:user'] })).status).toBe(400);
      expect((await alice.api.post(`/users/${alice.username}/tokens`, { name: 't2' })).status).toBe(400);
      expect((await alice.api.post(`/users/${alice.username}/tokens`, { name: 't3', scopes: ['read:nothing'] })).status).toBe(400);
      expect((await bob.api.get(`/users/${alice.username}/tokens`)).status).toBe(403);
    });

    it('should delete a token, which then stops working within the cache time', async () => {
      expect((await alice.api.delete(`/users/${alice.username}/tokens/t1`)).status).toBe(204);
      // Gitea's DeleteAccessToken: a name that names no token is 'not found', an id 'access token not found'.
      expect(await alice.api.delete(`/users/${alice.username}/tokens/t1`)).toMatchObject({ status: 404, body: { message: 'not found' } });
      expect(await alice.api.delete(`/users/${alice.username}/tokens/999999`)).toMatchObject({ status: 404, body: { message: 'access token not found' } });
      await expectEventually(async () => expect((await api.as({ token: token.sha1 }).get('/user')).status).toBe(401), {
        timeoutMs: 5000,
      });
    });
  });

  describe('organizations and repositories', () => {
    let org: string;
    let repo: Repository;

    beforeAll(async () => {
      org = uniqueName('acme');
      const created = await alice.api.post<Organization>('/orgs', { username: org, full_name: 'Acme Inc', visibility: 'public' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: org, username: org, full_name: 'Acme Inc', visibility: 'public' });
      const res = await alice.api.post<Repository>(`/orgs/${org}/repos`, {
        name: 'secret',
        private: true,
        auto_init: true,
        description: 'the plans',
      } satisfies CreateRepoOption);
      expect(res.status).toBe(201);
      repo = res.body;
    });

    it('should show the organization, and 404 for unknown ones', async () => {
      expect((await api.anonymous.get<Organization>(`/orgs/${org}`)).body).toMatchObject({ name: org });
      expect((await api.anonymous.get('/orgs/no-such-org-here')).status).toBe(404);
      expect((await api.anonymous.get(`/orgs/${alice.username}`)).status).toBe(404);
    });

    it('should refuse duplicate organization names and anonymous creation', async () => {
      expect((await bob.api.post('/orgs', { username: org })).status).toBe(422);
      expect((await api.anonymous.post('/orgs', { username: uniqueName('o') })).status).toBe(401);
    });

    it('should create an initialised private repository the owner administers', async () => {
      expect(repo).toMatchObject({
        name: 'secret',
        full_name: `${org}/secret`,
        private: true,
        empty: false,
        default_branch: 'main',
        description: 'the plans',
        owner: { login: org },
        permissions: { admin: true, push: true, pull: true },
        clone_url: `${layout.rootUrl}${org}/secret.git`,
        html_url: `${layout.rootUrl}${org}/secret`,
        branch_count: 1,
      });
      expect(repo.size).toBeGreaterThan(0);
      const fetched = await alice.api.get<Repository>(`/repos/${org}/secret`);
      expect(fetched.status).toBe(200);
      expect(fetched.body.permissions).toEqual({ admin: true, push: true, pull: true });
    });

    it('should hide a private repository from outsiders with 404', async () => {
      expect((await bob.api.get(`/repos/${org}/secret`)).status).toBe(404);
      expect((await api.anonymous.get(`/repos/${org}/secret`)).status).toBe(404);
      expect((await bob.api.get(`/repos/${org}/nonexistent`)).status).toBe(404);
    });

    it('should let site admins see everything', async () => {
      const res = await api.admin.get<Repository>(`/repos/${org}/secret`);
      expect(res.status).toBe(200);
      expect(res.body.permissions.admin).toBe(true);
    });

    it('should show a public repository read-only to others', async () => {
      const res = await alice.api.post<Repository>(`/orgs/${org}/repos`, { name: 'open' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ empty: true, private: false, branch_count: 0 });
      expect((await bob.api.get<Repository>(`/repos/${org}/open`)).body.permissions).toEqual({ admin: false, push: false, pull: true });
      expect((await api.anonymous.get<Repository>(`/repos/${org}/open`)).body.permissions).toEqual({ admin: false, push: false, pull: true });
    });

    it('should validate repository creation', async () => {
      const malformed = await alice.api.request('POST', '/user/repos', '{"name":');
      expect([400, 422]).toContain(malformed.status);
      expect(malformed.body).toEqual(giteaError());
      expect((await alice.api.post('/user/repos', { description: 'no name' })).body).toEqual(giteaError('[Name]: Required'));
      expect((await alice.api.post('/user/repos', { name: 'has space' })).status).toBe(422);
      expect((await alice.api.post('/user/repos', { name: 'x.git' })).status).toBe(422);
      expect((await alice.api.post('/user/repos', { name: 'ok', default_branch: '--upload-pack=x' })).status).toBe(422);
      expect((await alice.api.post(`/orgs/${org}/repos`, { name: 'Secret' })).status).toBe(409);
    });

    it('should let only organization owners create repositories in it', async () => {
      const res = await bob.api.post(`/orgs/${org}/repos`, { name: 'intruder' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(giteaError('User is not allowed to create repositories in this organization.'));
      expect((await bob.api.post('/orgs/no-such-org-here/repos', { name: 'x' })).status).toBe(404);
    });

    it('should refuse a repository name with dots in a row (Gitea\'s invalidRepoNamePattern)', async () => {
      const invalid = 'name is invalid [c..d]: must be valid alpha or numeric or dash(-_) or dot characters';
      expect(await alice.api.post('/user/repos', { name: 'c..d' })).toMatchObject({ status: 422, body: giteaError(invalid) });
      const repo = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('dots') })).body;
      expect(await alice.api.patch(`/repos/${repo.full_name}`, { name: 'c..d' })).toMatchObject({ status: 422, body: giteaError(`ChangeRepositoryName: ${invalid}`) });
    });

    it('should edit a repository for its admins only', async () => {
      expect((await bob.api.patch(`/repos/${org}/open`, { description: 'hacked' })).status).toBe(403);
      const res = await alice.api.patch<Repository>(`/repos/${org}/open`, { description: 'now documented', has_wiki: false, private: true });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ description: 'now documented', has_wiki: false, private: true });
      expect((await bob.api.get(`/repos/${org}/open`)).status).toBe(404);
      const renamed = await alice.api.patch<Repository>(`/repos/${org}/open`, { name: 'opened' });
      expect(renamed.body.full_name).toBe(`${org}/opened`);
      // The old name redirects to the new one (Gitea's 307, which fetch follows).
      expect((await alice.api.get<Repository>(`/repos/${org}/open`)).body.full_name).toBe(`${org}/opened`);
      // Never archived: Gitea's unset unix timestamp, the epoch.
      expect(renamed.body.archived_at).toBe('1970-01-01T00:00:00Z');
      const archived = await alice.api.patch<Repository>(`/repos/${org}/opened`, { archived: true });
      expect(archived.body.archived).toBe(true);
      expect(Date.parse(archived.body.archived_at)).toBeGreaterThan(Date.now() - 60_000);
    });

    it('should list repositories with Gitea pagination headers', async () => {
      for (const name of ['r1', 'r2', 'r3']) expect((await bob.api.post('/user/repos', { name })).status).toBe(201);
      const page = await api.anonymous.get<Repository[]>(`/users/${bob.username}/repos?limit=2`);
      expect(page.status).toBe(200);
      expect(page.body.map((r) => r.name)).toEqual(['r1', 'r2']);
      expect(page.headers.get('x-total-count')).toBe('3');
      expect(page.headers.get('link')).toBe(
        `<${layout.apiUrl}/users/${bob.username}/repos?limit=2&page=2>; rel="next",<${layout.apiUrl}/users/${bob.username}/repos?limit=2&page=2>; rel="last"`,
      );
      const mine = await alice.api.get<Repository[]>('/user/repos');
      expect(mine.body.map((r) => r.full_name)).toEqual(expect.arrayContaining([`${org}/secret`, `${org}/opened`]));
      const orgRepos = await bob.api.get<Repository[]>(`/orgs/${org}/repos`);
      expect(orgRepos.body.map((r) => r.name)).toEqual([]);
      expect((await alice.api.get<Repository[]>(`/orgs/${org}/repos`)).body.map((r) => r.name)).toEqual(['secret', 'opened']);
    });

    it('should delete a repository for its owner only', async () => {
      expect((await bob.api.delete(`/repos/${bob.username}/r3`)).status).toBe(204);
      expect((await bob.api.get(`/repos/${bob.username}/r3`)).status).toBe(404);
      await alice.api.post('/user/repos', { name: 'keep' });
      expect((await bob.api.delete(`/repos/${alice.username}/keep`)).status).toBe(403);
    });
  });
});
