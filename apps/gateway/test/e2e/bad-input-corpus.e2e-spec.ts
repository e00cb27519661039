import type { Repository } from '@gitforge/contracts';
import { Api, createUser, uniqueName, type ApiResponse, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { createIssue, createRepo } from './support/repos.js';

/**
 * A general bad-input corpus across every service: control characters, over-long values, wrong JSON
 * types, huge and negative pages, limits and ids, option-looking refs and `../` paths. Nothing may
 * answer 5xx, and every refusal carries Gitea's error body ({message, url}).
 */

const CONTROL = 'a\u0001b\u0008c\u001bd\u001fe\u007f';
const LONG = 'x'.repeat(10_001);
/** Values of the wrong kind for a string field (and for most other fields). */
const BAD_VALUES: unknown[] = [CONTROL, LONG, 12345, -1, 3_000_000_000, 1e20, 1.5, true, 'true', { a: [1, { b: null }] }, ['x', 1], [[{}]]];
/** Bodies no decoder should choke on: truncated, deeply nested, prototype keys, duplicate keys. */
const DEEP = `${'['.repeat(5000)}${']'.repeat(5000)}`;
const RAW_BODIES = [
  '{',
  '{"title": ',
  `{"title": ${DEEP}, "name": ${DEEP}}`,
  `{"a": ${'{"a": '.repeat(3000)}1${'}'.repeat(3000)}}`,
  '{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}, "title": "x", "name": "x"}',
  '{"title": "a", "title": 1, "name": "b", "name": []}',
];
const BAD_QUERIES = [
  'page=1e20',
  'page=-1&limit=-5',
  'limit=1e20',
  'page=99999999999999999999',
  'page=3000000000&limit=3000000000',
  'page=abc&limit=%7B%7D',
  `q=${encodeURIComponent(CONTROL)}`,
  `q=${LONG}`,
];
const BAD_IDS = ['99999999999999999999', '3000000000', '-1', '1e20', '0', 'abc', '1.5'];
const BAD_REFS = ['--upload-pack=x', '-x', '..%2F..%2Fetc%2Fpasswd', 'a..b', 'HEAD%40%7B-1%7D', '%01', LONG.slice(0, 5000)];

interface Probe {
  label: string;
  status: number;
  body: unknown;
}

/** A 4xx whose body is JSON must be Gitea's {message, url}; plain text is the router's own 404. */
function malformed(p: Probe): boolean {
  if (p.status >= 500) return true;
  if (p.status < 400 || typeof p.body !== 'object' || p.body === null) return false;
  const b = p.body as Record<string, unknown>;
  return typeof b.message !== 'string' || typeof b.url !== 'string' || !/api\/swagger$/.test(b.url);
}

/** Runs requests a few at a time (the corpus is large and each request is small); answers in the jobs' order. */
async function run(jobs: Array<() => Promise<Probe>>, width = 8): Promise<Probe[]> {
  const out: Probe[] = new Array<Probe>(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let i = next++; i < jobs.length; i = next++) out[i] = await jobs[i]!();
    }),
  );
  return out;
}

describe.each(layoutsUnderTest())('a bad-input corpus across every service (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let org: string;
  let repo: Repository;
  let sha: string;
  let teamId: number;
  const vars: Record<string, string> = {};

  const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? `{${k}}`);
  const probe =
    (as: Api, method: string, path: string, body?: unknown): (() => Promise<Probe>) =>
    async () => {
      const p = fill(path);
      const res: ApiResponse = await as.request(method, p, body);
      return {
        label: `${method} ${p.slice(0, 120)} ${body === undefined ? '' : (typeof body === 'string' ? body : JSON.stringify(body)).slice(0, 120)}`,
        status: res.status,
        body: res.body,
      };
    };
  const expectClean = (probes: Probe[]) => {
    const counts: Record<number, number> = {};
    for (const p of probes) counts[p.status] = (counts[p.status] ?? 0) + 1;
    console.log(`${kind}: ${probes.length} requests, by status ${JSON.stringify(counts)}`);
    const bad = probes.filter(malformed).map((p) => `${p.status} ${p.label} → ${JSON.stringify(p.body)?.slice(0, 200)}`);
    expect(bad).toEqual([]);
  };

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    alice = await createUser(api, 'corpus');
    org = uniqueName('org');
    expect((await alice.api.post('/orgs', { username: org })).status).toBe(201);
    repo = await createRepo(alice.api, { auto_init: true });
    sha = (await alice.api.get<Array<{ sha: string }>>(`/repos/${repo.full_name}/commits?limit=1`)).body[0]!.sha;
    await createIssue(alice.api, repo);
    const team = await alice.api.post<{ id: number }>(`/orgs/${org}/teams`, {
      name: 'corpus',
      permission: 'read',
      units: ['repo.code'],
    });
    teamId = team.body.id;
    const id = async (path: string, body: unknown) => {
      const res = await alice.api.post<{ id: number }>(fill(path), body);
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
      return String(res.body.id);
    };
    Object.assign(vars, { repo: repo.full_name });
    vars.label = await id('/repos/{repo}/labels', { name: 'fixture', color: '#000000' });
    vars.milestone = await id('/repos/{repo}/milestones', { title: 'fixture' });
    vars.project = await id('/repos/{repo}/projects', { title: 'fixture' });
    vars.column = await id('/projects/{project}/columns', { title: 'fixture' });
    vars.hook = await id('/repos/{repo}/hooks', {
      type: 'gitea',
      config: { url: 'http://example.com/f', content_type: 'json' },
    });
    vars.tagrule = await id('/repos/{repo}/tag_protections', {
      name_pattern: 'f*',
      whitelist_usernames: [alice.username],
    });
    const badge = await api.admin.post<{ slug: string }>('/admin/badges', { slug: uniqueName('corpus'), description: 'fixture' });
    if (badge.status !== 201) throw new Error(`/admin/badges: ${badge.status} ${badge.text}`);
    vars.badge = badge.body.slug;
    Object.assign(vars, {
      repo: repo.full_name,
      name: repo.name,
      sha,
      org,
      user: alice.username,
      team: String(teamId),
      branch: repo.default_branch,
    });
  });

  afterAll(async () => {
    await layout?.stop();
  });

  /** [method, path, a valid body, the fields that take each bad value in turn, admin?] */
  const bodies: Array<[string, string, Record<string, unknown>, string[], boolean?]> = [
    [
      'POST',
      '/admin/users',
      { username: 'u', email: 'u@example.com', password: 'a-long-password' },
      ['username', 'email', 'password', 'full_name', 'must_change_password', 'visibility'],
      true,
    ],
    [
      'PATCH',
      '/admin/users/{user}',
      { login_name: '{user}', source_id: 0 },
      ['full_name', 'email', 'website', 'location', 'max_repo_creation', 'admin', 'description'],
      true,
    ],
    ['PATCH', '/user/settings', {}, ['full_name', 'description', 'website', 'location', 'language', 'theme', 'hide_email']],
    ['POST', '/user/emails', { emails: ['ok@example.com'] }, ['emails']],
    ['DELETE', '/user/emails', { emails: ['none@example.com'] }, ['emails']],
    ['POST', '/users/{user}/tokens', { name: 't', scopes: ['read:user'] }, ['name', 'scopes']],
    ['POST', '/orgs', { username: 'o' }, ['username', 'full_name', 'description', 'website', 'location', 'visibility', 'repo_admin_change_team_access']],
    ['PATCH', '/orgs/{org}', {}, ['full_name', 'description', 'website', 'location', 'visibility', 'email']],
    [
      'POST',
      '/orgs/{org}/teams',
      { name: 't', permission: 'read', units: ['repo.code'] },
      ['name', 'description', 'permission', 'units', 'units_map', 'includes_all_repositories', 'can_create_org_repo'],
    ],
    ['PATCH', '/teams/{team}', { name: 'corpus' }, ['description', 'permission', 'units', 'units_map']],
    [
      'POST',
      '/user/repos',
      { name: 'r' },
      ['name', 'description', 'default_branch', 'gitignores', 'license', 'readme', 'private', 'auto_init', 'trust_model', 'object_format_name'],
    ],
    ['POST', '/orgs/{org}/repos', { name: 'r' }, ['name', 'description', 'private']],
    ['PATCH', '/repos/{repo}', {}, ['description', 'website', 'private', 'has_issues', 'default_branch', 'external_tracker', 'internal_tracker']],
    ['POST', '/repos/{repo}/branches', { new_branch_name: 'b' }, ['new_branch_name', 'old_branch_name', 'old_ref_name']],
    ['POST', '/repos/{repo}/tags', { tag_name: 't' }, ['tag_name', 'target', 'message']],
    ['POST', '/repos/{repo}/releases', { tag_name: 'rel' }, ['tag_name', 'target_commitish', 'name', 'body', 'draft', 'prerelease', 'tag_message']],
    ['POST', '/repos/{repo}/contents/f.txt', { content: 'aGk=' }, ['content', 'message', 'branch', 'new_branch', 'author', 'committer', 'dates', 'signoff']],
    ['PUT', '/repos/{repo}/contents/README.md', { content: 'aGk=', sha: 'x' }, ['sha', 'from_path', 'content']],
    ['POST', '/repos/{repo}/contents', { files: [{ operation: 'create', path: 'g.txt', content: 'aGk=' }] }, ['files', 'message', 'branch']],
    ['POST', '/repos/{repo}/statuses/{sha}', { state: 'success' }, ['state', 'context', 'description', 'target_url']],
    ['PUT', '/repos/{repo}/topics', { topics: ['a'] }, ['topics']],
    ['POST', '/repos/{repo}/keys', { title: 'k', key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKnKNXC9JQtfx7iEwdAo10UhCU0tOkgGFUPvCG3X6Z5k corpus', read_only: true }, ['title', 'key', 'read_only']],
    ['POST', '/user/keys', { title: 'k', key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKnKNXC9JQtfx7iEwdAo10UhCU0tOkgGFUPvCG3X6Z5k corpus' }, ['title', 'key']],
    ['PUT', '/repos/{repo}/collaborators/{user}', { permission: 'read' }, ['permission']],
    [
      'POST',
      '/repos/{repo}/branch_protections',
      { rule_name: 'main' },
      ['rule_name', 'branch_name', 'enable_push', 'push_whitelist_usernames', 'required_approvals', 'status_check_contexts', 'protected_file_patterns'],
    ],
    [
      'POST',
      '/repos/{repo}/tag_protections',
      { name_pattern: 'v*', whitelist_usernames: ['{user}'] },
      ['name_pattern', 'whitelist_usernames', 'whitelist_teams'],
    ],
    [
      'POST',
      '/repos/{repo}/hooks',
      { type: 'gitea', config: { url: 'http://example.com/h', content_type: 'json' } },
      ['type', 'config', 'events', 'active', 'branch_filter', 'authorization_header'],
    ],
    ['POST', '/orgs/{org}/hooks', { type: 'gitea', config: { url: 'http://example.com/h', content_type: 'json' } }, ['type', 'config', 'events']],
    ['POST', '/admin/hooks', { type: 'gitea', config: { url: 'http://example.com/h', content_type: 'json' } }, ['type', 'config', 'events', 'active'], true],
    ['POST', '/repos/{repo}/issues', { title: 't' }, ['title', 'body', 'assignee', 'assignees', 'labels', 'milestone', 'closed', 'due_date', 'ref']],
    ['PATCH', '/repos/{repo}/issues/1', {}, ['title', 'body', 'state', 'assignees', 'milestone', 'due_date', 'unset_due_date']],
    ['POST', '/repos/{repo}/issues/1/comments', { body: 'c' }, ['body']],
    ['POST', '/repos/{repo}/issues/1/labels', { labels: [1] }, ['labels']],
    ['POST', '/repos/{repo}/issues/1/times', { time: 60 }, ['time', 'created', 'user_name']],
    ['POST', '/repos/{repo}/issues/1/dependencies', { owner: '{user}', repo: '{name}', index: 1 }, ['owner', 'repo', 'index']],
    ['POST', '/repos/{repo}/issues/1/deadline', { due_date: '2030-01-01T00:00:00Z' }, ['due_date']],
    ['POST', '/repos/{repo}/issues/1/reactions', { content: '+1' }, ['content']],
    ['POST', '/repos/{repo}/labels', { name: 'l', color: '#ffffff' }, ['name', 'color', 'description', 'exclusive', 'is_archived']],
    ['POST', '/orgs/{org}/labels', { name: 'l', color: '#ffffff' }, ['name', 'color', 'description']],
    ['POST', '/repos/{repo}/milestones', { title: 'm' }, ['title', 'description', 'due_on', 'state']],
    ['POST', '/repos/{repo}/projects', { title: 'p' }, ['title', 'description', 'board_type', 'card_type']],
    ['POST', '/orgs/{org}/projects', { title: 'p' }, ['title', 'description']],
    ['PATCH', '/repos/{repo}/labels/{label}', {}, ['name', 'color', 'description', 'exclusive']],
    ['PATCH', '/repos/{repo}/milestones/{milestone}', {}, ['title', 'description', 'due_on', 'state']],
    ['PATCH', '/projects/{project}', {}, ['title', 'description']],
    ['POST', '/projects/{project}/columns', { title: 'c' }, ['title', 'color', 'sorting']],
    ['PATCH', '/projects/{project}/columns/{column}', {}, ['title', 'color', 'sorting']],
    ['PATCH', '/repos/{repo}/hooks/{hook}', {}, ['config', 'events', 'active', 'branch_filter', 'authorization_header', 'name']],
    ['POST', '/repos/{repo}/branch_protections/priority', { ids: [1] }, ['ids']],
    [
      'PATCH',
      '/repos/{repo}/branch_protections/main',
      {},
      ['priority', 'enable_push', 'push_whitelist_usernames', 'required_approvals', 'status_check_contexts', 'protected_file_patterns'],
    ],
    ['PATCH', '/repos/{repo}/tag_protections/{tagrule}', {}, ['name_pattern', 'whitelist_usernames', 'whitelist_teams']],
    ['PATCH', '/repos/{repo}/issues/comments/1', { body: 'b' }, ['body']],
    ['POST', '/repos/{repo}/issues/1/assignees', { assignees: ['{user}'] }, ['assignees']],
    ['PUT', '/repos/{repo}/issues/1/labels', { labels: [] }, ['labels']],
    ['POST', '/admin/users/{user}/orgs', { username: 'o2' }, ['username', 'full_name', 'visibility'], true],
    ['POST', '/user/hooks', { type: 'gitea', config: { url: 'http://example.com/h', content_type: 'json' } }, ['type', 'config', 'events']],
    ['POST', '/admin/badges', { slug: 'corpus-badge', description: 'd' }, ['slug', 'description', 'image_url'], true],
    ['PATCH', '/admin/badges/{badge}', {}, ['description', 'image_url'], true],
    ['POST', '/admin/users/{user}/badges', { badge_slugs: ['{badge}'] }, ['badge_slugs'], true],
    ['DELETE', '/admin/users/{user}/badges', { badge_slugs: ['{badge}'] }, ['badge_slugs'], true],
  ];

  it('should answer wrong values in JSON bodies with a clean refusal or success, never a 5xx', async () => {
    const jobs: Array<() => Promise<Probe>> = [];
    for (const [method, path, valid, fields, admin] of bodies) {
      const as = admin ? api.admin : alice.api;
      const base = JSON.parse(fill(JSON.stringify(valid))) as Record<string, unknown>;
      for (const field of fields) for (const value of BAD_VALUES) jobs.push(probe(as, method, path, { ...base, [field]: value }));
      // the whole body of the wrong shape
      for (const whole of [[base], 'text', 42, null]) jobs.push(probe(as, method, path, JSON.stringify(whole)));
      for (const raw of RAW_BODIES) jobs.push(probe(as, method, path, raw));
    }
    const probes = await run(jobs);
    expectClean(probes);
    // JSON that does not decode is Gitea's binding error, 422, on every route.
    const truncated = probes.filter((p) => / (\{|\{"title": )$/.test(p.label));
    expect(truncated).toHaveLength(bodies.length * 2);
    expect(truncated.filter((p) => p.status !== 422).map((p) => `${p.status} ${p.label}`)).toEqual([]);
  });

  const lists = [
    '/users/search',
    '/admin/users',
    '/admin/emails',
    '/admin/orgs',
    '/admin/hooks',
    '/admin/badges',
    '/admin/users/{user}/badges',
    '/orgs',
    '/user/orgs',
    '/user/repos',
    '/user/emails',
    '/users/{user}/tokens',
    '/users/{user}/repos',
    '/orgs/{org}/members',
    '/orgs/{org}/teams',
    '/orgs/{org}/teams/search',
    '/teams/{team}/members',
    '/repos/search',
    '/repos/{repo}/branches',
    '/repos/{repo}/tags',
    '/repos/{repo}/releases',
    '/repos/{repo}/commits',
    '/repos/{repo}/statuses/{sha}',
    '/repos/{repo}/commits/{sha}/statuses',
    '/repos/{repo}/commits/{sha}/status',
    '/repos/{repo}/topics',
    '/topics/search',
    '/repos/{repo}/keys',
    '/user/keys',
    '/users/{user}/keys',
    '/repos/{repo}/languages',
    '/repos/{repo}/collaborators',
    '/repos/{repo}/branch_protections',
    '/repos/{repo}/hooks',
    '/orgs/{org}/hooks',
    '/repos/{repo}/git/refs',
    '/repos/{repo}/git/trees/{sha}',
    '/repos/{repo}/activities/feeds',
    '/users/{user}/activities/feeds',
    '/orgs/{org}/activities/feeds',
    '/teams/{team}/activities/feeds',
    '/repos/issues/search',
    '/repos/{repo}/issues',
    '/repos/{repo}/issues/comments',
    '/repos/{repo}/issues/1/comments',
    '/repos/{repo}/issues/1/timeline',
    '/repos/{repo}/labels',
    '/orgs/{org}/labels',
    '/repos/{repo}/milestones',
    '/repos/{repo}/times',
    '/repos/{repo}/issues/1/times',
    '/user/times',
    '/repos/{repo}/projects',
    '/orgs/{org}/projects',
    '/repos/{repo}/issues/1/dependencies',
    '/repos/{repo}/issues/1/blocks',
    '/notifications',
    '/user/followers',
    '/repos/{repo}/issues/1/reactions',
  ];
  const queries = [
    ...BAD_QUERIES,
    'state=%01',
    'type=-x',
    'sort=--x&order=%7F',
    `since=${LONG.slice(0, 2000)}`,
    'before=1e20&since=-1',
    'labels=1e20,-1&milestones=%01',
    'uid=99999999999999999999&team_id=-1',
    'uid=3000000000&team_id=3000000000',
    'priority_owner_id=3000000000&priority_repo_id=3000000000',
    'source_id=3000000000',
    'uid=-3000000000',
    'date=9999-99-99',
    'sha=--upload-pack%3Dx&path=..%2F..%2Fetc',
    'ref=-x',
    'q[a]=1&q=2&q=3',
    'limit[]=1',
  ];

  it('should answer huge, negative and junk pages, limits and filters on lists without a 5xx', async () => {
    const jobs = lists.flatMap((path) => queries.map((q) => probe(api.admin, 'GET', `${path}?${q}`)));
    expectClean(await run(jobs));
  });

  it('should refuse over-long search keywords and keyword lists with 422, and take label and milestone lists of any length', async () => {
    const searches = ['/users/search', '/admin/users', '/admin/emails/search', '/orgs/{org}/teams/search', '/repos/search', '/topics/search', '/repos/issues/search', '/repos/{repo}/issues'];
    const longKeyword = `q=${'a'.repeat(60_000)}`;
    const manyKeywords = `q=${Array.from({ length: 600 }, (_, i) => `k${i}`).join(',')}`;
    const refused = await run(searches.map((path) => probe(api.admin, 'GET', `${path}?${longKeyword}`)));
    expectClean(refused);
    for (const p of refused) expect(p.status).toBe(422);
    const keywords = await probe(api.admin, 'GET', `/repos/search?${manyKeywords}`)();
    expect(keywords.status).toBe(422);
    const names = (prefix: string) => Array.from({ length: 40_000 }, (_, i) => `${prefix}${i}`).join(',');
    const lists = await run(
      ['/repos/{repo}/issues', '/repos/issues/search'].flatMap((path) => [
        probe(api.admin, 'GET', `${path}?labels=${names('l')}`),
        probe(api.admin, 'GET', `${path}?milestones=${names('m')}`),
      ]),
    );
    expectClean(lists);
    for (const p of lists) expect(p.status).toBe(200);
  });

  it('should answer huge pages and limits as Gitea does: an empty page, not an error', async () => {
    for (const q of ['page=1e20', 'page=99999999999999999999', 'limit=-5', 'limit=1e20'])
      expect((await alice.api.get(`/repos/${repo.full_name}/issues?${q}`)).status).toBe(200);
  });

  const idRoutes = [
    ['GET', '/teams/{id}'],
    ['GET', '/user/emails/{id}'],
    ['GET', '/admin/hooks/{id}'],
    ['GET', '/repos/{repo}/hooks/{id}'],
    ['GET', '/orgs/{org}/hooks/{id}'],
    ['DELETE', '/users/{user}/tokens/{id}'],
    ['GET', '/repos/{repo}/issues/{id}'],
    ['GET', '/repos/{repo}/issues/comments/{id}'],
    ['GET', '/repos/{repo}/issues/{id}/comments'],
    ['GET', '/repos/{repo}/labels/{id}'],
    ['GET', '/orgs/{org}/labels/{id}'],
    ['GET', '/repos/{repo}/milestones/{id}'],
    ['GET', '/projects/{id}'],
    ['GET', '/projects/{id}/columns'],
    ['DELETE', '/repos/{repo}/issues/1/times/{id}'],
    ['GET', '/repos/{repo}/issues/{id}/dependencies'],
    ['GET', '/repos/{repo}/issues/{id}/timeline'],
    ['DELETE', '/repos/{repo}/issues/1/labels/{id}'],
    ['GET', '/repos/{repo}/hooks/{id}/deliveries'],
    ['GET', '/repositories/{id}'],
    ['GET', '/teams/{id}/activities/feeds'],
    ['GET', '/repos/{repo}/issues/{id}/assets'],
    ['GET', '/repos/{repo}/releases/{id}'],
    ['PATCH', '/repos/{repo}/releases/{id}'],
    ['GET', '/repos/{repo}/releases/{id}/assets'],
    ['DELETE', '/repos/{repo}/releases/{id}'],
    ['PATCH', '/repos/{repo}/issues/{id}'],
    ['POST', '/repos/{repo}/issues/{id}/comments'],
    ['GET', '/repos/{repo}/pulls/{id}'],
    ['PUT', '/teams/{team}/repos/{repo}'],
    ['GET', '/repos/{repo}/keys/{id}'],
    ['DELETE', '/repos/{repo}/keys/{id}'],
    ['GET', '/user/keys/{id}'],
    ['DELETE', '/user/keys/{id}'],
  ];

  it('should answer huge, negative and junk ids in paths with a 404 or a 422, never a 5xx', async () => {
    const jobs = idRoutes.flatMap(([method, path]) =>
      BAD_IDS.map((id) => probe(api.admin, method!, path!.replace('{id}', id), method === 'GET' || method === 'DELETE' ? undefined : { body: 'x' })),
    );
    const probes = await run(jobs);
    expectClean(probes);
    expect(probes.filter((p) => p.status !== 404 && p.status !== 422).map((p) => `${p.status} ${p.label}`)).toEqual([]);
    expect(probes.filter((p) => p.status < 400 && /99999999999999999999|-1\b|1e20/.test(p.label)).map((p) => p.label)).toEqual([]);
  });

  const names = [CONTROL, LONG, '..', '.git', '-x', '--upload-pack=x', '%2E%2E', 'a%2Fb', ' '].map(encodeURIComponent);
  const nameRoutes = [
    '/users/{n}',
    '/users/{n}/repos',
    '/orgs/{n}',
    '/orgs/{n}/teams',
    '/repos/{n}/{n}',
    '/repos/{user}/{n}',
    '/repos/{user}/{n}/issues',
    '/users/{n}/tokens',
    '/repos/{repo}/collaborators/{n}',
    '/repos/{repo}/collaborators/{n}/permission',
    '/repos/{repo}/branch_protections/{n}',
    '/repos/{repo}/topics/{n}',
    '/orgs/{org}/members/{n}',
    '/teams/{team}/members/{n}',
    '/users/{n}/activities/feeds',
    '/admin/users/{n}/orgs',
    '/admin/users/{n}/badges',
    '/repos/{user}/{n}/licenses',
    '/gitignore/templates/{n}',
    '/licenses/{n}',
  ];

  it('should answer control characters, over-long names and dot names in paths without a 5xx', async () => {
    const jobs = nameRoutes.flatMap((path) =>
      names.flatMap((n) => [probe(api.admin, 'GET', path.replaceAll('{n}', n)), probe(api.admin, 'PUT', path.replaceAll('{n}', n), {})]),
    );
    expectClean(await run(jobs));
  });

  const refRoutes = [
    '/repos/{repo}/branches/{ref}',
    '/repos/{repo}/tags/{ref}',
    '/repos/{repo}/commits/{ref}/status',
    '/repos/{repo}/commits/{ref}/statuses',
    '/repos/{repo}/git/commits/{ref}',
    '/repos/{repo}/git/trees/{ref}',
    '/repos/{repo}/git/blobs/{ref}',
    '/repos/{repo}/git/refs/{ref}',
    '/repos/{repo}/git/tags/{ref}',
    '/repos/{repo}/compare/{ref}...{branch}',
    '/repos/{repo}/compare/{branch}...{ref}',
    '/repos/{repo}/contents?ref={ref}',
    '/repos/{repo}/contents/README.md?ref={ref}',
    '/repos/{repo}/raw/README.md?ref={ref}',
    '/repos/{repo}/raw/{ref}/README.md',
    '/repos/{repo}/media/{ref}/README.md',
    '/repos/{repo}/contents/{ref}',
    '/repos/{repo}/raw/{ref}',
    '/repos/{repo}/contents-ext/{ref}',
    '/repos/{repo}/commits?sha={ref}',
    '/repos/{repo}/commits?path={ref}',
    '/repos/{repo}/statuses/{ref}',
    '/repos/{repo}/git/commits/{ref}.diff',
    '/repos/{repo}/editorconfig/{ref}',
    '/repos/{repo}/editorconfig/README.md?ref={ref}',
    '/repos/{repo}/git/notes/{ref}',
    '/repos/{repo}/releases/tags/{ref}',
    '/repos/{repo}/archive/{ref}.tar.gz',
    '/repos/{repo}/archive/{ref}.bundle',
  ];

  it('should answer option-looking refs and ../ paths with a 404 or a 422, never reaching git as an option', async () => {
    const jobs = refRoutes.flatMap((path) => BAD_REFS.map((ref) => probe(alice.api, 'GET', path.replace('{ref}', ref))));
    const writes = ['..%2F..%2Fescape.txt', '.git%2Fconfig', 'a%2F..%2F..%2Fb', '%01.txt', '-x', '--upload-pack=x'].flatMap((p) => [
      probe(alice.api, 'POST', `/repos/{repo}/contents/${p}`, { content: 'aGk=' }),
      probe(alice.api, 'DELETE', `/repos/{repo}/contents/${p}`, { sha: sha }),
      probe(alice.api, 'POST', '/repos/{repo}/contents', {
        files: [{ operation: 'create', path: decodeURIComponent(p), content: 'aGk=' }],
      }),
    ]);
    const probes = await run([...jobs, ...writes]);
    expectClean(probes);
    // A long ref the gateway took must not be too long for the service it goes on to (an empty 431).
    expect(probes.filter((p) => p.status === 431).map((p) => p.label)).toEqual([]);
    // Statuses are rows keyed by any text, and raw reads an unknown ref from the default branch, as
    // Gitea does; a file may be named `-x` (a path is no ref), but no path may leave the tree.
    const admitted = (p: Probe, i: number) =>
      p.status < 400 &&
      (i < jobs.length ? /upload-pack|\.\.%2F/.test(p.label) && !/\/statuses\/|raw\/README\.md\?ref=/.test(p.label) : /\.\.|\.git/.test(p.label));
    expect(probes.filter(admitted).map((p) => p.label)).toEqual([]);
  });

  it('should refuse option-looking refs and odd file paths in bodies with a 4xx, never a 5xx', async () => {
    const refs = ['--upload-pack=x', '-x', '../../etc', 'a..b', 'HEAD@{-1}', '\u0001', ' ', 'refs/heads/../x', 'x.lock', 'a/', LONG.slice(0, 300)];
    const paths = ['../x', 'a/../../x', '.git/config', '/abs', 'a//b', 'a/', '', '\u0001x', `${'d/'.repeat(3000)}x`, LONG];
    const write = (body: Record<string, unknown>) => ({ content: 'aGk=', ...body });
    const jobs = [
      ...refs.flatMap((ref) => [
        probe(alice.api, 'POST', '/repos/{repo}/branches', { new_branch_name: ref }),
        probe(alice.api, 'POST', '/repos/{repo}/branches', { new_branch_name: 'ok-from', old_ref_name: ref }),
        probe(alice.api, 'POST', '/repos/{repo}/tags', { tag_name: ref }),
        probe(alice.api, 'POST', '/repos/{repo}/tags', { tag_name: 'ok-tag', target: ref }),
        probe(alice.api, 'POST', '/repos/{repo}/releases', { tag_name: ref }),
        probe(alice.api, 'POST', '/repos/{repo}/releases', { tag_name: 'ok-release', target_commitish: ref }),
        probe(alice.api, 'POST', '/repos/{repo}/contents/r.txt', write({ branch: ref })),
        probe(alice.api, 'POST', '/repos/{repo}/contents/r.txt', write({ new_branch: ref })),
        probe(alice.api, 'PATCH', '/repos/{repo}', { default_branch: ref }),
        probe(alice.api, 'POST', '/repos/{repo}/branch_protections', { rule_name: ref }),
      ]),
      ...paths.flatMap((path) => [
        probe(alice.api, 'POST', '/repos/{repo}/contents', {
          files: [{ operation: 'create', path, content: 'aGk=' }],
        }),
        probe(alice.api, 'POST', '/repos/{repo}/contents', {
          files: [{ operation: 'update', path: 'README.md', from_path: path, content: 'aGk=' }],
        }),
        probe(alice.api, 'POST', '/repos/{repo}/contents', { files: [{ operation: 'delete', path }] }),
      ]),
    ];
    const probes = await run(jobs);
    expectClean(probes);
    const escaped = probes.filter((p) => p.status < 400 && /upload-pack|\.\.\/|\.git\/|"\/abs"|"-x"/.test(p.label) && !/branch_protections/.test(p.label));
    expect(escaped.map((p) => `${p.status} ${p.label}`)).toEqual([]);
  });

  it('should answer odd credentials and sudo with 401, 403 or 404, never a 5xx', async () => {
    const odd = [CONTROL, LONG, '', ':', '\u00ff\u0100', '-x'];
    const jobs = [
      ...odd.flatMap((v) => [
        probe(api.as({ basic: [v, v] }), 'GET', '/user'),
        probe(api.as({ basic: [alice.username, v] }), 'GET', '/user'),
        probe(api.as({ token: encodeURIComponent(v) }), 'GET', '/user'),
        probe(api.admin, 'GET', `/user?sudo=${encodeURIComponent(v)}`),
      ]),
      probe(api.as({ token: 'f'.repeat(40) }), 'GET', '/user'),
    ];
    const probes = await run(jobs);
    expectClean(probes);
    expect(probes.filter((p) => p.status === 200 && !p.label.includes('sudo=')).map((p) => p.label)).toEqual([]);
  });

  it("should answer a request line over Go's 1 MiB header limit as Go does: 431 in plain text", async () => {
    const res = await fetch(`${layout.apiUrl}/users/${'x'.repeat(1_100_000)}`);
    expect(res.status).toBe(431);
    expect(await res.text()).toBe('431 Request Header Fields Too Large');
    expect((await api.anonymous.get(`/users/${'x'.repeat(20_000)}`)).status).toBe(404);
  });

  it('should answer smart HTTP with odd service names and refs without a 5xx', async () => {
    const auth = {
      authorization: `Basic ${Buffer.from(`${alice.username}:${alice.password}`).toString('base64')}`,
    };
    const base = `${layout.rootUrl}${repo.full_name}`;
    const urls = [
      ...['git-upload-pack%01', '--upload-pack=x', '-x', 'git-foo', 'git-receive-pack%7F', LONG, '', 'git-upload-pack&service=git-receive-pack', '..%2Fx'].map(
        (s) => `${base}.git/info/refs?service=${s}`,
      ),
      `${base}.git/info/refs?service[]=git-upload-pack`,
      `${layout.rootUrl}${alice.username}/-x.git/info/refs?service=git-upload-pack`,
      `${layout.rootUrl}${alice.username}/${encodeURIComponent(CONTROL)}.git/info/refs?service=git-upload-pack`,
      `${layout.rootUrl}..%2F${alice.username}/x.git/info/refs?service=git-upload-pack`,
    ];
    const statuses = await Promise.all(urls.map(async (u) => [u.slice(0, 150), (await fetch(u, { headers: auth })).status] as const));
    const posts = await Promise.all(
      ['git-upload-pack', 'git-receive-pack'].map(async (svc) => {
        const res = await fetch(`${base}.git/${svc}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': `application/x-${svc}-request` },
          body: `0032want ${'z'.repeat(40)}\n\u0001\u00010000`,
        });
        return [svc, res.status] as const;
      }),
    );
    expect([...statuses, ...posts].filter(([, s]) => s >= 500)).toEqual([]);
  });
});
