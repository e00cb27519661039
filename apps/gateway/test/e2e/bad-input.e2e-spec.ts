import type { Repository } from '@gitforge/contracts';
import { Api, createUser, giteaError, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { addCollaborator, createIssue, createRepo } from './support/repos.js';

const WRITER = giteaError('user should have a permission to write to a repo');
const ADMIN = giteaError('user should be an owner or a collaborator with admin write of a repository');
const OWNER = giteaError('user should be the owner of the repo');

/**
 * NUL characters where input enters: no database column or git message can hold one, so each is
 * refused (or left out) where it arrives, the same on PostgreSQL and SQLite: 422 in bodies,
 * 404 in path names, 401 in credentials, and a query parameter holding one is read as absent.
 */
describe.each(layoutsUnderTest())('NUL characters in every kind of input (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let repo: Repository;
  let sha: string;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    alice = await createUser(api, 'nul');
    repo = await createRepo(alice.api, { auto_init: true });
    sha = (await alice.api.get<Array<{ id: string }>>(`/repos/${repo.full_name}/commits?limit=1`)).body[0]!.id;
    await createIssue(alice.api, repo);
  });

  afterAll(async () => {
    await layout?.stop();
  });

  const body = (s: string) => `{"value": 1, ${s}}`;

  it.each([
    ['POST', '/user/repos', body('"name": "x", "description": "a\\u0000b"')],
    ['PATCH', '/repos/{repo}', body('"website": "http://a\\u0000b"')],
    ['POST', '/repos/{repo}/statuses/{sha}', body('"state": "success", "context": "ci\\u0000"')],
    ['POST', '/repos/{repo}/hooks', body('"type": "gitea", "config": {"url": "http://example.com/\\u0000", "content_type": "json"}')],
    ['POST', '/repos/{repo}/contents/new.txt', body('"content": "aGk=", "message": "m\\u0000"')],
    ['POST', '/repos/{repo}/issues', body('"title": "t\\u0000"')],
    ['POST', '/repos/{repo}/labels', body('"name": "l\\u0000", "color": "#ffffff"')],
    ['POST', '/repos/{repo}/issues/1/comments', body('"body": "c\\u0000"')],
  ])('should refuse a NUL in a %s %s body with 422', async (method, path, raw) => {
    const res = await alice.api.request(method, path.replace('{repo}', repo.full_name).replace('{sha}', sha), raw);
    expect(res).toMatchObject({ status: 422, body: giteaError(/NUL/) });
  });

  it.each([
    '/repos/ad%00min/x',
    '/users/%00',
    '/orgs/%00',
    '/orgs/%00/labels',
    '/repos/x/y%00/issues',
  ])('should answer 404 for a NUL in a path name: %s', async (path) => {
    expect((await alice.api.get(path)).status).toBe(404);
  });

  it('should answer 404 for a NUL in a collaborator name', async () => {
    expect((await alice.api.put(`/repos/${repo.full_name}/collaborators/bo%00b`, { permission: 'read' })).status).toBe(404);
  });

  it.each(['/repos/search?q=%00', '/users/search?q=a%00', '/repos/issues/search?q=%00&labels=%00', '/admin/users?q=%00&login_name=%00'])(
    'should read a query parameter holding a NUL as absent: %s',
    async (path) => {
      const res = await api.admin.get(path);
      expect(res.status).toBe(200);
    },
  );

  it('should treat the same query the same way on every layout (a NUL keyword is no keyword)', async () => {
    const all = await alice.api.get<unknown[]>(`/repos/${repo.full_name}/issues?state=all`);
    const withNul = await alice.api.get<unknown[]>(`/repos/${repo.full_name}/issues?state=all&q=%00`);
    expect(withNul.body).toEqual(all.body);
  });

  it('should answer 401 to HTTP Basic credentials holding a NUL, whoever sends them', async () => {
    const res = await api.as({ basic: ['ad\u0000min', 'x'] }).get('/user');
    expect(res).toMatchObject({ status: 401, body: giteaError('invalid username, password or token') });
    expect((await api.as({ basic: [alice.username, `${alice.password}\u0000`] }).get('/user')).status).toBe(401);
  });

  it('should not let sudo with a NUL reach anything', async () => {
    expect((await api.admin.get('/user?sudo=ro%00ot')).status).toBe(200);
  });

  describe("a body Gitea would refuse, from callers it refuses before it reads the body", () => {
    let reader: TestUser;
    let admin: TestUser;

    beforeAll(async () => {
      reader = await createUser(api, 'order-reader');
      admin = await createUser(api, 'order-admin');
      await addCollaborator(alice.api, repo, admin, 'admin');
    });

    it.each([
      ['POST', 'branches', WRITER],
      ['PATCH', 'branches/main', WRITER],
      ['PUT', 'branches/main', WRITER],
      ['POST', 'tags', WRITER],
      ['POST', 'statuses/{sha}', WRITER],
      ['POST', 'releases', WRITER],
      ['POST', 'labels', WRITER],
      ['POST', 'milestones', WRITER],
      ['POST', 'hooks', ADMIN],
      ['POST', 'keys', ADMIN],
      ['POST', 'branch_protections', ADMIN],
      ['PUT', 'topics', ADMIN],
      ['PATCH', '', ADMIN],
      ['POST', 'transfer', OWNER],
      ['PUT', 'actions/secrets/S1', OWNER],
      ['POST', 'actions/variables/V1', OWNER],
    ])('should answer a reader’s %s /repos/{repo}/%s with its 403, a missing token with 401, before the 422', async (method, path, refusal) => {
      const url = `/repos/${repo.full_name}${path ? '/' : ''}${path.replace('{sha}', sha)}`;
      const bad = '{"name": 42, "tag_name": 42, "new_branch_name": 42, "state": 42, "topics": 42, "new_owner": 42, "data": 42, "value": 42, "type": 42, "title": 42, "key": 42, "branch_name": 42, "new_commit_id": 42}';
      expect(await reader.api.request(method, url, bad)).toMatchObject({ status: 403, body: refusal });
      expect(await api.anonymous.request(method, url, bad)).toMatchObject({ status: 401, body: giteaError('token is required') });
      expect((await alice.api.request(method, url, bad)).status).toBe(422);
    });

    it('should answer a stranger’s bad body to what only an organization’s owners do with 403, an unknown organization with 404', async () => {
      const org = `order-org-${Date.now()}`;
      expect((await alice.api.post('/orgs', { username: org })).status).toBe(201);
      const owners = giteaError('Must be an organization owner');
      const members = giteaError('Must be an organization member');
      for (const [method, path, refusal] of [
        ['PATCH', '', owners],
        ['POST', '/rename', owners],
        // Gitea's teams group asks for membership first.
        ['POST', '/teams', members],
        ['POST', '/labels', owners],
        ['POST', '/hooks', owners],
        ['PUT', '/actions/secrets/S1', owners],
      ] as const) {
        const bad = '{"name": 42, "new_name": 42, "type": 42, "data": 42, "website": 42, "color": 42}';
        expect(await reader.api.request(method, `/orgs/${org}${path}`, bad)).toMatchObject({ status: 403, body: refusal });
        expect((await alice.api.request(method, `/orgs/${org}${path}`, bad)).status).toBe(422);
        expect((await reader.api.request(method, `/orgs/no-such-org-z${path}`, bad)).status).toBe(404);
        expect((await api.anonymous.request(method, `/orgs/no-such-org-z${path}`, bad)).status).toBe(404);
      }
      // Gitea's orgAssignment asks only whether the organization exists: a private one is the token's 401 to anonymous callers, the owners' 403 to strangers.
      const hidden = `order-private-${Date.now()}`;
      expect((await alice.api.post('/orgs', { username: hidden, visibility: 'private' })).status).toBe(201);
      expect((await api.anonymous.request('POST', `/orgs/${hidden}/hooks`, '{"type": 42}')).status).toBe(401);
      expect(await reader.api.request('POST', `/orgs/${hidden}/hooks`, '{"type": 42}')).toMatchObject({ status: 403, body: owners });
      // Its labels group has reqOrgVisible: a stranger does not learn the organization exists.
      expect((await reader.api.request('POST', `/orgs/${hidden}/labels`, '{"name": 42}')).status).toBe(404);
      // A renamed organization's old name redirects (Gitea's orgAssignment, RedirectToUser).
      const renamedFrom = `order-renamed-${Date.now()}`;
      expect((await alice.api.post('/orgs', { username: renamedFrom })).status).toBe(201);
      expect((await alice.api.post(`/orgs/${renamedFrom}/rename`, { new_name: `${renamedFrom}-new` })).status).toBe(204);
      const redirected = await fetch(`${layout.apiUrl}/orgs/${renamedFrom}/labels`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json' }, body: '{"name": 42}' });
      expect(redirected.status).toBe(307);
      // Creating a repository there is bound before it is checked, as in Gitea.
      expect((await reader.api.request('POST', `/orgs/${org}/repos`, '{"name": 42}')).status).toBe(422);
    });

    it('should answer a bad body for someone else’s tokens with reqSelfOrAdmin’s 403', async () => {
      expect(await reader.api.request('POST', `/users/${alice.username}/tokens`, '{"name": 42}')).toMatchObject({
        status: 403,
        body: giteaError('doer should be the site admin or be same as the contextUser'),
      });
      expect((await reader.api.request('POST', `/users/${reader.username}/tokens`, '{"name": 42}')).status).toBe(422);
      // reqSelfOrAdmin comes before reqToken, and reqBasicOrRevProxyAuth after it.
      expect((await api.anonymous.request('POST', `/users/${reader.username}/tokens`, '{"name": 42}')).status).toBe(403);
      const token = await reader.api.post<{ sha1: string }>(`/users/${reader.username}/tokens`, { name: `t${Date.now()}`, scopes: ['all'] });
      expect(await api.as({ token: token.body.sha1 }).request('POST', `/users/${reader.username}/tokens`, '{"name": 42}')).toMatchObject({
        status: 401,
        body: giteaError('auth required'),
      });
    });

    it('should let anyone send file-contents a bad body and get its 422 (Gitea binds it without reqToken)', async () => {
      expect((await api.anonymous.request('POST', `/repos/${repo.full_name}/file-contents`, '{"files": 42}')).status).toBe(422);
    });

    it('should let a reader’s bad body for what readers may do answer 422', async () => {
      expect((await reader.api.post(`/repos/${repo.full_name}/issues`, {})).status).toBe(422);
      expect((await reader.api.post(`/repos/${repo.full_name}/issues/1/comments`, {})).status).toBe(422);
    });

    it('should keep a repository’s actions secrets and variables to its owners, not its admin collaborators (Gitea’s reqOwner)', async () => {
      expect(await admin.api.put(`/repos/${repo.full_name}/actions/secrets/S1`, { data: 'x' })).toMatchObject({ status: 403, body: OWNER });
      expect(await admin.api.post(`/repos/${repo.full_name}/actions/variables/V1`, { value: 'x' })).toMatchObject({ status: 403, body: OWNER });
      expect((await admin.api.get(`/repos/${repo.full_name}/actions/runners`)).status).toBe(403);
      expect(await admin.api.request('PUT', `/repos/${repo.full_name}/actions/secrets/S1`, '{"data": 42}')).toMatchObject({ status: 403, body: OWNER });
      expect((await admin.api.post(`/repos/${repo.full_name}/hooks`, { type: 42 })).status).toBe(422);
      expect([201, 204]).toContain((await alice.api.put(`/repos/${repo.full_name}/actions/secrets/S1`, { data: 'x' })).status);
    });

    it('should answer an archived repository’s 423 before the 422 where Gitea checks the archive first', async () => {
      const archived = await createRepo(alice.api, { auto_init: true });
      expect((await alice.api.patch(`/repos/${archived.full_name}`, { archived: true })).status).toBe(200);
      expect(await alice.api.request('POST', `/repos/${archived.full_name}/branches`, '{"new_branch_name": 42}')).toMatchObject({ status: 423 });
      expect(await alice.api.request('POST', `/repos/${archived.full_name}/tags`, '{"tag_name": 42}')).toMatchObject({ status: 423 });
    });
  });
});
