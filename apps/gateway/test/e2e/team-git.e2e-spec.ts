import type { Repository } from '@gitforge/contracts';
import { addToTeam, createOrg, createTeam } from './support/accounts.js';
import { Api, createUser, type TestUser } from './support/api.js';
import { GitCli, gitUrl } from './support/git.js';
import { Layout, layoutsUnderTest } from './support/layout.js';

/**
 * Team permissions reach git itself: one resolver answers Repository.permissions, API writes and
 * git fetch/push alike, and taking a member out of a team takes its access away at once.
 */
describe.each(layoutsUnderTest())('team permissions over git (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let git: GitCli;
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let org: string;
  let writers: number;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    git = GitCli.create();
    owner = await createUser(api, 'owner');
    writer = await createUser(api, 'writer');
    reader = await createUser(api, 'reader');
    org = (await createOrg(owner.api)).name;
    const repo = await owner.api.post<Repository>(`/orgs/${org}/repos`, { name: 'code', private: true, auto_init: true });
    expect(repo.status).toBe(201);
    const writeTeam = await createTeam(owner.api, org, { name: 'writers', permission: 'write', units: ['repo.code'] });
    const readTeam = await createTeam(owner.api, org, { name: 'readers', permission: 'read', units: ['repo.code'] });
    writers = writeTeam.id;
    for (const team of [writeTeam.id, readTeam.id]) expect((await owner.api.put(`/teams/${team}/repos/${org}/code`)).status).toBe(204);
    await addToTeam(owner.api, writeTeam.id, writer);
    await addToTeam(owner.api, readTeam.id, reader);
  });

  afterAll(async () => {
    git?.cleanup();
    await layout?.stop();
  });

  const url = (user: TestUser) => gitUrl(layout, org, 'code', [user.username, user.password]);

  it('should let a write team member clone and push, and say so in the API', async () => {
    expect((await writer.api.get<Repository>(`/repos/${org}/code`)).body.permissions).toEqual({ admin: false, push: true, pull: true });
    const work = git.dir();
    await git.run(['clone', '--quiet', url(writer), work]);
    await git.commit(work, { 'team.txt': 'written by the team\n' }, 'from the write team');
    await git.run(['push', '--quiet', 'origin', 'main'], { cwd: work });
    const refs = await git.lsRemote(url(owner));
    expect(refs.get('refs/heads/main')).toBe((await git.run(['rev-parse', 'HEAD'], { cwd: work })).stdout.trim());
  });

  it('should let a read team member clone but not push', async () => {
    expect((await reader.api.get<Repository>(`/repos/${org}/code`)).body.permissions).toEqual({ admin: false, push: false, pull: true });
    const work = git.dir();
    await git.run(['clone', '--quiet', url(reader), work]);
    await git.commit(work, { 'reader.txt': 'no\n' }, 'from the read team');
    const push = await git.run(['push', 'origin', 'main'], { cwd: work, allowFailure: true });
    expect(push.code).not.toBe(0);
  });

  it('should take push and fetch away at once when the member leaves the team', async () => {
    expect((await owner.api.delete(`/teams/${writers}/members/${writer.username}`)).status).toBe(204);
    expect((await writer.api.get(`/repos/${org}/code`)).status).toBe(404);
    const clone = await git.run(['clone', '--quiet', url(writer), git.dir()], { allowFailure: true });
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).toMatch(/not found|403|401/i);
  });
});
