import type { EditOrgOption, Organization, Repository, User } from '@gitforge/contracts';
import { addToTeam, createOrg, createTeam } from './support/accounts.js';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';

describe.each(layoutsUnderTest())('organizations through the gateway (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    layout = await Layout.start(kind, { env: { GITFORGE_AUTH_CACHE_TTL_MS: '200' } });
    api = new Api(layout);
    owner = await createUser(api, 'owner');
    member = await createUser(api, 'member');
    outsider = await createUser(api, 'outsider');
  });

  afterAll(async () => {
    await layout?.stop();
  });

  /** An organization of `owner` with `member` in one of its teams. */
  async function orgWithMember(visibility: 'public' | 'limited' | 'private' = 'public'): Promise<Organization> {
    const org = await createOrg(owner.api, { visibility });
    const team = await createTeam(owner.api, org.name);
    await addToTeam(owner.api, team.id, member);
    return org;
  }

  describe('visibility', () => {
    const callers = (): Record<string, Api> => ({
      anonymous: api.anonymous,
      'a signed-in outsider': outsider.api,
      'a member': member.api,
      'a site admin': api.admin,
    });

    it.each([
      ['public', 'anonymous', 200],
      ['public', 'a signed-in outsider', 200],
      ['limited', 'anonymous', 404],
      ['limited', 'a signed-in outsider', 200],
      ['limited', 'a member', 200],
      ['private', 'anonymous', 404],
      ['private', 'a signed-in outsider', 404],
      ['private', 'a member', 200],
      ['private', 'a site admin', 200],
    ] as const)('should show a %s organization to %s with %i', async (visibility, caller, status) => {
      const org = await orgWithMember(visibility);
      const res = await callers()[caller]!.get<Organization>(`/orgs/${org.name}`);
      expect(res.status).toBe(status);
      if (status === 200) expect(res.body).toMatchObject({ name: org.name, visibility });
      expect((await callers()[caller]!.get<Repository[]>(`/orgs/${org.name}/repos`)).status).toBe(status);
    });

    it('should list organizations by what the caller may see', async () => {
      const prefix = uniqueName('vis');
      const names = { public: `${prefix}a`, limited: `${prefix}b`, private: `${prefix}c` };
      for (const [visibility, username] of Object.entries(names)) {
        await createOrg(owner.api, { username, visibility: visibility as 'public' });
      }
      const listed = async (caller: Api) =>
        (await caller.get<Organization[]>('/orgs?limit=50')).body.map((o) => o.name).filter((n) => n.startsWith(prefix));
      expect(await listed(api.anonymous)).toEqual([names.public]);
      expect(await listed(outsider.api)).toEqual([names.public, names.limited]);
      expect(await listed(api.admin)).toEqual([names.public, names.limited, names.private]);
      const page = await api.anonymous.get<Organization[]>('/orgs?limit=1');
      expect(page.body).toHaveLength(1);
      expect(Number(page.headers.get('x-total-count'))).toBeGreaterThan(1);
      expect(page.headers.get('link')).toContain('rel="next"');
    });

    it('should answer 404 for unknown organizations and for users named as organizations', async () => {
      expect((await api.anonymous.get('/orgs/no-such-org-anywhere')).status).toBe(404);
      expect((await api.admin.get(`/orgs/${owner.username}`)).status).toBe(404);
    });
  });

  describe('edit and delete', () => {
    it('should let owners edit the organization (200), changing only the fields sent', async () => {
      const org = await createOrg(owner.api, { full_name: 'Before', location: 'Paris', description: 'first' });
      const res = await owner.api.patch<Organization>(`/orgs/${org.name}`, {
        description: 'after',
        website: 'https://example.com',
        visibility: 'limited',
        repo_admin_change_team_access: true,
      } satisfies EditOrgOption);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: org.name,
        full_name: 'Before',
        location: 'Paris',
        description: 'after',
        website: 'https://example.com',
        visibility: 'limited',
        repo_admin_change_team_access: true,
      });
      const back = await owner.api.patch<Organization>(`/orgs/${org.name}`, { visibility: 'public', email: 'org@example.com', full_name: '' });
      expect(back.body).toMatchObject({ visibility: 'public', email: 'org@example.com', full_name: '', location: 'Paris', repo_admin_change_team_access: true });
      const cleared = await owner.api.patch<Organization>(`/orgs/${org.name}`, { email: '' });
      expect(cleared.body).toMatchObject({ email: '', description: 'after' });
    });

    it('should refuse an invalid e-mail address (422)', async () => {
      const org = await createOrg(owner.api);
      const res = await owner.api.patch(`/orgs/${org.name}`, { email: 'bad' });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(giteaError(/e-mail/));
    });

    it('should refuse to edit for non-owners (403), anonymous callers (401) and unknown names (404)', async () => {
      const org = await orgWithMember();
      expect((await member.api.patch(`/orgs/${org.name}`, { description: 'x' })).body).toEqual(giteaError('Must be an organization owner'));
      expect((await outsider.api.patch(`/orgs/${org.name}`, { description: 'x' })).status).toBe(403);
      expect((await api.anonymous.patch(`/orgs/${org.name}`, { description: 'x' })).status).toBe(401);
      expect((await owner.api.patch('/orgs/no-such-org-anywhere', { description: 'x' })).status).toBe(404);
      expect((await api.admin.patch<Organization>(`/orgs/${org.name}`, { description: 'by admin' })).body.description).toBe('by admin');
    });

    it('should delete an organization without repositories (204) and refuse one with repositories (422)', async () => {
      const org = await orgWithMember();
      expect((await owner.api.post(`/orgs/${org.name}/repos`, { name: 'keep' })).status).toBe(201);
      const refused = await owner.api.delete(`/orgs/${org.name}`);
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(giteaError(`user still has ownership of repositories [uid: ${org.id}]`));
      expect((await member.api.delete(`/orgs/${org.name}`)).status).toBe(403);
      expect((await owner.api.delete(`/repos/${org.name}/keep`)).status).toBe(204);
      expect((await owner.api.delete(`/orgs/${org.name}`)).status).toBe(204);
      expect((await owner.api.get(`/orgs/${org.name}`)).status).toBe(404);
      expect((await member.api.get<Organization[]>('/user/orgs')).body.map((o) => o.name)).not.toContain(org.name);
      expect((await owner.api.delete(`/orgs/${org.name}`)).status).toBe(404);
    });

    it('should refuse organizations to users not allowed to create them (403)', async () => {
      const nope = await createUser(api, 'nope');
      await api.admin.patch(`/admin/users/${nope.username}`, { login_name: nope.username, allow_create_organization: false });
      expect((await nope.api.post('/orgs', { username: uniqueName('o') })).body).toEqual(giteaError('not allowed to create org'));
    });
  });

  describe('membership lists', () => {
    it('should list the caller its organizations, and others only public memberships of public organizations', async () => {
      const open = await orgWithMember('public');
      const closed = await orgWithMember('private');
      const mine = await member.api.get<Organization[]>('/user/orgs');
      expect(mine.body.map((o) => o.name)).toEqual(expect.arrayContaining([open.name, closed.name]));
      const seen = async (caller: Api) => (await caller.get<Organization[]>(`/users/${member.username}/orgs`)).body.map((o) => o.name);
      expect(await seen(outsider.api)).not.toContain(open.name);
      expect((await member.api.put(`/orgs/${open.name}/public_members/${member.username}`)).status).toBe(204);
      expect((await member.api.put(`/orgs/${closed.name}/public_members/${member.username}`)).status).toBe(204);
      expect(await seen(outsider.api)).toContain(open.name);
      expect(await seen(outsider.api)).not.toContain(closed.name);
      expect(await seen(api.admin)).toEqual(expect.arrayContaining([open.name, closed.name]));
      expect((await api.anonymous.get(`/users/${member.username}/orgs`)).status).toBe(401);
      expect((await outsider.api.get('/users/no-such-user-anywhere/orgs')).status).toBe(404);
    });
  });

  describe('members', () => {
    it('should list every member to members and public members to others', async () => {
      const org = await orgWithMember();
      const all = await member.api.get<User[]>(`/orgs/${org.name}/members`);
      expect(all.status).toBe(200);
      expect(all.body.map((u) => u.login).sort()).toEqual([member.username, owner.username].sort());
      expect(all.headers.get('x-total-count')).toBe('2');
      // Paged with Link, as Gitea's listMembers sets it.
      expect((await member.api.get(`/orgs/${org.name}/members?limit=1`)).headers.get('link')).toContain('rel="next"');
      expect((await outsider.api.get<User[]>(`/orgs/${org.name}/members`)).body).toEqual([]);
      await owner.api.put(`/orgs/${org.name}/public_members/${owner.username}`);
      expect((await outsider.api.get<User[]>(`/orgs/${org.name}/members`)).body.map((u) => u.login)).toEqual([owner.username]);
      expect((await api.anonymous.get<User[]>(`/orgs/${org.name}/public_members`)).body.map((u) => u.login)).toEqual([owner.username]);
      expect((await api.anonymous.get(`/orgs/${org.name}/members`)).status).toBe(401);
    });

    it('should hide the members of an organization the caller may not see (404)', async () => {
      const org = await orgWithMember('private');
      expect((await outsider.api.get(`/orgs/${org.name}/members`)).status).toBe(404);
      expect((await api.anonymous.get(`/orgs/${org.name}/public_members`)).status).toBe(404);
      expect((await outsider.api.get(`/orgs/${org.name}/members/${member.username}`)).status).toBe(404);
    });

    it('should answer member checks with 204, 404 or a 303 to the public member check', async () => {
      const org = await orgWithMember();
      expect((await member.api.get(`/orgs/${org.name}/members/${owner.username}`)).status).toBe(204);
      expect((await member.api.get(`/orgs/${org.name}/members/${outsider.username}`)).status).toBe(404);
      expect((await api.admin.get(`/orgs/${org.name}/members/${member.username}`)).status).toBe(204);
      const redirect = await fetch(`${layout.apiUrl}/orgs/${org.name}/members/${member.username}`, {
        headers: { authorization: `Basic ${Buffer.from(`${outsider.username}:${outsider.password}`).toString('base64')}` },
        redirect: 'manual',
      });
      expect(redirect.status).toBe(303);
      expect(redirect.headers.get('location')).toBe(`/api/v1/orgs/${org.name}/public_members/${member.username}`);
      expect((await outsider.api.get(`/orgs/${org.name}/members/${outsider.username}`)).status).toBe(404);
      expect((await member.api.get(`/orgs/${org.name}/members/no-such-user-anywhere`)).status).toBe(404);
      expect((await api.anonymous.get(`/orgs/${org.name}/members/${member.username}`)).status).toBe(401);
    });

    it("should publicize and conceal the caller's own membership, and anyone's for owners (Gitea's checkCanChangeOrgUserStatus)", async () => {
      const org = await orgWithMember();
      expect((await api.anonymous.get(`/orgs/${org.name}/public_members/${member.username}`)).status).toBe(404);
      expect((await member.api.put(`/orgs/${org.name}/public_members/${member.username}`)).status).toBe(204);
      expect((await api.anonymous.get(`/orgs/${org.name}/public_members/${member.username}`)).status).toBe(204);
      expect((await owner.api.delete(`/orgs/${org.name}/public_members/${member.username}`)).status).toBe(204);
      expect((await api.anonymous.get(`/orgs/${org.name}/public_members/${member.username}`)).status).toBe(404);
      expect((await owner.api.put(`/orgs/${org.name}/public_members/${member.username}`)).status).toBe(204);
      expect((await api.anonymous.get(`/orgs/${org.name}/public_members/${member.username}`)).status).toBe(204);
      expect((await member.api.delete(`/orgs/${org.name}/public_members/${owner.username}`)).body).toEqual(giteaError('Cannot change member visibility'));
      expect((await outsider.api.put(`/orgs/${org.name}/public_members/${outsider.username}`)).body).toEqual(
        giteaError('Must be an organization member'),
      );
      expect((await member.api.delete(`/orgs/${org.name}/public_members/${member.username}`)).status).toBe(204);
      expect((await api.anonymous.get(`/orgs/${org.name}/public_members/${member.username}`)).status).toBe(404);
      expect((await api.anonymous.put(`/orgs/${org.name}/public_members/${member.username}`)).status).toBe(401);
    });

    it('should let owners remove members (204), but not the last owner (422)', async () => {
      const org = await orgWithMember();
      expect((await member.api.delete(`/orgs/${org.name}/members/${owner.username}`)).body).toEqual(giteaError('Must be an organization owner'));
      expect((await owner.api.delete(`/orgs/${org.name}/members/${member.username}`)).status).toBe(204);
      expect((await owner.api.get(`/orgs/${org.name}/members/${member.username}`)).status).toBe(404);
      expect((await owner.api.delete(`/orgs/${org.name}/members/${outsider.username}`)).status).toBe(204);
      const last = await owner.api.delete(`/orgs/${org.name}/members/${owner.username}`);
      expect(last.status).toBe(422);
      expect(last.body).toEqual(giteaError(`user is the last member of owner team [uid: ${owner.id}]`));
      expect((await owner.api.delete(`/orgs/${org.name}/members/no-such-user-anywhere`)).status).toBe(404);
    });
  });
});
