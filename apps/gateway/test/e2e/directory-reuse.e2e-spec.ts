import type { Repository, User } from '@gitforge/contracts';
import { addToTeam, createOrg, createTeam } from './support/accounts.js';
import { Api, createUser, type TestUser } from './support/api.js';
import { GitCli, gitUrl } from './support/git.js';
import { Layout, layoutsUnderTest } from './support/layout.js';

/**
 * The services keep org-service's answers on how an actor relates to an owner and reuse them
 * while org-service has committed nothing since. Each case reads an answer (so that it is kept),
 * changes it through org-service, and reads again at once: the change shows in the very next
 * request, through the API and through git alike.
 */
describe.each(layoutsUnderTest())('reused directory answers follow every change at once (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let git: GitCli;
  let owner: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    git = GitCli.create();
    owner = await createUser(api, 'owner');
    member = await createUser(api, 'member');
  });

  afterAll(async () => {
    git?.cleanup();
    await layout?.stop();
  });

  it("should hide an organization's public repository from anonymous callers and git once the organization turns private", async () => {
    const org = (await createOrg(owner.api)).name;
    expect((await owner.api.post(`/orgs/${org}/repos`, { name: 'open', auto_init: true })).status).toBe(201);
    const url = gitUrl(layout, org, 'open', null);
    for (let i = 0; i < 2; i++) {
      expect((await api.anonymous.get(`/repos/${org}/open`)).status).toBe(200);
      expect((await git.lsRemote(url)).has('refs/heads/main')).toBe(true);
    }
    expect((await owner.api.patch(`/orgs/${org}`, { visibility: 'private' })).status).toBe(200);
    expect((await api.anonymous.get(`/repos/${org}/open`)).status).toBe(404);
    const listed = await git.run(['ls-remote', url], { allowFailure: true });
    expect(listed.code).not.toBe(0);
    // Asked for credentials (the repository may be private to them), as for a name that never existed.
    expect(listed.stderr).toMatch(/could not read Username|Authentication failed|401/);
    expect((await owner.api.patch(`/orgs/${org}`, { visibility: 'public' })).status).toBe(200);
    expect((await api.anonymous.get(`/repos/${org}/open`)).status).toBe(200);
  });

  it("should show a team's new permission in the next answer, and its loss", async () => {
    const org = (await createOrg(owner.api)).name;
    expect((await owner.api.post(`/orgs/${org}/repos`, { name: 'code', private: true })).status).toBe(201);
    const team = await createTeam(owner.api, org, { permission: 'read', units: ['repo.code'] });
    expect((await owner.api.put(`/teams/${team.id}/repos/${org}/code`)).status).toBe(204);
    await addToTeam(owner.api, team.id, member);
    for (let i = 0; i < 2; i++) expect((await member.api.get<Repository>(`/repos/${org}/code`)).body.permissions).toEqual({ admin: false, push: false, pull: true });
    expect((await owner.api.patch(`/teams/${team.id}`, { name: team.name, permission: 'write', units: ['repo.code'] })).status).toBe(200);
    expect((await member.api.get<Repository>(`/repos/${org}/code`)).body.permissions).toEqual({ admin: false, push: true, pull: true });
    expect((await owner.api.delete(`/orgs/${org}/members/${member.username}`)).status).toBe(204);
    expect((await member.api.get(`/repos/${org}/code`)).status).toBe(404);
  });

  it("should show an owner's new full name in the repository's owner at once", async () => {
    expect((await owner.api.post('/user/repos', { name: 'named' })).status).toBe(201);
    for (let i = 0; i < 2; i++) expect((await member.api.get<Repository>(`/repos/${owner.username}/named`)).status).toBe(200);
    expect((await owner.api.patch<User>('/user/settings', { full_name: 'Renamed Owner' })).status).toBe(200);
    expect((await member.api.get<Repository>(`/repos/${owner.username}/named`)).body.owner.full_name).toBe('Renamed Owner');
  });
});
