import type { Badge, CreateBadgeOption, EditBadgeOption, UserBadgeOption } from '@gitforge/contracts';
import { tokenApi } from './support/accounts.js';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { ADMIN, Layout, layoutsUnderTest } from './support/layout.js';
import { serviceQuery } from './support/repo-disk.js';

describe.each(layoutsUnderTest())('user badges (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    alice = await createUser(api, 'alice');
  });

  afterAll(async () => {
    await layout?.stop();
  });

  const slug = (): string => uniqueName('badge');
  const createBadge = async (body: Partial<CreateBadgeOption> = {}): Promise<Badge> => {
    const s = body.slug ?? slug();
    const res = await api.admin.post<Badge>('/admin/badges', {
      slug: s,
      description: `the ${s} badge`,
      image_url: `https://img.example.com/${s}.png`,
      ...body,
    } satisfies CreateBadgeOption);
    expect(res.status).toBe(201);
    return res.body;
  };
  const badgesOf = async (user: TestUser): Promise<string[]> => {
    const res = await api.admin.get<Badge[]>(`/admin/users/${user.username}/badges`);
    expect(res.status).toBe(200);
    return res.body.map((b) => b.slug);
  };
  const give = (user: TestUser, badge_slugs: string[]) =>
    api.admin.post(`/admin/users/${user.username}/badges`, { badge_slugs } satisfies UserBadgeOption);
  const take = (user: TestUser, badge_slugs: string[]) =>
    api.admin.delete(`/admin/users/${user.username}/badges`, { badge_slugs } satisfies UserBadgeOption);

  describe('the catalogue (gitforge extension)', () => {
    it('should create a badge and answer it in the Badge shape', async () => {
      const s = slug();
      const res = await api.admin.post<Badge>('/admin/badges', {
        slug: s,
        description: 'First pull request merged',
        image_url: 'https://img.example.com/first.png',
      } satisfies CreateBadgeOption);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        slug: s,
        description: 'First pull request merged',
        image_url: 'https://img.example.com/first.png',
      });
      const plain = await createBadge({ image_url: undefined });
      expect(plain.image_url).toBe('');
    });

    it('should refuse a slug in use with 409', async () => {
      const badge = await createBadge();
      const res = await api.admin.post('/admin/badges', {
        slug: badge.slug,
        description: 'again',
      } satisfies CreateBadgeOption);
      expect(res.status).toBe(409);
      expect(res.body).toEqual(giteaError(`badge already exists [slug: ${badge.slug}]`));
    });

    it.each([
      [{ description: 'd' }, '[Slug]: Required'],
      [{ slug: '', description: 'd' }, '[Slug]: Required'],
      [{ slug: 'has space', description: 'd' }, '[Slug]: BadgeSlug'],
      [{ slug: '..', description: 'd' }, '[Slug]: BadgeSlug'],
      [{ slug: 'a/b', description: 'd' }, '[Slug]: BadgeSlug'],
      [{ slug: 'x'.repeat(101), description: 'd' }, '[Slug]: MaxSize'],
      [{ slug: 42, description: 'd' }, '[Slug]: String'],
      [{ slug: 'ok-slug' }, '[Description]: Required'],
      [{ slug: 'ok-slug', description: 'd', image_url: 'ftp://example.com/x.png' }, '[ImageUrl]: Url'],
      [{ slug: 'ok-slug', description: 'd', image_url: 'not a url' }, '[ImageUrl]: Url'],
    ])('should refuse the create body %j with 422 %s', async (body, message) => {
      const res = await api.admin.post('/admin/badges', body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(giteaError(message));
    });

    it('should list the catalogue oldest first, paged, with X-Total-Count and Link', async () => {
      const [a, b] = [await createBadge(), await createBadge()];
      const all = await api.admin.get<Badge[]>('/admin/badges?limit=50');
      expect(all.status).toBe(200);
      const total = Number(all.headers.get('x-total-count'));
      expect(total).toBeGreaterThanOrEqual(2);
      const ids = all.body.map((x) => x.id);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect(all.body.slice(-2)).toEqual([a, b]);
      const last = await api.admin.get<Badge[]>(`/admin/badges?limit=1&page=${total}`);
      expect(last.body).toEqual([b]);
      expect(last.headers.get('x-total-count')).toBe(String(total));
      expect(last.headers.get('link')).toContain('rel="first"');
    });

    it('should edit the description and image, the slug staying', async () => {
      const badge = await createBadge();
      const res = await api.admin.patch<Badge>(`/admin/badges/${badge.slug}`, {
        description: 'reworded',
      } satisfies EditBadgeOption);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...badge, description: 'reworded' });
      const cleared = await api.admin.patch<Badge>(`/admin/badges/${badge.slug}`, {
        image_url: '',
      } satisfies EditBadgeOption);
      expect(cleared.body).toEqual({ ...badge, description: 'reworded', image_url: '' });
      const ignored = await api.admin.patch<Badge>(`/admin/badges/${badge.slug}`, { slug: 'renamed' });
      expect(ignored.body.slug).toBe(badge.slug);
    });

    it('should refuse bad edits with 422 and unknown badges with 404', async () => {
      const badge = await createBadge();
      for (const body of [{ description: '' }, { description: 7 }, { image_url: 'javascript:alert(1)' }]) {
        const res = await api.admin.patch(`/admin/badges/${badge.slug}`, body);
        expect(res.status).toBe(422);
        expect(res.body).toEqual(giteaError());
      }
      const unknown = await api.admin.patch('/admin/badges/no-such-badge', { description: 'x' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(giteaError('badge does not exist [slug: no-such-badge]'));
      expect((await api.admin.delete('/admin/badges/no-such-badge')).status).toBe(404);
      expect((await api.admin.delete(`/admin/badges/${encodeURIComponent('not a slug')}`)).status).toBe(404);
    });
  });

  describe("a user's badges (Gitea's routes)", () => {
    let bob: TestUser;
    let first: Badge;
    let second: Badge;
    let third: Badge;

    beforeAll(async () => {
      bob = await createUser(api, 'bob');
      [first, second, third] = [await createBadge(), await createBadge(), await createBadge()];
    });

    it('should start with none, with X-Total-Count 0', async () => {
      const res = await api.admin.get<Badge[]>(`/admin/users/${bob.username}/badges`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      expect(res.headers.get('x-total-count')).toBe('0');
    });

    it('should give badges (204) and list them whole in the Badge shape, with X-Total-Count and no Link', async () => {
      const res = await give(bob, [second.slug, first.slug]);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const list = await api.admin.get<Badge[]>(`/admin/users/${bob.username}/badges?limit=1`);
      expect(list.status).toBe(200);
      expect(list.body).toEqual([second, first]);
      expect(Object.keys(list.body[0]!).sort()).toEqual(['description', 'id', 'image_url', 'slug']);
      expect(list.headers.get('x-total-count')).toBe('2');
      expect(list.headers.get('link')).toBeNull();
    });

    it('should answer 409 for a badge the user has, and give none of the others', async () => {
      const res = await give(bob, [third.slug, first.slug]);
      expect(res.status).toBe(409);
      expect(res.body).toEqual(
        giteaError(`user badge already exists [user_id: ${bob.id}, badge_id: ${first.id}]`),
      );
      expect(await badgesOf(bob)).toEqual([second.slug, first.slug]);
    });

    it('should answer 404 naming an unknown slug, and give none of the others', async () => {
      const res = await give(bob, [third.slug, 'no-such-badge']);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(giteaError('badge does not exist [slug: no-such-badge]'));
      expect(await badgesOf(bob)).toEqual([second.slug, first.slug]);
    });

    it('should change nothing for an empty or absent list', async () => {
      expect((await give(bob, [])).status).toBe(204);
      expect((await api.admin.post(`/admin/users/${bob.username}/badges`, {})).status).toBe(204);
      expect((await api.admin.delete(`/admin/users/${bob.username}/badges`)).status).toBe(204);
      expect(await badgesOf(bob)).toEqual([second.slug, first.slug]);
    });

    it('should take badges away (204), ignoring slugs the user lacks or no badge has', async () => {
      const res = await take(bob, [second.slug, third.slug, 'no-such-badge']);
      expect(res.status).toBe(204);
      expect(await badgesOf(bob)).toEqual([first.slug]);
    });

    it.each([
      [{ badge_slugs: 'x' }, '[BadgeSlugs]: Array'],
      [{ badge_slugs: [1] }, '[BadgeSlugs]: String'],
      [{ badge_slugs: [['x']] }, '[BadgeSlugs]: String'],
      [{ badge_slugs: Array.from({ length: 101 }, (_, i) => `s${i}`) }, '[BadgeSlugs]: MaxSize'],
    ])('should refuse the body %j with 422 %s on POST and DELETE', async (body, message) => {
      for (const method of ['POST', 'DELETE']) {
        const res = await api.admin.request(method, `/admin/users/${bob.username}/badges`, body);
        expect(res.status).toBe(422);
        expect(res.body).toEqual(giteaError(message));
      }
      expect(await badgesOf(bob)).toEqual([first.slug]);
    });

    it('should take a badge deleted from the catalogue away from everyone who had it', async () => {
      const carol = await createUser(api, 'carol');
      const shared = await createBadge();
      expect((await give(bob, [shared.slug])).status).toBe(204);
      expect((await give(carol, [shared.slug, third.slug])).status).toBe(204);
      expect((await api.admin.delete(`/admin/badges/${shared.slug}`)).status).toBe(204);
      expect(await badgesOf(bob)).toEqual([first.slug]);
      expect(await badgesOf(carol)).toEqual([third.slug]);
      const catalogue = await api.admin.get<Badge[]>('/admin/badges?limit=50');
      expect(catalogue.body.map((b) => b.slug)).not.toContain(shared.slug);
      // The slug is free again, and the new badge is nobody's.
      await createBadge({ slug: shared.slug });
      expect(await badgesOf(bob)).toEqual([first.slug]);
    });

    it("should delete a deleted user's badges with the account", async () => {
      const dave = await createUser(api, 'dave');
      expect((await give(dave, [first.slug, third.slug])).status).toBe(204);
      expect((await api.admin.delete(`/admin/users/${dave.username}`)).status).toBe(204);
      const rows = await serviceQuery<{ n: number | string }>(
        layout,
        'org',
        {
          sqlite: 'SELECT count(*) AS n FROM user_badge WHERE user_id = ?',
          pg: 'SELECT count(*) AS n FROM gitforge_org.user_badge WHERE user_id = $1',
        },
        [dave.id],
      );
      expect(Number(rows[0]!.n)).toBe(0);
      expect(await badgesOf(bob)).toEqual([first.slug]);
    });

    it('should follow a renamed user to the new name', async () => {
      const erin = await createUser(api, 'erin');
      expect((await give(erin, [third.slug])).status).toBe(204);
      const renamed = uniqueName('erin');
      expect(
        (await api.admin.post(`/admin/users/${erin.username}/rename`, { new_username: renamed })).status,
      ).toBe(204);
      const res = await api.admin.get<Badge[]>(`/admin/users/${erin.username}/badges`);
      expect(res.status).toBe(200);
      expect(res.body.map((b) => b.slug)).toEqual([third.slug]);
    });

    it('should answer 404 for an unknown user', async () => {
      for (const [method, body] of [
        ['GET', undefined],
        ['POST', { badge_slugs: [first.slug] }],
        ['DELETE', { badge_slugs: [first.slug] }],
      ] as const) {
        const res = await api.admin.request(method, '/admin/users/no-such-user-anywhere/badges', body);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(giteaError('user redirect does not exist [name: no-such-user-anywhere]'));
      }
    });
  });

  describe('who may', () => {
    const routes: Array<[string, string, unknown]> = [
      ['GET', '/admin/badges', undefined],
      ['POST', '/admin/badges', { slug: 'denied', description: 'd' }],
      ['PATCH', '/admin/badges/denied', { description: 'd' }],
      ['DELETE', '/admin/badges/denied', undefined],
      ['GET', '/admin/users/{user}/badges', undefined],
      ['POST', '/admin/users/{user}/badges', { badge_slugs: ['denied'] }],
      ['DELETE', '/admin/users/{user}/badges', { badge_slugs: ['denied'] }],
    ];

    it.each(routes)(
      'should answer %s %s with 403 to non-admins and 401 anonymously',
      async (method, path, body) => {
        const p = path.replace('{user}', alice.username);
        const denied = await alice.api.request(method, p, body);
        expect(denied.status).toBe(403);
        expect(denied.body).toEqual(giteaError('user should be the site admin'));
        const anonymous = await api.anonymous.request(method, p, body);
        expect(anonymous.status).toBe(401);
        expect((anonymous.body as { message: string }).message).toBe('token is required');
      },
    );

    it("should need the admin scope on a site administrator's token", async () => {
      const root: TestUser = {
        ...ADMIN,
        id: (await api.admin.get<{ id: number }>('/user')).body.id,
        api: api.admin,
      };
      const readUser = await tokenApi(root, ['read:user']);
      expect((await readUser.get('/admin/badges')).status).toBe(403);
      expect((await readUser.get(`/admin/users/${alice.username}/badges`)).status).toBe(403);
      const readAdmin = await tokenApi(root, ['read:admin']);
      expect((await readAdmin.get(`/admin/users/${alice.username}/badges`)).status).toBe(200);
      expect((await readAdmin.post('/admin/badges', { slug: slug(), description: 'd' })).status).toBe(403);
    });
  });

  it("should describe Gitea's badge routes and definitions in the OpenAPI document, the catalogue as gitforge's", async () => {
    type Op = {
      operationId: string;
      tags: string[];
      requestBody?: unknown;
      responses: Record<string, unknown>;
    };
    const doc = (await (await fetch(`${layout.rootUrl}swagger.v1.json`)).json()) as {
      paths: Record<string, Record<string, Op>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    const user = doc.paths['/admin/users/{username}/badges']!;
    expect([user.get, user.post, user.delete].map((op) => [op!.operationId, op!.tags])).toEqual([
      ['adminListUserBadges', ['admin']],
      ['adminAddUserBadges', ['admin']],
      ['adminDeleteUserBadges', ['admin']],
    ]);
    const body = {
      content: { 'application/json': { schema: { $ref: '#/components/schemas/UserBadgeOption' } } },
    };
    expect(user.post!.requestBody).toMatchObject(body);
    expect(user.delete!.requestBody).toMatchObject(body);
    expect(user.get!.responses['200']).toMatchObject({
      content: {
        'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Badge' } } },
      },
    });
    expect(Object.keys(doc.components.schemas.Badge!.properties!).sort()).toEqual([
      'description',
      'id',
      'image_url',
      'slug',
    ]);
    expect(Object.keys(doc.components.schemas.UserBadgeOption!.properties!)).toEqual(['badge_slugs']);
    for (const op of [
      doc.paths['/admin/badges']!.get,
      doc.paths['/admin/badges']!.post,
      doc.paths['/admin/badges/{slug}']!.patch,
    ])
      expect(op!.tags).toEqual(['gitforge']);
  });
});
