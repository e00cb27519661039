import type {
  AddCollaboratorOption,
  BranchProtection,
  CreateBranchProtectionOption,
  CreateRepoOption,
  CreateTagProtectionOption,
  EditBranchProtectionOption,
  EditRepoOption,
  EditTagProtectionOption,
  RepoCollaboratorPermission,
  Repository,
  TagProtection,
  User,
} from '@gitforge/contracts';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { ADMIN, Layout, layoutsUnderTest } from './support/layout.js';
import { branchProtectionIds } from './support/repo-disk.js';

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/;
const ADMIN_ONLY = 'user should be an owner or a collaborator with admin write of a repository';

describe.each(layoutsUnderTest())('collaborators and protections API (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    layout = await Layout.start(kind, { env: { GITFORGE_AUTH_CACHE_TTL_MS: '300' } });
    api = new Api(layout);
    owner = await createUser(api, 'owner');
    writer = await createUser(api, 'writer');
    reader = await createUser(api, 'reader');
    outsider = await createUser(api, 'outsider');
  });

  afterAll(async () => {
    await layout?.stop();
  });

  async function createRepo(name: string, extra: Partial<CreateRepoOption> = {}): Promise<Repository> {
    const res = await owner.api.post<Repository>('/user/repos', { name, ...extra } satisfies CreateRepoOption);
    if (res.status !== 201) throw new Error(`creating ${name}: ${res.status} ${res.text}`);
    return res.body;
  }

  describe('collaborators', () => {
    const base = () => `/repos/${owner.username}/team`;

    beforeAll(async () => {
      await createRepo('team', { private: true });
    });

    it('should add collaborators (204), defaulting to write, and list them with X-Total-Count', async () => {
      expect((await owner.api.put(`${base()}/collaborators/${writer.username}`)).status).toBe(204);
      expect((await owner.api.put(`${base()}/collaborators/${reader.username}`, { permission: 'read' } satisfies AddCollaboratorOption)).status).toBe(
        204,
      );
      const list = await writer.api.get<User[]>(`${base()}/collaborators`);
      expect(list.status).toBe(200);
      expect(list.headers.get('x-total-count')).toBe('2');
      expect(list.headers.get('link')).toBeNull();
      expect(list.body.map((u) => u.login).sort()).toEqual([writer.username, reader.username].sort());
      const paged = await owner.api.get<User[]>(`${base()}/collaborators?limit=1&page=2`);
      expect(paged.body).toHaveLength(1);
      expect(paged.headers.get('x-total-count')).toBe('2');
    });

    it('should answer whether a user is a collaborator (204 or 404) and 422 for an unknown user', async () => {
      expect((await reader.api.get(`${base()}/collaborators/${writer.username}`)).status).toBe(204);
      const no = await owner.api.get(`${base()}/collaborators/${outsider.username}`);
      expect(no.status).toBe(404);
      const unknown = await owner.api.get(`${base()}/collaborators/nobody-${uniqueName('x')}`);
      expect(unknown.status).toBe(422);
      expect(unknown.body).toEqual(giteaError(/^user does not exist \[uid: 0, name: nobody-/));
    });

    it('should give the collaborator the access of its permission', async () => {
      const repo = await writer.api.get<Repository>(`/repos/${owner.username}/team`);
      expect(repo.body.permissions).toEqual({ admin: false, push: true, pull: true });
      expect((await reader.api.get<Repository>(`/repos/${owner.username}/team`)).body.permissions).toEqual({ admin: false, push: false, pull: true });
      expect((await outsider.api.get(`/repos/${owner.username}/team`)).status).toBe(404);
    });

    it("should answer a user's permission to admins, repository admins and the user itself", async () => {
      const self = await writer.api.get<RepoCollaboratorPermission>(`${base()}/collaborators/${writer.username}/permission`);
      expect(self.status).toBe(200);
      expect(self.body).toMatchObject({ permission: 'write', role_name: 'write', user: { login: writer.username } });
      const byOwner = await owner.api.get<RepoCollaboratorPermission>(`${base()}/collaborators/${reader.username}/permission`);
      expect(byOwner.body.permission).toBe('read');
      const ofOwner = await api.admin.get<RepoCollaboratorPermission>(`${base()}/collaborators/${owner.username}/permission`);
      expect(ofOwner.body.permission).toBe('owner');
      const ofOutsider = await owner.api.get<RepoCollaboratorPermission>(`${base()}/collaborators/${outsider.username}/permission`);
      expect(ofOutsider.body.permission).toBe('none');
      const nosy = await reader.api.get(`${base()}/collaborators/${writer.username}/permission`);
      expect(nosy.status).toBe(403);
      expect(nosy.body).toEqual(
        giteaError('Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own'),
      );
      const unknown = await owner.api.get(`${base()}/collaborators/ghost-${uniqueName('x')}/permission`);
      expect(unknown.status).toBe(404);
    });

    it('should change and remove a collaborator; an admin collaborator may manage others', async () => {
      expect((await owner.api.put(`${base()}/collaborators/${writer.username}`, { permission: 'admin' })).status).toBe(204);
      expect((await writer.api.put(`${base()}/collaborators/${outsider.username}`, { permission: 'read' })).status).toBe(204);
      expect((await writer.api.delete(`${base()}/collaborators/${outsider.username}`)).status).toBe(204);
      expect((await owner.api.get(`${base()}/collaborators/${outsider.username}`)).status).toBe(404);
      expect((await owner.api.put(`${base()}/collaborators/${writer.username}`, { permission: 'write' })).status).toBe(204);
      expect((await owner.api.get<RepoCollaboratorPermission>(`${base()}/collaborators/${writer.username}/permission`)).body.permission).toBe('write');
    });

    it('should refuse changes from non-admins (403), bad permissions (422), strangers (404) and anonymous callers (404 on this private repository, as Gitea assigns the repository before it asks for a token)', async () => {
      const denied = await writer.api.put(`${base()}/collaborators/${outsider.username}`, {});
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(giteaError(ADMIN_ONLY));
      expect((await writer.api.delete(`${base()}/collaborators/${reader.username}`)).status).toBe(403);
      const bad = await owner.api.put(`${base()}/collaborators/${reader.username}`, { permission: 'owner' });
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual(giteaError('[Permission]: In'));
      expect((await owner.api.put(`${base()}/collaborators/nobody-${uniqueName('x')}`, {})).status).toBe(422);
      expect((await outsider.api.get(`${base()}/collaborators`)).status).toBe(404);
      const anonymous = await api.anonymous.get(`${base()}/collaborators`);
      expect(anonymous.status).toBe(404);
      expect((await api.anonymous.put(`${base()}/collaborators/${outsider.username}`, {})).status).toBe(404);
    });

    it('should drop a removed collaborator from the private repository', async () => {
      expect((await owner.api.delete(`${base()}/collaborators/${reader.username}`)).status).toBe(204);
      expect((await reader.api.get(`/repos/${owner.username}/team`)).status).toBe(404);
      expect((await owner.api.get<User[]>(`${base()}/collaborators`)).headers.get('x-total-count')).toBe('1');
    });

    it('should forget the collaborations of a deleted user', async () => {
      const leaving = await createUser(api, 'leaving');
      expect((await owner.api.put(`${base()}/collaborators/${leaving.username}`, {})).status).toBe(204);
      expect((await owner.api.get<User[]>(`${base()}/collaborators`)).headers.get('x-total-count')).toBe('2');
      expect((await api.admin.delete(`/admin/users/${leaving.username}`)).status).toBe(204);
      const after = await owner.api.get<User[]>(`${base()}/collaborators`);
      expect(after.headers.get('x-total-count')).toBe('1');
      expect(after.body.map((u) => u.login)).not.toContain(leaving.username);
    });
  });

  describe('tag protections', () => {
    const base = () => `/repos/${owner.username}/tags/tag_protections`;
    let created: TagProtection;

    beforeAll(async () => {
      await createRepo('tags');
      expect((await owner.api.put(`/repos/${owner.username}/tags/collaborators/${writer.username}`, {})).status).toBe(204);
    });

    it('should create a tag protection (201) in Gitea shape', async () => {
      const res = await owner.api.post<TagProtection>(base(), {
        name_pattern: ' v* ',
        whitelist_usernames: [writer.username],
      } satisfies CreateTagProtectionOption);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        name_pattern: 'v*',
        whitelist_usernames: [writer.username],
        whitelist_teams: [],
        created_at: expect.stringMatching(TIME),
        updated_at: expect.stringMatching(TIME),
      });
      created = res.body;
    });

    it('should list (without pagination headers) and get tag protections', async () => {
      const list = await owner.api.get<TagProtection[]>(base());
      expect(list.status).toBe(200);
      expect(list.body).toEqual([created]);
      expect(list.headers.get('x-total-count')).toBeNull();
      expect((await owner.api.get<TagProtection>(`${base()}/${created.id}`)).body).toEqual(created);
      expect((await owner.api.get(`${base()}/999999`)).status).toBe(404);
      expect((await owner.api.get(`${base()}/abc`)).status).toBe(404);
    });

    it("should refuse Gitea's bad requests", async () => {
      const empty = await owner.api.post(base(), { name_pattern: '  ', whitelist_usernames: [writer.username] });
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual(giteaError('name_pattern are empty'));
      const nobody = await owner.api.post(base(), { name_pattern: 'rc*' });
      expect(nobody.status).toBe(400);
      expect(nobody.body).toEqual(giteaError('both whitelist_usernames and whitelist_teams are empty'));
      const twice = await owner.api.post(base(), { name_pattern: 'v*', whitelist_usernames: [writer.username] });
      expect(twice.status).toBe(403);
      expect(twice.body).toEqual(giteaError('Tag protection already exist'));
      const unknown = await owner.api.post(base(), { name_pattern: 'x*', whitelist_usernames: ['ghost-user-x'] });
      expect(unknown.status).toBe(422);
      expect(unknown.body).toEqual(giteaError('user does not exist [uid: 0, name: ghost-user-x]'));
    });

    it('should edit only the fields given, and delete', async () => {
      const res = await owner.api.patch<TagProtection>(`${base()}/${created.id}`, { name_pattern: '/^v\\d+$/' } satisfies EditTagProtectionOption);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: created.id, name_pattern: '/^v\\d+$/', whitelist_usernames: [writer.username] });
      const cleared = await owner.api.patch<TagProtection>(`${base()}/${created.id}`, { whitelist_usernames: [owner.username] });
      expect(cleared.body.whitelist_usernames).toEqual([owner.username]);
      expect((await owner.api.patch(`${base()}/999999`, {})).status).toBe(404);
      expect((await owner.api.delete(`${base()}/${created.id}`)).status).toBe(204);
      expect((await owner.api.delete(`${base()}/${created.id}`)).status).toBe(404);
      expect((await owner.api.get<TagProtection[]>(base())).body).toEqual([]);
    });

    it('should be for repository admins only, and hide private repositories', async () => {
      const denied = await writer.api.get(base());
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(giteaError(ADMIN_ONLY));
      expect((await writer.api.post(base(), { name_pattern: 'x', whitelist_usernames: [writer.username] })).status).toBe(403);
      expect((await api.anonymous.get(base())).status).toBe(401);
      await createRepo('hidden-tags', { private: true });
      expect((await outsider.api.get(`/repos/${owner.username}/hidden-tags/tag_protections`)).status).toBe(404);
      expect((await api.admin.get(`/repos/${owner.username}/hidden-tags/tag_protections`)).status).toBe(200);
    });

    it('should resolve team names in an organization and refuse unknown ones', async () => {
      const org = uniqueName('org');
      expect((await owner.api.post('/orgs', { username: org })).status).toBe(201);
      expect((await owner.api.post(`/orgs/${org}/repos`, { name: 'r' } satisfies CreateRepoOption)).status).toBe(201);
      const res = await owner.api.post<TagProtection>(`/repos/${org}/r/tag_protections`, { name_pattern: 'v*', whitelist_teams: ['owners'] });
      expect(res.status).toBe(201);
      expect(res.body.whitelist_teams).toEqual(['Owners']);
      const unknown = await owner.api.post(`/repos/${org}/r/tag_protections`, { name_pattern: 'x*', whitelist_teams: ['nope'] });
      expect(unknown.status).toBe(422);
      expect(unknown.body).toEqual(giteaError(/^team does not exist \[org_id \d+, team_id 0, name: nope\]$/));
    });

    it('should refuse writes to an archived repository with 423', async () => {
      await createRepo('old-tags');
      expect((await owner.api.patch(`/repos/${owner.username}/old-tags`, { archived: true } satisfies EditRepoOption)).status).toBe(200);
      const res = await owner.api.post(`/repos/${owner.username}/old-tags/tag_protections`, { name_pattern: 'v*', whitelist_usernames: [owner.username] });
      expect(res.status).toBe(423);
      expect(res.body).toEqual(giteaError('repo is archived'));
      expect((await owner.api.get(`/repos/${owner.username}/old-tags/tag_protections`)).status).toBe(200);
    });
  });

  describe('branch protections', () => {
    const base = () => `/repos/${owner.username}/branches/branch_protections`;

    beforeAll(async () => {
      await createRepo('branches', { auto_init: true });
      expect((await owner.api.put(`/repos/${owner.username}/branches/collaborators/${writer.username}`, {})).status).toBe(204);
      expect((await owner.api.put(`/repos/${owner.username}/branches/collaborators/${reader.username}`, { permission: 'read' })).status).toBe(204);
    });

    it('should create a rule (201) with defaults, keeping only allowlisted users who can write', async () => {
      const res = await owner.api.post<BranchProtection>(base(), {
        rule_name: 'main',
        enable_push: true,
        enable_push_whitelist: true,
        push_whitelist_usernames: [writer.username, reader.username],
        required_approvals: 2,
        status_check_contexts: ['ci/build'],
      } satisfies CreateBranchProtectionOption);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        branch_name: 'main',
        rule_name: 'main',
        priority: 1,
        enable_push: true,
        enable_push_whitelist: true,
        push_whitelist_usernames: [writer.username],
        push_whitelist_teams: [],
        enable_force_push: false,
        required_approvals: 2,
        status_check_contexts: ['ci/build'],
        protected_file_patterns: '',
        created_at: expect.stringMatching(TIME),
        updated_at: expect.stringMatching(TIME),
      });
    });

    it('should take the deprecated branch_name and glob rule names, in priority order', async () => {
      const legacy = await owner.api.post<BranchProtection>(base(), { branch_name: 'develop' } satisfies CreateBranchProtectionOption);
      expect(legacy.status).toBe(201);
      expect(legacy.body).toMatchObject({ rule_name: 'develop', branch_name: 'develop', priority: 2, enable_push: false });
      const glob = await owner.api.post<BranchProtection>(base(), { rule_name: 'release/*', priority: 10 });
      expect(glob.body).toMatchObject({ rule_name: 'release/*', branch_name: '', priority: 10 });
      const list = await owner.api.get<BranchProtection[]>(base());
      expect(list.body.map((b) => b.rule_name)).toEqual(['main', 'develop', 'release/*']);
      expect(list.headers.get('x-total-count')).toBeNull();
      const one = await owner.api.get<BranchProtection>(`${base()}/${encodeURIComponent('release/*')}`);
      expect(one.status).toBe(200);
      expect(one.body.rule_name).toBe('release/*');
    });

    it("should refuse Gitea's bad requests", async () => {
      const empty = await owner.api.post(base(), {});
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual(giteaError('both rule_name and branch_name are empty'));
      const twice = await owner.api.post(base(), { rule_name: 'main' });
      expect(twice.status).toBe(403);
      expect(twice.body).toEqual(giteaError('Branch protection already exist'));
      const unknown = await owner.api.post(base(), { rule_name: 'x', push_whitelist_usernames: ['ghost-user-y'] });
      expect(unknown.status).toBe(422);
      expect(unknown.body).toEqual(giteaError('user does not exist [uid: 0, name: ghost-user-y]'));
      const wrongType = await owner.api.post(base(), { rule_name: 'y', enable_push: 'yes' });
      expect(wrongType.status).toBe(422);
      expect((await owner.api.get(`${base()}/nope`)).status).toBe(404);
    });

    it('should edit only the fields given', async () => {
      const res = await owner.api.patch<BranchProtection>(`${base()}/main`, {
        enable_force_push: true,
        protected_file_patterns: '*.lock',
        push_whitelist_usernames: [],
      } satisfies EditBranchProtectionOption);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        rule_name: 'main',
        enable_push: true,
        enable_push_whitelist: true,
        enable_force_push: true,
        push_whitelist_usernames: [],
        required_approvals: 2,
        protected_file_patterns: '*.lock',
      });
      const off = await owner.api.patch<BranchProtection>(`${base()}/main`, { enable_push: false });
      expect(off.body).toMatchObject({ enable_push: false, enable_push_whitelist: false });
      expect((await owner.api.patch(`${base()}/nope`, { enable_push: true })).status).toBe(404);
    });

    it('should reorder rules by priority (204), ignoring ids of other repositories', async () => {
      const repo = (await owner.api.get<Repository>(`/repos/${owner.username}/branches`)).body;
      const known = await branchProtectionIds(layout, repo.id);
      const ids = ['release/*', 'develop', 'main'].map((n) => known.get(n)!);
      const res = await owner.api.post(`${base()}/priority`, { ids: [...ids, 999_999] });
      expect(res.status).toBe(204);
      const after = await owner.api.get<BranchProtection[]>(base());
      expect(after.body.map((b) => [b.rule_name, b.priority])).toEqual([
        ['release/*', 1],
        ['develop', 2],
        ['main', 3],
      ]);
      expect((await writer.api.post(`${base()}/priority`, { ids })).status).toBe(403);
      expect((await owner.api.post(`${base()}/priority`, { ids: 'x' })).status).toBe(422);
      expect((await owner.api.post(`${base()}/priority`, { ids: [ids[2], ids[1], ids[0]] })).status).toBe(204);
    });

    it('should delete rules (204, then 404)', async () => {
      expect((await owner.api.delete(`${base()}/develop`)).status).toBe(204);
      expect((await owner.api.delete(`${base()}/develop`)).status).toBe(404);
      expect((await owner.api.get<BranchProtection[]>(base())).body.map((b) => b.rule_name)).toEqual(['main', 'release/*']);
    });

    it('should be for repository admins only', async () => {
      const denied = await writer.api.post(base(), { rule_name: 'x' });
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(giteaError(ADMIN_ONLY));
      expect((await writer.api.get(base())).status).toBe(403);
      expect((await api.anonymous.get(base())).status).toBe(401);
      expect((await api.asUser(ADMIN.username, ADMIN.password).get(base())).status).toBe(200);
      await createRepo('hidden-branches', { private: true });
      expect((await outsider.api.get(`/repos/${owner.username}/hidden-branches/branch_protections`)).status).toBe(404);
    });
  });
});
