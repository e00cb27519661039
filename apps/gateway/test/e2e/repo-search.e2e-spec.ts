import type { Repository, SearchResults } from '@gitforge/contracts';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { expectEventually } from '@gitforge/platform/testing';
import { Layout, layoutsUnderTest } from './support/layout.js';

describe.each(layoutsUnderTest())('GET /repos/search (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  /** A unique word in every repository name of this suite, so other suites' data never matches. */
  const tag = uniqueName('zq').toLowerCase();
  let hiddenOrg: string;

  const names = (res: { body: SearchResults<Repository> }) => res.body.data.map((r) => r.name);
  const search = (who: Api, query: string) => who.get<SearchResults<Repository>>(`/repos/search?${query}`);

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
    const create = async (who: TestUser, body: Record<string, unknown>, path = '/user/repos') => {
      const res = await who.api.post(path, body);
      if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
    };
    await create(alice, { name: `${tag}-alpha`, description: 'a rocket for the moon' });
    await create(alice, { name: `${tag}-beta`, private: true });
    await create(bob, { name: `${tag}-gamma`, template: true });
    hiddenOrg = uniqueName('hidden');
    expect((await alice.api.post('/orgs', { username: hiddenOrg, visibility: 'private' })).status).toBe(201);
    await create(alice, { name: `${tag}-delta` }, `/orgs/${hiddenOrg}/repos`);
    expect((await bob.api.patch(`/repos/${bob.username}/${tag}-gamma`, { archived: true })).status).toBe(200);
  });

  afterAll(async () => {
    await layout?.stop();
  });

  it("should answer Gitea's envelope with paging headers, alphabetically by default", async () => {
    const res = await search(api.anonymous, `q=${tag}`);
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(names(res)).toEqual([`${tag}-alpha`, `${tag}-gamma`]);
    expect(res.headers.get('x-total-count')).toBe('2');
    const first = await search(api.anonymous, `q=${tag}&limit=1`);
    expect(names(first)).toEqual([`${tag}-alpha`]);
    expect(first.headers.get('link')).toContain('rel="next"');
    expect(res.body.data[0]!.permissions).toEqual({ admin: false, push: false, pull: true });
  });

  it('should include the private repositories the caller reaches, unless private=false', async () => {
    expect(names(await search(alice.api, `q=${tag}`))).toEqual([`${tag}-alpha`, `${tag}-beta`, `${tag}-delta`, `${tag}-gamma`]);
    // Without `private`, Gitea's SearchRepositoryCondition keeps public repositories of public owners
    // only: delta, public in alice's private organization, is left out too.
    expect(names(await search(alice.api, `q=${tag}&private=false`))).toEqual([`${tag}-alpha`, `${tag}-gamma`]);
    expect(names(await search(api.admin, `q=${tag}&private=false`))).toEqual([`${tag}-alpha`, `${tag}-gamma`]);
    expect(names(await search(bob.api, `q=${tag}`))).toEqual([`${tag}-alpha`, `${tag}-gamma`]);
    expect(names(await search(api.admin, `q=${tag}`))).toEqual([`${tag}-alpha`, `${tag}-beta`, `${tag}-delta`, `${tag}-gamma`]);
  });

  it('should hide repositories of owners the caller may not see, even public ones', async () => {
    expect(names(await search(bob.api, `q=${tag}-delta`))).toEqual([]);
    expect(names(await search(api.anonymous, `q=${tag}-delta`))).toEqual([]);
    expect(names(await search(alice.api, `q=${tag}-delta`))).toEqual([`${tag}-delta`]);
  });

  it('should search descriptions only with includeDesc', async () => {
    expect(names(await search(api.anonymous, `q=rocket ${tag}`.replace(' ', '%20')))).toEqual([]);
    expect(names(await search(api.anonymous, `q=moon,${tag}-zzz&includeDesc=true`))).toEqual([`${tag}-alpha`]);
    expect(names(await search(api.anonymous, `q=moon,${tag}-zzz`))).toEqual([]);
  });

  it('should match % and _ in a keyword literally, in repository and user searches', async () => {
    // `_` and `%` would be LIKE's wildcards: `-alph_` and `%` match nothing here.
    expect(names(await search(api.anonymous, `q=${tag}-alph_`))).toEqual([]);
    expect(names(await search(api.anonymous, `q=${tag}%25`))).toEqual([]);
    expect(names(await search(api.anonymous, `q=${tag}-alpha`))).toEqual([`${tag}-alpha`]);
    const users = async (q: string) => ((await alice.api.get<{ data: { login: string }[] }>(`/users/search?q=${q}`)).body.data ?? []).map((u) => u.login);
    expect(await users(alice.username)).toEqual([alice.username]);
    expect(await users(`${alice.username.slice(0, -1)}_`)).toEqual([]);
    expect(await users(`${alice.username.slice(0, 3)}%25${alice.username.slice(4)}`)).toEqual([]);
  });

  it('should filter by owner, privacy, template and archived state', async () => {
    // Her own, and delta: her organization's, reached through its Owners team (a collaboration in Gitea's sense).
    expect(names(await search(alice.api, `q=${tag}&uid=${alice.id}`))).toEqual([`${tag}-alpha`, `${tag}-beta`, `${tag}-delta`]);
    expect(names(await search(alice.api, `q=${tag}&uid=${alice.id}&exclusive=true`))).toEqual([`${tag}-alpha`, `${tag}-beta`]);
    expect(names(await search(alice.api, `q=${tag}&is_private=true`))).toEqual([`${tag}-beta`]);
    expect(names(await search(api.anonymous, `q=${tag}&template=true`))).toEqual([`${tag}-gamma`]);
    expect(names(await search(api.anonymous, `q=${tag}&template=false`))).toEqual([`${tag}-alpha`]);
    expect(names(await search(api.anonymous, `q=${tag}&archived=true`))).toEqual([`${tag}-gamma`]);
  });

  it('should sort as asked and put a priority owner first', async () => {
    // Gitea's `alpha` is the owner's name, then the repository's (alice's, bob's, then the organization's "hidden…").
    expect(names(await search(alice.api, `q=${tag}&sort=alpha`))).toEqual([`${tag}-alpha`, `${tag}-beta`, `${tag}-gamma`, `${tag}-delta`]);
    expect(names(await search(alice.api, `q=${tag}&sort=alpha&order=desc`))).toEqual([`${tag}-delta`, `${tag}-gamma`, `${tag}-beta`, `${tag}-alpha`]);
    expect(names(await search(alice.api, `q=${tag}&sort=id`))).toEqual([`${tag}-alpha`, `${tag}-beta`, `${tag}-gamma`, `${tag}-delta`]);
    // The priority owner first, the others by owner (CASE WHEN owner_id = ? THEN 0 ELSE owner_id END), then by name.
    expect(names(await search(alice.api, `q=${tag}&priority_owner_id=${bob.id}`))).toEqual([`${tag}-gamma`, `${tag}-alpha`, `${tag}-beta`, `${tag}-delta`]);
  });

  it('should match an owner/name keyword on both, and follow an owner that is renamed', async () => {
    const owner = await createUser(api, 'carol');
    expect((await owner.api.post('/user/repos', { name: `${tag}-epsilon` })).status).toBe(201);
    expect(names(await search(api.anonymous, `q=${owner.username.slice(0, -2)}/${tag}-eps`))).toEqual([`${tag}-epsilon`]);
    expect(names(await search(api.anonymous, `q=${alice.username}/${tag}-eps`))).toEqual([]);
    const renamed = uniqueName('dave');
    expect((await api.admin.post(`/admin/users/${owner.username}/rename`, { new_username: renamed })).status).toBe(204);
    // The repositories learn their owner's new name in the background.
    await expectEventually(async () => expect(names(await search(api.anonymous, `q=${renamed}/${tag}`))).toEqual([`${tag}-epsilon`]));
    expect(names(await search(api.anonymous, `q=${owner.username}/${tag}`))).toEqual([]);
  });

  it('should refuse an unknown sort, order or mode with 422', async () => {
    expect((await search(api.anonymous, 'sort=weird')).body).toEqual(giteaError('Invalid sort mode: "weird"'));
    expect((await search(api.anonymous, 'sort=alpha&order=up')).status).toBe(422);
    expect((await search(api.anonymous, 'mode=everything')).body).toEqual(giteaError('invalid search mode'));
  });

  it('should count as uid’s collaborations its teams’ repositories and the public ones of private organizations it belongs to', async () => {
    const dana = await createUser(api, 'dana');
    const org = uniqueName('uidorg');
    expect((await alice.api.post('/orgs', { username: org })).status).toBe(201);
    const secretOrg = uniqueName('uidsecret');
    expect((await alice.api.post('/orgs', { username: secretOrg, visibility: 'private' })).status).toBe(201);
    for (const [o, name, priv] of [[org, 'linked', true], [org, 'unlinked', false], [secretOrg, 'open', false], [secretOrg, 'closed', true]] as const) {
      expect((await alice.api.post(`/orgs/${o}/repos`, { name: `${tag}-${name}`, private: priv })).status).toBe(201);
    }
    const team = (await alice.api.post<{ id: number }>(`/orgs/${org}/teams`, { name: 'readers', permission: 'read', units: ['repo.code'] })).body;
    expect((await alice.api.put(`/teams/${team.id}/members/${dana.username}`)).status).toBe(204);
    expect((await alice.api.put(`/teams/${team.id}/repos/${org}/${tag}-linked`)).status).toBe(204);
    const secretTeam = (await alice.api.post<{ id: number }>(`/orgs/${secretOrg}/teams`, { name: 'members', permission: 'read', units: ['repo.issues'] })).body;
    expect((await alice.api.put(`/teams/${secretTeam.id}/members/${dana.username}`)).status).toBe(204);
    expect((await dana.api.post('/user/repos', { name: `${tag}-own` })).status).toBe(201);
    // Gitea's SearchRepositoryCondition: her own, her team's linked repository, the public one of the private organization.
    expect(names(await search(alice.api, `q=${tag}&uid=${dana.id}`))).toEqual([`${tag}-linked`, `${tag}-open`, `${tag}-own`]);
    expect(names(await search(alice.api, `q=${tag}&uid=${dana.id}&exclusive=true`))).toEqual([`${tag}-own`]);
    expect(names(await search(alice.api, `q=${tag}&uid=${dana.id}&mode=collaborative`))).toEqual([`${tag}-linked`, `${tag}-open`]);
    // What the searcher may not see stays out: bob sees none of the organizations' private or hidden repositories.
    expect(names(await search(bob.api, `q=${tag}&uid=${dana.id}`))).toEqual([`${tag}-own`]);
    // Without uid, the collaborative mode narrows nothing (Gitea applies Collaborate to an owner only).
    expect(names(await search(api.anonymous, `q=${tag}-un&mode=collaborative`))).toEqual([`${tag}-unlinked`]);
  });

  it("should narrow to a team's repositories as Gitea does, whoever asks (visibility applies to the repositories, not the team)", async () => {
    const org = uniqueName('teamorg');
    expect((await alice.api.post('/orgs', { username: org })).status).toBe(201);
    expect((await alice.api.post(`/orgs/${org}/repos`, { name: `${tag}-team` })).status).toBe(201);
    expect((await alice.api.post(`/orgs/${org}/repos`, { name: `${tag}-teamsecret`, private: true })).status).toBe(201);
    const team = (await alice.api.post<{ id: number }>(`/orgs/${org}/teams`, { name: 'devs', permission: 'read', units: ['repo.code'], visibility: 'private' })).body;
    for (const repo of [`${tag}-team`, `${tag}-teamsecret`]) expect((await alice.api.put(`/teams/${team.id}/repos/${org}/${repo}`)).status).toBe(204);
    expect(names(await search(alice.api, `q=${tag}&team_id=${team.id}`))).toEqual([`${tag}-team`, `${tag}-teamsecret`]);
    // bob and anonymous callers see the team's public repository, not its private one.
    for (const who of [bob.api, api.anonymous]) expect(names(await search(who, `team_id=${team.id}`))).toEqual([`${tag}-team`]);
    const none = await search(alice.api, 'team_id=999999999');
    expect([none.status, names(none)]).toEqual([200, []]);
  });
});
