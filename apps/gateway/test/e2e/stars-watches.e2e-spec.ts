import type { Repository, User, WatchInfo } from '@gitforge/contracts';
import { Api, createUser, giteaError, type TestUser } from './support/api.js';
import { tokenApi } from './support/accounts.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { addCollaborator, createRepo } from './support/repos.js';

describe.each(layoutsUnderTest())('stars and watches (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let pub: Repository;
  let secret: Repository;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    [alice, bob, carol] = await Promise.all([createUser(api, 'alice'), createUser(api, 'bob'), createUser(api, 'carol')]);
    pub = await createRepo(alice.api, { description: 'public' });
    secret = await createRepo(alice.api, { private: true });
  });

  afterAll(async () => {
    await layout?.stop();
  });

  const repo = async (r: Repository, as: Api = alice.api) => (await as.get<Repository>(`/repos/${r.full_name}`)).body;

  it('should let the creator watch a new repository (AutoWatchNewRepos) and count it', async () => {
    expect(pub.watchers_count).toBe(1);
    expect(pub.stars_count).toBe(0);
    const info = await alice.api.get<WatchInfo>(`/repos/${pub.full_name}/subscription`);
    expect(info.status).toBe(200);
    expect(info.body).toEqual({
      subscribed: true,
      ignored: false,
      reason: null,
      created_at: pub.created_at,
      url: `${pub.url}/subscription`,
      repository_url: pub.url,
    });
    const subscribers = await bob.api.get<User[]>(`/repos/${pub.full_name}/subscribers`);
    expect(subscribers.body.map((u) => u.login)).toEqual([alice.username]);
    expect(subscribers.headers.get('x-total-count')).toBe('1');
  });

  it('should star, check, list and unstar (204s), with stars_count from the rows', async () => {
    expect((await bob.api.get(`/user/starred/${pub.full_name}`)).status).toBe(404);
    expect((await bob.api.put(`/user/starred/${pub.full_name}`)).status).toBe(204);
    // A repeated star changes nothing.
    expect((await bob.api.put(`/user/starred/${pub.full_name}`)).status).toBe(204);
    expect((await carol.api.put(`/user/starred/${pub.full_name}`)).status).toBe(204);
    expect((await bob.api.get(`/user/starred/${pub.full_name}`)).status).toBe(204);
    expect((await repo(pub)).stars_count).toBe(2);

    const gazers = await alice.api.get<User[]>(`/repos/${pub.full_name}/stargazers?limit=1`);
    expect(gazers.body.map((u) => u.login)).toEqual([bob.username]);
    expect(gazers.headers.get('x-total-count')).toBe('2');
    // Gitea counts stargazers in X-Total-Count only.
    expect(gazers.headers.get('link')).toBeNull();

    const mine = await bob.api.get<Repository[]>('/user/starred');
    expect(mine.body.map((r) => r.full_name)).toEqual([pub.full_name]);
    expect(mine.body[0]!.stars_count).toBe(2);
    expect(mine.headers.get('x-total-count')).toBe('1');
    expect(mine.headers.get('link')).toBeNull();
    const theirs = await carol.api.get<Repository[]>(`/users/${bob.username}/starred`);
    expect(theirs.body.map((r) => r.full_name)).toEqual([pub.full_name]);
    // Someone's lists want a token (Gitea's reqToken on the group), before the user is looked up.
    for (const path of [`/users/${bob.username}/starred`, `/users/${bob.username}/subscriptions`, '/users/no-such-user-here/starred']) {
      expect(await api.anonymous.get(path)).toMatchObject({ status: 401, body: { message: 'token is required' } });
    }

    const search = await api.anonymous.get<{ ok: boolean; data: Repository[] }>(`/repos/search?starredBy=${carol.id}`);
    expect(search.body.data.map((r) => r.full_name)).toEqual([pub.full_name]);
    const sorted = await api.anonymous.get<{ data: Repository[] }>(`/repos/search?uid=${alice.id}&sort=stars&order=desc`);
    expect(sorted.body.data[0]!.full_name).toBe(pub.full_name);

    // The users' own counts (starred_repos_count) come from the same rows.
    expect((await api.anonymous.get<User>(`/users/${carol.username}`)).body.starred_repos_count).toBe(1);
    expect((await carol.api.delete(`/user/starred/${pub.full_name}`)).status).toBe(204);
    expect((await carol.api.get(`/user/starred/${pub.full_name}`)).status).toBe(404);
    expect((await api.anonymous.get<User>(`/users/${carol.username}`)).body.starred_repos_count).toBe(0);
    expect((await repo(pub)).stars_count).toBe(1);
    expect((await api.anonymous.get<{ data: Repository[] }>(`/repos/search?starredBy=${carol.id}`)).body.data).toEqual([]);
  });

  it('should watch and unwatch, with watchers_count from the rows and 404 when not watching', async () => {
    expect((await bob.api.get(`/repos/${pub.full_name}/subscription`)).status).toBe(404);
    const put = await bob.api.put<WatchInfo>(`/repos/${pub.full_name}/subscription`);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ subscribed: true, ignored: false, repository_url: pub.url });
    expect((await bob.api.get(`/repos/${pub.full_name}/subscription`)).status).toBe(200);
    expect((await repo(pub)).watchers_count).toBe(2);
    const subs = await bob.api.get<Repository[]>('/user/subscriptions');
    expect(subs.body.map((r) => r.full_name)).toEqual([pub.full_name]);
    expect((await carol.api.get<Repository[]>(`/users/${bob.username}/subscriptions`)).body.map((r) => r.full_name)).toEqual([pub.full_name]);
    expect((await bob.api.delete(`/repos/${pub.full_name}/subscription`)).status).toBe(204);
    expect((await bob.api.get(`/repos/${pub.full_name}/subscription`)).status).toBe(404);
    expect((await repo(pub)).watchers_count).toBe(1);
    // The creator may stop watching too.
    expect((await alice.api.delete(`/repos/${pub.full_name}/subscription`)).status).toBe(204);
    expect((await repo(pub)).watchers_count).toBe(0);
    expect((await alice.api.put(`/repos/${pub.full_name}/subscription`)).status).toBe(200);
  });

  it('should answer 404 for private repositories to outsiders, and 401 without a sign-in', async () => {
    for (const [method, path] of [
      ['PUT', `/user/starred/${secret.full_name}`],
      ['GET', `/user/starred/${secret.full_name}`],
      ['DELETE', `/user/starred/${secret.full_name}`],
      ['GET', `/repos/${secret.full_name}/stargazers`],
      ['PUT', `/repos/${secret.full_name}/subscription`],
      ['GET', `/repos/${secret.full_name}/subscription`],
      ['DELETE', `/repos/${secret.full_name}/subscription`],
      ['GET', `/repos/${secret.full_name}/subscribers`],
    ] as const) {
      const res = await bob.api.request(method, path);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
    }
    expect((await api.anonymous.put(`/user/starred/${pub.full_name}`)).status).toBe(401);
    expect((await api.anonymous.put(`/repos/${pub.full_name}/subscription`)).status).toBe(401);
    expect((await api.anonymous.get('/user/starred')).status).toBe(401);
    expect((await bob.api.put('/user/starred/nobody-here/nothing')).status).toBe(404);
    const unknownUser = await bob.api.get('/users/no-such-user-x/starred');
    expect(unknownUser.status).toBe(404);
  });

  it("should list someone's private stars and subscriptions only to callers who may read them", async () => {
    await addCollaborator(alice.api, secret, bob, 'read');
    expect((await bob.api.put(`/user/starred/${secret.full_name}`)).status).toBe(204);
    expect((await bob.api.put(`/repos/${secret.full_name}/subscription`)).status).toBe(200);
    expect((await repo(secret)).stars_count).toBe(1);

    const own = await bob.api.get<Repository[]>('/user/starred');
    expect(own.body.map((r) => r.full_name).sort()).toEqual([pub.full_name, secret.full_name].sort());
    expect((await bob.api.get<Repository[]>('/user/subscriptions')).body.map((r) => r.full_name)).toContain(secret.full_name);
    // Others see only what they may read, and (as Gitea) never another user's private stars.
    for (const as of [carol.api, alice.api]) {
      const listed = await as.get<Repository[]>(`/users/${bob.username}/starred`);
      expect(listed.status).toBe(200);
      expect(listed.body.map((r) => r.full_name)).toEqual([pub.full_name]);
      expect(listed.headers.get('x-total-count')).toBe('1');
      const watched = await as.get<Repository[]>(`/users/${bob.username}/subscriptions`);
      expect(watched.body.map((r) => r.full_name)).not.toContain(secret.full_name);
    }
    expect((await carol.api.get<{ data: Repository[] }>(`/repos/search?starredBy=${bob.id}`)).body.data.map((r) => r.full_name)).toEqual([pub.full_name]);

    // A reader who loses access no longer finds the repository among its own stars.
    expect((await alice.api.delete(`/repos/${secret.full_name}/collaborators/${bob.username}`)).status).toBe(204);
    expect((await bob.api.get<Repository[]>('/user/starred')).body.map((r) => r.full_name)).toEqual([pub.full_name]);
    expect((await bob.api.get(`/user/starred/${secret.full_name}`)).status).toBe(404);
  });

  it('should count stars and watches on forks and drop them with a deleted repository', async () => {
    const fork = await carol.api.post<Repository>(`/repos/${pub.full_name}/forks`, {});
    expect(fork.status).toBe(202);
    expect(fork.body.watchers_count).toBe(1);
    expect((await carol.api.get(`/repos/${fork.body.full_name}/subscription`)).status).toBe(200);
    expect((await bob.api.put(`/user/starred/${fork.body.full_name}`)).status).toBe(204);
    const starsBefore = (await bob.api.get<User>('/user')).body.starred_repos_count;
    expect((await carol.api.delete(`/repos/${fork.body.full_name}`)).status).toBe(204);
    expect((await bob.api.get<Repository[]>('/user/starred')).body.map((r) => r.full_name)).toEqual([pub.full_name]);
    // The stars of a deleted repository no longer count (Gitea's DeleteRepository).
    expect((await bob.api.get<User>('/user')).body.starred_repos_count).toBe(starsBefore - 1);
    expect((await carol.api.get<Repository[]>('/user/subscriptions')).body).toEqual([]);
  });

  it("should drop a deleted user's stars and watches from the counts and lists (Gitea's DeleteUser)", async () => {
    const target = await createRepo(alice.api, { description: 'loses a fan' });
    const dave = await createUser(api, 'dave');
    expect((await dave.api.put(`/user/starred/${target.full_name}`)).status).toBe(204);
    expect((await dave.api.put(`/repos/${target.full_name}/subscription`)).status).toBe(200);
    expect((await repo(target)).stars_count).toBe(1);
    expect((await repo(target)).watchers_count).toBe(2);
    expect((await api.admin.delete(`/admin/users/${dave.username}`)).status).toBe(204);
    const after = await repo(target);
    expect(after.stars_count).toBe(0);
    expect(after.watchers_count).toBe(1);
    const gazers = await alice.api.get<User[]>(`/repos/${target.full_name}/stargazers`);
    expect(gazers.body).toEqual([]);
    expect(gazers.headers.get('x-total-count')).toBe('0');
    const subscribers = await alice.api.get<User[]>(`/repos/${target.full_name}/subscribers`);
    expect(subscribers.body.map((u) => u.login)).toEqual([alice.username]);
    expect(subscribers.headers.get('x-total-count')).toBe('1');
  });

  it("should stop a removed collaborator's watch of a private repository, and keep it on a public one (Gitea's reconsiderWatches)", async () => {
    const hidden = await createRepo(alice.api, { private: true });
    const open = await createRepo(alice.api, { description: 'open' });
    for (const r of [hidden, open]) {
      await addCollaborator(alice.api, r, carol, 'read');
      expect((await carol.api.put(`/repos/${r.full_name}/subscription`)).status).toBe(200);
      expect((await repo(r)).watchers_count).toBe(2);
      expect((await alice.api.delete(`/repos/${r.full_name}/collaborators/${carol.username}`)).status).toBe(204);
    }
    expect((await repo(hidden)).watchers_count).toBe(1);
    expect((await alice.api.get<User[]>(`/repos/${hidden.full_name}/subscribers`)).body.map((u) => u.login)).toEqual([alice.username]);
    // Anyone may read a public repository: the watch stays.
    expect((await repo(open)).watchers_count).toBe(2);
    expect((await carol.api.get(`/repos/${open.full_name}/subscription`)).status).toBe(200);
  });

  it("should ask tokens for Gitea's scopes: user and repository to star, user to list someone's stars", async () => {
    const userOnly = await tokenApi(bob, ['read:user']);
    expect((await userOnly.get(`/users/${bob.username}/starred`)).status).toBe(200);
    expect((await userOnly.get('/user/subscriptions')).status).toBe(200);
    expect((await userOnly.get('/user/starred')).status).toBe(403);
    const both = await tokenApi(bob, ['read:user', 'read:repository']);
    expect((await both.get('/user/starred')).status).toBe(200);
    expect((await both.put(`/user/starred/${pub.full_name}`)).status).toBe(403);
  });

  it("should answer Gitea's error body when not signed in", async () => {
    const res = await api.anonymous.put(`/user/starred/${pub.full_name}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(giteaError());
  });
});
