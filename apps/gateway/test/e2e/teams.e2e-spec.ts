import { RepoUnitKeys } from '@gitforge/contracts';
import type {
  CreateTeamOption,
  EditRepoOption,
  EditTeamOption,
  Organization,
  Repository,
  SearchResults,
  Team,
  User,
} from '@gitforge/contracts';
import { addToTeam, createOrg, createTeam } from './support/accounts.js';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';

const ALL_UNITS = [...RepoUnitKeys];

describe.each(layoutsUnderTest())('teams through the gateway (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let owner: TestUser;
  let member: TestUser;
  let teammate: TestUser;
  let outsider: TestUser;
  let org: Organization;

  beforeAll(async () => {
    layout = await Layout.start(kind, { env: { GITFORGE_AUTH_CACHE_TTL_MS: '200' } });
    api = new Api(layout);
    owner = await createUser(api, 'owner');
    member = await createUser(api, 'member');
    teammate = await createUser(api, 'teammate');
    outsider = await createUser(api, 'outsider');
    org = await createOrg(owner.api);
    // `member` belongs to the organization through a team of its own.
    await addToTeam(owner.api, (await createTeam(owner.api, org.name, { visibility: 'private' })).id, member);
  });

  afterAll(async () => {
    await layout?.stop();
  });

  describe('create', () => {
    it('should create a private team by default (201), with units at its permission', async () => {
      const name = uniqueName('devs');
      const res = await owner.api.post<Team>(`/orgs/${org.name}/teams`, {
        name,
        description: 'the developers',
        permission: 'write',
        units: ['repo.code', 'repo.issues', 'repo.no_such_unit'],
        can_create_org_repo: true,
      } satisfies CreateTeamOption);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        name,
        description: 'the developers',
        // Gitea 1.21+ answers a new team with its organization.
        organization: expect.objectContaining({ id: org.id, name: org.name }),
        includes_all_repositories: false,
        permission: 'write',
        units: ['repo.code', 'repo.issues'],
        units_map: { 'repo.code': 'write', 'repo.issues': 'write' },
        can_create_org_repo: true,
        visibility: 'private',
      });
    });

    it('should prefer units_map over units and keep the permission given (Gitea stores it as it is)', async () => {
      const res = await owner.api.post<Team>(`/orgs/${org.name}/teams`, {
        name: uniqueName('mixed'),
        permission: 'write',
        units: ['repo.wiki'],
        units_map: { 'repo.code': 'read', 'repo.issues': 'write', 'repo.ext_wiki': 'none' },
        visibility: 'public',
      } satisfies CreateTeamOption);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        permission: 'write',
        units: ['repo.code', 'repo.issues', 'repo.ext_wiki'],
        units_map: { 'repo.code': 'read', 'repo.issues': 'write', 'repo.ext_wiki': 'none' },
        visibility: 'public',
      });
    });

    it('should give an admin team every unit', async () => {
      const res = await owner.api.post<Team>(`/orgs/${org.name}/teams`, { name: uniqueName('admins'), permission: 'admin', units: ['repo.code'] });
      expect(res.body.units).toEqual(ALL_UNITS);
      expect(Object.values(res.body.units_map)).toEqual(ALL_UNITS.map(() => 'admin'));
    });

    it('should refuse duplicates and bad names (422), non-owners (403) and unknown organizations (404)', async () => {
      const team = await createTeam(owner.api, org.name);
      const dup = await owner.api.post(`/orgs/${org.name}/teams`, { name: team.name.toUpperCase(), permission: 'read', units: ['repo.code'] });
      expect(dup.status).toBe(422);
      expect(dup.body).toEqual(giteaError(`team already exists [org_id: ${org.id}, name: ${team.name.toUpperCase()}]`));
      expect((await owner.api.post(`/orgs/${org.name}/teams`, { permission: 'read' })).body).toEqual(giteaError('[Name]: Required'));
      expect((await owner.api.post(`/orgs/${org.name}/teams`, { name: 'has space', units: ['repo.code'] })).body).toEqual(
        giteaError('[Name]: AlphaDashDot'),
      );
      expect((await owner.api.post(`/orgs/${org.name}/teams`, { name: 'x', permission: 'owner' })).status).toBe(422);
      const body = { name: uniqueName('t'), permission: 'read', units: ['repo.code'] } satisfies CreateTeamOption;
      expect((await member.api.post(`/orgs/${org.name}/teams`, body)).body).toEqual(giteaError('Must be an organization owner'));
      expect((await outsider.api.post(`/orgs/${org.name}/teams`, body)).body).toEqual(giteaError('Must be an organization member'));
      expect((await api.anonymous.post(`/orgs/${org.name}/teams`, body)).status).toBe(401);
      expect((await owner.api.post('/orgs/no-such-org-anywhere/teams', body)).status).toBe(404);
    });
  });

  describe('visibility', () => {
    const teams: Record<string, Team> = {};

    beforeAll(async () => {
      for (const visibility of ['private', 'limited', 'public'] as const) {
        teams[visibility] = await createTeam(owner.api, org.name, { name: `${visibility}-${uniqueName('v')}`, visibility });
        await addToTeam(owner.api, teams[visibility]!.id, teammate);
      }
    });

    const callers = (): Record<string, Api> => ({
      'a non-member': outsider.api,
      'an organization member': member.api,
      'a team member': teammate.api,
      'an owner': owner.api,
      'a site admin': api.admin,
    });

    it.each([
      ['private', 'a non-member', 404],
      ['private', 'an organization member', 403],
      ['private', 'a team member', 200],
      ['private', 'an owner', 200],
      ['private', 'a site admin', 200],
      ['limited', 'a non-member', 404],
      ['limited', 'an organization member', 200],
      ['limited', 'a team member', 200],
      ['limited', 'an owner', 200],
      ['public', 'a non-member', 200],
      ['public', 'an organization member', 200],
      ['public', 'a team member', 200],
      ['public', 'an owner', 200],
    ] as const)('should show a %s team to %s with %i', async (visibility, caller, status) => {
      const team = teams[visibility]!;
      const res = await callers()[caller]!.get<Team>(`/teams/${team.id}`);
      expect(res.status).toBe(status);
      if (status === 200) expect(res.body).toMatchObject({ id: team.id, visibility, organization: { name: org.name } });
      if (status === 403) expect(res.body).toEqual(giteaError('Must be a team member'));
      expect((await callers()[caller]!.get(`/teams/${team.id}/repos`)).status).toBe(status);
    });

    it.each([
      ['a non-member', ['public']],
      ['an organization member', ['limited', 'public']],
      ['a team member', ['limited', 'private', 'public']],
      ['an owner', ['limited', 'private', 'public']],
      ['a site admin', ['limited', 'private', 'public']],
    ] as const)('should list and search the teams %s may see', async (caller, visible) => {
      const listed = (await callers()[caller]!.get<Team[]>(`/orgs/${org.name}/teams?limit=50`)).body
        .filter((t) => Object.values(teams).some((v) => v.id === t.id))
        .map((t) => t.visibility)
        .sort();
      expect(listed).toEqual(visible);
      const found = (await callers()[caller]!.get<SearchResults<Team>>(`/orgs/${org.name}/teams/search?q=-v&limit=50`)).body.data
        .filter((t) => Object.values(teams).some((v) => v.id === t.id))
        .map((t) => t.visibility)
        .sort();
      expect(found).toEqual(visible);
    });

    it('should list only public teams to signed-in outsiders (docs/spec.md) and nothing to anonymous callers (401)', async () => {
      const listed = (await outsider.api.get<Team[]>(`/orgs/${org.name}/teams?limit=50`)).body;
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.every((t) => t.visibility === 'public')).toBe(true);
      const found = (await outsider.api.get<SearchResults<Team>>(`/orgs/${org.name}/teams/search?limit=50`)).body;
      expect(found.ok).toBe(true);
      expect(found.data.every((t) => t.visibility === 'public')).toBe(true);
      expect((await api.anonymous.get(`/orgs/${org.name}/teams`)).status).toBe(401);
      expect((await api.anonymous.get(`/teams/${teams.public!.id}`)).status).toBe(401);
      expect((await outsider.api.get('/orgs/no-such-org-anywhere/teams')).status).toBe(404);
      expect((await owner.api.get('/teams/999999')).status).toBe(404);
    });

    it('should hide public teams of a private organization from outsiders (404)', async () => {
      const hidden = await createOrg(owner.api, { visibility: 'private' });
      const team = await createTeam(owner.api, hidden.name, { visibility: 'public' });
      expect((await outsider.api.get(`/teams/${team.id}`)).status).toBe(404);
      expect((await owner.api.get(`/teams/${team.id}`)).status).toBe(200);
    });
  });

  describe('search', () => {
    it('should search names and descriptions in the {data, ok} envelope, the Owners team first', async () => {
      const tag = uniqueName('srch');
      const byName = await createTeam(owner.api, org.name, { name: `${tag}-name`, visibility: 'limited' });
      const byDesc = await createTeam(owner.api, org.name, { name: uniqueName('other'), description: `about ${tag}`, visibility: 'limited' });
      const res = await member.api.get<SearchResults<Team>>(`/orgs/${org.name}/teams/search?q=${tag.toUpperCase()}`);
      expect(res.status).toBe(200);
      expect(res.body.ok).toBe(true);
      expect(res.body.data.map((t) => t.id).sort()).toEqual([byName.id, byDesc.id].sort());
      expect(res.body.data[0]!.organization).toBeNull();
      expect(res.headers.get('x-total-count')).toBe('2');
      const nameOnly = await member.api.get<SearchResults<Team>>(`/orgs/${org.name}/teams/search?q=${tag}&include_desc=false`);
      expect(nameOnly.body.data.map((t) => t.id)).toEqual([byName.id]);
      const all = await owner.api.get<SearchResults<Team>>(`/orgs/${org.name}/teams/search?limit=2`);
      expect(all.body.data[0]!.name).toBe('Owners');
      expect(all.headers.get('link')).toContain('rel="next"');
    });
  });

  describe('edit and delete', () => {
    it('should edit a team (200), leaving the visibility alone when omitted', async () => {
      const team = await createTeam(owner.api, org.name, { visibility: 'limited', description: 'before' });
      const renamed = uniqueName('renamed');
      const res = await owner.api.patch<Team>(`/teams/${team.id}`, {
        name: renamed,
        description: 'after',
        permission: 'write',
        units_map: { 'repo.code': 'write', 'repo.pulls': 'read' },
        includes_all_repositories: true,
        can_create_org_repo: true,
      } satisfies EditTeamOption);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: renamed,
        description: 'after',
        permission: 'write',
        units_map: { 'repo.code': 'write', 'repo.pulls': 'read' },
        includes_all_repositories: true,
        can_create_org_repo: true,
        visibility: 'limited',
        organization: null,
      });
      // A units list gets the permission given, if read or write; none without one (Gitea's ParseAccessMode(…, read, write)).
      const units = await owner.api.patch<Team>(`/teams/${team.id}`, { units: ['repo.wiki'], permission: 'read' } satisfies EditTeamOption);
      expect(units.body).toMatchObject({ permission: 'read', units_map: { 'repo.wiki': 'read' }, visibility: 'limited', name: renamed });
      const bare = await owner.api.patch<Team>(`/teams/${team.id}`, { units: ['repo.issues'] } satisfies EditTeamOption);
      expect(bare.body).toMatchObject({ permission: 'read', units_map: { 'repo.issues': 'none' } });
      const vis = await owner.api.patch<Team>(`/teams/${team.id}`, { visibility: 'public' } satisfies EditTeamOption);
      expect(vis.body.visibility).toBe('public');
    });

    it('should change includes_all_repositories only together with a permission', async () => {
      const team = await createTeam(owner.api, org.name);
      const alone = await owner.api.patch<Team>(`/teams/${team.id}`, { includes_all_repositories: true } satisfies EditTeamOption);
      expect(alone.body.includes_all_repositories).toBe(false);
      const both = await owner.api.patch<Team>(`/teams/${team.id}`, { permission: 'admin', includes_all_repositories: true });
      expect(both.body).toMatchObject({ includes_all_repositories: true, permission: 'admin', units: ALL_UNITS });
    });

    it('should keep the Owners team its permission, visibility and name', async () => {
      const owners = (await owner.api.get<Team[]>(`/orgs/${org.name}/teams`)).body.find((t) => t.name === 'Owners')!;
      // Gitea's CreateOrganization makes it limited: the organization's members see it.
      expect(owners.visibility).toBe('limited');
      const res = await owner.api.patch<Team>(`/teams/${owners.id}`, {
        name: 'Bosses',
        permission: 'read',
        visibility: 'private',
        can_create_org_repo: false,
        description: 'the owners',
      } satisfies EditTeamOption);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'Owners', permission: 'owner', visibility: owners.visibility, can_create_org_repo: true, description: 'the owners' });
      expect((await owner.api.delete(`/teams/${owners.id}`)).status).toBe(422);
    });

    it('should refuse edits and deletion to non-owners (403) and answer 404 for unknown teams', async () => {
      const team = await createTeam(owner.api, org.name, { visibility: 'public' });
      await addToTeam(owner.api, team.id, teammate);
      expect((await teammate.api.patch(`/teams/${team.id}`, { description: 'x' })).body).toEqual(giteaError('Must be an organization owner'));
      expect((await outsider.api.delete(`/teams/${team.id}`)).status).toBe(403);
      expect((await owner.api.patch('/teams/999999', { description: 'x' })).status).toBe(404);
      expect((await owner.api.patch(`/teams/${team.id}`, { name: 'bad name' })).status).toBe(422);
      expect((await owner.api.delete(`/teams/${team.id}`)).status).toBe(204);
      expect((await owner.api.get(`/teams/${team.id}`)).status).toBe(404);
    });
  });

  describe('members', () => {
    it('should add (204), list, show and remove members (204)', async () => {
      const team = await createTeam(owner.api, org.name, { visibility: 'limited' });
      const newcomer = await createUser(api, 'newcomer');
      expect((await owner.api.put(`/teams/${team.id}/members/${newcomer.username}`)).status).toBe(204);
      expect((await owner.api.put(`/teams/${team.id}/members/${newcomer.username}`)).status).toBe(204);
      expect((await owner.api.get(`/orgs/${org.name}/members/${newcomer.username}`)).status).toBe(204);
      const list = await member.api.get<User[]>(`/teams/${team.id}/members`);
      expect(list.body.map((u) => u.login)).toEqual([newcomer.username]);
      expect(list.headers.get('x-total-count')).toBe('1');
      expect((await member.api.get<User>(`/teams/${team.id}/members/${newcomer.username}`)).body.login).toBe(newcomer.username);
      expect((await member.api.get(`/teams/${team.id}/members/${owner.username}`)).status).toBe(404);
      expect((await member.api.get(`/teams/${team.id}/members/no-such-user-anywhere`)).status).toBe(404);
      expect((await newcomer.api.get<Team[]>('/user/teams')).body).toEqual([expect.objectContaining({ id: team.id, organization: expect.objectContaining({ name: org.name }) })]);
      expect((await owner.api.delete(`/teams/${team.id}/members/${newcomer.username}`)).status).toBe(204);
      expect((await member.api.get<User[]>(`/teams/${team.id}/members`)).body).toEqual([]);
      // Leaving the last team of an organization leaves the organization.
      expect((await owner.api.get(`/orgs/${org.name}/members/${newcomer.username}`)).status).toBe(404);
    });

    it('should refuse member changes to non-owners (403) and unknown users (404), and keep the last owner (422)', async () => {
      const team = await createTeam(owner.api, org.name, { visibility: 'public' });
      expect((await member.api.put(`/teams/${team.id}/members/${outsider.username}`)).body).toEqual(giteaError('Must be an organization owner'));
      expect((await owner.api.put(`/teams/${team.id}/members/no-such-user-anywhere`)).status).toBe(404);
      expect((await outsider.api.get(`/teams/${team.id}/members`)).body).toEqual(giteaError('Must be an organization member'));
      const owners = (await owner.api.get<Team[]>(`/orgs/${org.name}/teams`)).body.find((t) => t.name === 'Owners')!;
      expect((await owner.api.delete(`/teams/${owners.id}/members/${owner.username}`)).status).toBe(422);
    });
  });

  describe('repositories and permissions', () => {
    let repo: Repository;

    beforeAll(async () => {
      const res = await owner.api.post<Repository>(`/orgs/${org.name}/repos`, { name: uniqueName('repo'), private: true, auto_init: true });
      expect(res.status).toBe(201);
      repo = res.body;
    });

    const permissionsOf = async (user: TestUser) => {
      const res = await user.api.get<Repository>(`/repos/${org.name}/${repo.name}`);
      return res.status === 200 ? res.body.permissions : res.status;
    };

    it('should give a write team push but not administration, and take it away at once', async () => {
      const writers = await createTeam(owner.api, org.name, { permission: 'write', units: ['repo.code', 'repo.issues'] });
      const writer = await createUser(api, 'writer');
      await addToTeam(owner.api, writers.id, writer);
      expect(await permissionsOf(writer)).toBe(404);
      expect((await owner.api.put(`/teams/${writers.id}/repos/${org.name}/${repo.name}`)).status).toBe(204);
      expect(await permissionsOf(writer)).toEqual({ admin: false, push: true, pull: true });
      const edit = await writer.api.patch(`/repos/${org.name}/${repo.name}`, { description: 'nope' } satisfies EditRepoOption);
      expect(edit.status).toBe(403);
      expect((await owner.api.delete(`/teams/${writers.id}/members/${writer.username}`)).status).toBe(204);
      expect(await permissionsOf(writer)).toBe(404);
    });

    it('should let an admin team administer the repository', async () => {
      const admins = await createTeam(owner.api, org.name, { permission: 'admin' });
      const lead = await createUser(api, 'lead');
      await addToTeam(owner.api, admins.id, lead);
      await owner.api.put(`/teams/${admins.id}/repos/${org.name}/${repo.name}`);
      expect(await permissionsOf(lead)).toEqual({ admin: true, push: true, pull: true });
      const edit = await lead.api.patch<Repository>(`/repos/${org.name}/${repo.name}`, { description: 'by the admin team' } satisfies EditRepoOption);
      expect(edit.status).toBe(200);
      expect(edit.body.description).toBe('by the admin team');
    });

    it('should give read and unit-limited teams what their units allow', async () => {
      const readers = await createTeam(owner.api, org.name, { permission: 'read', units: ['repo.code'] });
      const issues = await createTeam(owner.api, org.name, { units_map: { 'repo.code': 'read', 'repo.issues': 'write' } });
      const reader = await createUser(api, 'reader');
      const triager = await createUser(api, 'triager');
      await addToTeam(owner.api, readers.id, reader);
      await addToTeam(owner.api, issues.id, triager);
      for (const team of [readers, issues]) await owner.api.put(`/teams/${team.id}/repos/${org.name}/${repo.name}`);
      expect(await permissionsOf(reader)).toEqual({ admin: false, push: false, pull: true });
      expect(await permissionsOf(triager)).toEqual({ admin: false, push: false, pull: true });
    });

    it('should reach every repository, new ones too, through a team that includes them all', async () => {
      const everything = await createTeam(owner.api, org.name, { permission: 'write', units: ['repo.code'], includes_all_repositories: true });
      const dev = await createUser(api, 'dev');
      await addToTeam(owner.api, everything.id, dev);
      const later = await owner.api.post<Repository>(`/orgs/${org.name}/repos`, { name: uniqueName('later'), private: true });
      expect((await dev.api.get<Repository>(`/repos/${org.name}/${later.body.name}`)).body.permissions).toEqual({ admin: false, push: true, pull: true });
      const listed = (await dev.api.get<Repository[]>(`/teams/${everything.id}/repos?limit=50`)).body.map((r) => r.name);
      expect(listed).toEqual(expect.arrayContaining([repo.name, later.body.name]));
      expect((await dev.api.get<Repository[]>('/user/repos?limit=50')).body.map((r) => r.name)).toEqual(expect.arrayContaining([later.body.name]));
    });

    it('should list, show and unlink team repositories, by name, without deleted ones', async () => {
      const team = await createTeam(owner.api, org.name, { visibility: 'limited' });
      const second = await owner.api.post<Repository>(`/orgs/${org.name}/repos`, { name: `a-${uniqueName('r')}` });
      await owner.api.put(`/teams/${team.id}/repos/${org.name}/${repo.name}`);
      await owner.api.put(`/teams/${team.id}/repos/${org.name}/${second.body.name}`);
      const list = await member.api.get<Repository[]>(`/teams/${team.id}/repos`);
      expect(list.body.map((r) => r.name)).toEqual([second.body.name, repo.name]);
      expect(list.headers.get('x-total-count')).toBe('2');
      expect(list.body[1]!.permissions).toEqual({ admin: false, push: false, pull: false });
      const one = await member.api.get<Repository>(`/teams/${team.id}/repos/${org.name}/${repo.name}`);
      expect(one.status).toBe(200);
      expect(one.body.full_name).toBe(`${org.name}/${repo.name}`);
      expect((await owner.api.delete(`/repos/${org.name}/${second.body.name}`)).status).toBe(204);
      expect((await member.api.get<Repository[]>(`/teams/${team.id}/repos`)).body.map((r) => r.name)).toEqual([repo.name]);
      expect((await owner.api.delete(`/teams/${team.id}/repos/${org.name}/${repo.name}`)).status).toBe(204);
      expect((await member.api.get(`/teams/${team.id}/repos/${org.name}/${repo.name}`)).status).toBe(404);
      expect((await member.api.get(`/teams/${team.id}/repos/${org.name}/no-such-repo`)).status).toBe(404);
    });

    it('should let only team members with admin access link repositories (403, 404)', async () => {
      const team = await createTeam(owner.api, org.name, { visibility: 'public' });
      await addToTeam(owner.api, team.id, teammate);
      const notAdmin = await teammate.api.put(`/teams/${team.id}/repos/${org.name}/${repo.name}`);
      expect(notAdmin.status).toBe(403);
      expect(notAdmin.body).toEqual(giteaError('Must have admin-level access to the repository'));
      expect((await member.api.put(`/teams/${team.id}/repos/${org.name}/${repo.name}`)).body).toEqual(giteaError('Must be a team member'));
      expect((await outsider.api.put(`/teams/${team.id}/repos/${org.name}/${repo.name}`)).status).toBe(404);
      expect((await owner.api.put(`/teams/${team.id}/repos/${org.name}/no-such-repo`)).status).toBe(404);
      expect((await api.anonymous.put(`/teams/${team.id}/repos/${org.name}/${repo.name}`)).status).toBe(401);
    });
  });
});
