import type { Repository } from '@gitforge/contracts';
import { Api, createUser, giteaError, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { createIssue, createRepo } from './support/repos.js';

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
});
