import type {
  CreateEmailOption,
  DeleteEmailOption,
  EditUserOption,
  Email,
  Repository,
  SearchResults,
  User,
  UserSettings,
  UserSettingsOptions,
} from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { createOrg, tokenApi } from './support/accounts.js';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { ADMIN, Layout, layoutsUnderTest } from './support/layout.js';

const USER_FIELDS = [
  'active',
  'avatar_url',
  'created',
  'description',
  'email',
  'followers_count',
  'following_count',
  'full_name',
  'html_url',
  'id',
  'is_admin',
  'language',
  'last_login',
  'location',
  'login',
  'login_name',
  'prohibit_login',
  'restricted',
  'source_id',
  'starred_repos_count',
  'username',
  'visibility',
  'website',
];

describe.each(layoutsUnderTest())('users through the gateway (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    layout = await Layout.start(kind, { env: { GITFORGE_AUTH_CACHE_TTL_MS: '200' } });
    api = new Api(layout);
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
  });

  afterAll(async () => {
    await layout?.stop();
  });

  describe('the User shape', () => {
    it('should answer every field of docs/spec.md, the private ones to the user itself', async () => {
      const me = await alice.api.get<User>('/user');
      expect(me.status).toBe(200);
      expect(Object.keys(me.body).sort()).toEqual(USER_FIELDS);
      expect(me.body).toMatchObject({ login: alice.username, email: alice.email, active: true, visibility: 'public' });
      expect(me.body.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(me.body.last_login).not.toBe('0001-01-01T00:00:00Z');
    });

    it('should hide the login details from other users and keep them for site admins', async () => {
      const other = await bob.api.get<User>(`/users/${alice.username}`);
      expect(other.body).toMatchObject({ active: false, last_login: '0001-01-01T00:00:00Z', is_admin: false, language: '' });
      const admin = await api.admin.get<User>(`/users/${alice.username}`);
      expect(admin.body.active).toBe(true);
      expect(admin.body.last_login).not.toBe('0001-01-01T00:00:00Z');
    });

    it("should show site admins the epoch as the last login of a user who never signed in (Gitea's unset unix timestamp)", async () => {
      const username = uniqueName('never');
      expect((await api.admin.post('/admin/users', { username, email: `${username}@example.com`, password: 'password-1', must_change_password: false })).status).toBe(201);
      expect((await api.admin.get<User>(`/users/${username}`)).body.last_login).toBe('1970-01-01T00:00:00Z');
      expect((await bob.api.get<User>(`/users/${username}`)).body.last_login).toBe('0001-01-01T00:00:00Z');
    });
  });

  describe('visibility', () => {
    let limited: TestUser;
    let hidden: TestUser;

    beforeAll(async () => {
      limited = await createUser(api, 'limited', { visibility: 'limited' });
      hidden = await createUser(api, 'hidden', { visibility: 'private' });
      expect((await hidden.api.post('/user/repos', { name: 'open' })).status).toBe(201);
      expect((await limited.api.post('/user/repos', { name: 'open' })).status).toBe(201);
    });

    it.each([
      ['public', 'anonymous', 200],
      ['public', 'signed-in', 200],
      ['public', 'admin', 200],
      ['limited', 'anonymous', 404],
      ['limited', 'signed-in', 200],
      ['limited', 'admin', 200],
      ['private', 'anonymous', 404],
      ['private', 'signed-in', 404],
      ['private', 'admin', 200],
    ])('should show a %s user to %s callers with %i', async (visibility, viewer, status) => {
      const user = visibility === 'public' ? alice : visibility === 'limited' ? limited : hidden;
      const caller = viewer === 'anonymous' ? api.anonymous : viewer === 'admin' ? api.admin : bob.api;
      const res = await caller.get<User>(`/users/${user.username}`);
      expect(res.status).toBe(status);
      // Gitea's bare "not found" for someone hidden (one that does not exist names the redirect it looked for).
      if (status === 404) expect(res.body).toEqual(giteaError('not found'));
      else expect(res.body.login).toBe(user.username);
    });

    it('should always show users to themselves', async () => {
      expect((await hidden.api.get(`/users/${hidden.username}`)).status).toBe(200);
    });

    it.each([
      ['limited', 'anonymous', 404],
      ['limited', 'signed-in', 200],
      ['private', 'signed-in', 404],
      ['private', 'admin', 200],
    ])('should hide the repositories of a %s user from %s callers (%i)', async (visibility, viewer, status) => {
      const user = visibility === 'limited' ? limited : hidden;
      const caller = viewer === 'anonymous' ? api.anonymous : viewer === 'admin' ? api.admin : bob.api;
      expect((await caller.get<Repository[]>(`/users/${user.username}/repos`)).status).toBe(status);
      expect((await caller.get<Repository>(`/repos/${user.username}/open`)).status).toBe(status);
    });

    it('should keep hidden users out of search results', async () => {
      const search = async (caller: Api, q: string) =>
        (await caller.get<SearchResults<User>>(`/users/search?q=${q}`)).body.data.map((u) => u.login);
      expect(await search(api.anonymous, limited.username)).toEqual([]);
      expect(await search(bob.api, limited.username)).toEqual([limited.username]);
      expect(await search(bob.api, hidden.username)).toEqual([]);
      expect(await search(hidden.api, hidden.username)).toEqual([hidden.username]);
      expect(await search(api.admin, hidden.username)).toEqual([hidden.username]);
      const byId = await bob.api.get<SearchResults<User>>(`/users/search?uid=${hidden.id}`);
      expect(byId.body).toEqual({ ok: true, data: [] });
    });

    it('should answer 404 for unknown users', async () => {
      expect((await api.anonymous.get('/users/no-such-user-anywhere')).status).toBe(404);
      expect((await api.admin.get('/users/no-such-user-anywhere')).status).toBe(404);
    });
  });

  describe('search', () => {
    let carol: TestUser;

    beforeAll(async () => {
      carol = await createUser(api, 'carol', { full_name: 'Carol Quinterro' });
    });

    it('should find users by login and full name, in the {data, ok} envelope', async () => {
      const byLogin = await api.anonymous.get<SearchResults<User>>(`/users/search?q=${carol.username.slice(0, 12).toUpperCase()}`);
      expect(byLogin.status).toBe(200);
      expect(byLogin.body.ok).toBe(true);
      expect(byLogin.body.data.map((u) => u.login)).toContain(carol.username);
      const byName = await bob.api.get<SearchResults<User>>('/users/search?q=quinterro');
      expect(byName.body.data.map((u) => u.login)).toEqual([carol.username]);
      expect(byName.headers.get('x-total-count')).toBe('1');
    });

    it('should match e-mail addresses except those kept private', async () => {
      const address = `${uniqueName('mail')}@search.example.com`;
      const dave = await createUser(api, 'dave', { email: address });
      const found = async (caller: Api) => (await caller.get<SearchResults<User>>(`/users/search?q=${address}`)).body.data.map((u) => u.login);
      expect(await found(bob.api)).toEqual([dave.username]);
      expect((await dave.api.patch('/user/settings', { hide_email: true } satisfies UserSettingsOptions)).status).toBe(200);
      expect(await found(bob.api)).toEqual([]);
      expect(await found(api.anonymous)).toEqual([]);
      expect(await found(dave.api)).toEqual([dave.username]);
      expect(await found(api.admin)).toEqual([dave.username]);
    });

    it('should find one user by uid, and the ghost user', async () => {
      const res = await api.anonymous.get<SearchResults<User>>(`/users/search?uid=${carol.id}`);
      expect(res.body.data).toEqual([expect.objectContaining({ id: carol.id, login: carol.username })]);
      const ghost = await api.anonymous.get<SearchResults<User>>('/users/search?uid=-1');
      expect(ghost.body.data).toEqual([expect.objectContaining({ id: -1, login: 'Ghost' })]);
    });

    it('should page results with Gitea headers and leave organizations out', async () => {
      const prefix = uniqueName('pg');
      for (let i = 0; i < 3; i++) await createUser(api, `${prefix}x`);
      await createOrg(alice.api, { username: `${prefix}org` });
      const res = await api.anonymous.get<SearchResults<User>>(`/users/search?q=${prefix}&limit=2&page=2`);
      expect(res.body.data).toHaveLength(1);
      expect(res.headers.get('x-total-count')).toBe('3');
      expect(res.headers.get('link')).toContain('rel="first"');
    });
  });

  describe('settings', () => {
    it('should answer the settings of the caller', async () => {
      const res = await alice.api.get<UserSettings>('/user/settings');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        full_name: '',
        website: '',
        description: '',
        location: '',
        language: '',
        theme: 'gitea-auto',
        diff_view_style: '',
        hide_email: false,
        hide_activity: false,
      });
    });

    it('should change only the fields sent and show them in the profile', async () => {
      const erin = await createUser(api, 'erin');
      const res = await erin.api.patch<UserSettings>('/user/settings', {
        full_name: 'Erin E',
        location: 'Lyon',
        website: 'https://erin.example.com',
        hide_email: true,
      } satisfies UserSettingsOptions);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ full_name: 'Erin E', location: 'Lyon', website: 'https://erin.example.com', hide_email: true, theme: 'gitea-auto' });
      const again = await erin.api.patch<UserSettings>('/user/settings', { description: 'hi' } satisfies UserSettingsOptions);
      expect(again.body).toMatchObject({ full_name: 'Erin E', description: 'hi' });
      const seen = await bob.api.get<User>(`/users/${erin.username}`);
      expect(seen.body).toMatchObject({ full_name: 'Erin E', location: 'Lyon', description: 'hi' });
      expect(seen.body.email).not.toBe(erin.email);
      expect((await erin.api.get<User>('/user')).body.email).toBe(erin.email);
    });

    it('should validate like Gitea and require sign-in', async () => {
      expect((await alice.api.patch('/user/settings', { language: 'too-long-language' })).body).toEqual(giteaError('[Language]: MaxSize'));
      expect((await alice.api.patch('/user/settings', { website: 'not a url' })).status).toBe(422);
      expect((await api.anonymous.get('/user/settings')).status).toBe(401);
    });
  });

  describe('e-mail addresses', () => {
    it('should list the primary address, add others (201) and delete them (204)', async () => {
      const fay = await createUser(api, 'fay');
      expect((await fay.api.get<Email[]>('/user/emails')).body).toEqual([
        { email: fay.email, verified: true, primary: true, user_id: 0, username: '' },
      ]);
      const other = `${fay.username}-2@example.com`;
      const added = await fay.api.post<Email[]>('/user/emails', { emails: [other] } satisfies CreateEmailOption);
      expect(added.status).toBe(201);
      expect(added.body.map((e) => [e.email, e.primary, e.verified])).toEqual([
        [fay.email, true, true],
        [other, false, true],
      ]);
      const deleted = await fay.api.delete('/user/emails', { emails: [other] } satisfies DeleteEmailOption);
      expect(deleted.status).toBe(204);
      expect((await fay.api.get<Email[]>('/user/emails')).body.map((e) => e.email)).toEqual([fay.email]);
    });

    it('should refuse empty lists, invalid and used addresses with 422', async () => {
      expect((await alice.api.post('/user/emails', { emails: [] })).body).toEqual(giteaError('Email list empty'));
      expect((await alice.api.post('/user/emails', { emails: ['not-an-address'] })).body).toEqual(giteaError('Email address "not-an-address" invalid'));
      const used = await alice.api.post('/user/emails', { emails: [bob.email.toUpperCase()] });
      expect(used.status).toBe(422);
      expect(used.body).toEqual(giteaError(`Email address has been used: ${bob.email.toUpperCase()}`));
    });

    it('should answer 404 for an address the caller does not have and 422 for the primary one', async () => {
      const res = await alice.api.delete('/user/emails', { emails: [bob.email] });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(giteaError(`Email address does not exist [email: ${bob.email}]`));
      expect((await alice.api.delete('/user/emails', { emails: [alice.email] })).status).toBe(422);
      expect((await alice.api.delete('/user/emails', { emails: [] })).status).toBe(204);
      expect((await api.anonymous.get('/user/emails')).status).toBe(401);
    });

    it('should let a secondary address sign in', async () => {
      const gus = await createUser(api, 'gus');
      const other = `${gus.username}-alt@example.com`;
      await gus.api.post('/user/emails', { emails: [other] });
      expect((await api.asUser(other, gus.password).get<User>('/user')).body.login).toBe(gus.username);
    });

    it('should list every individual address to site admins, by address, without organizations', async () => {
      const prefix = uniqueName('aa');
      const hal = await createUser(api, 'hal', { email: `${prefix}-z@example.com` });
      await hal.api.post('/user/emails', { emails: [`${prefix}-a@example.com`] });
      await createOrg(hal.api, { username: `${prefix}org`, email: `${prefix}-org@example.com` });
      const res = await api.admin.get<Email[]>(`/admin/emails/search?q=${prefix}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { email: `${prefix}-a@example.com`, verified: true, primary: false, user_id: hal.id, username: hal.username },
        { email: `${prefix}-z@example.com`, verified: true, primary: true, user_id: hal.id, username: hal.username },
      ]);
      expect(res.headers.get('x-total-count')).toBe('2');
      const byLogin = await api.admin.get<Email[]>(`/admin/emails/search?q=${hal.username}`);
      expect(byLogin.body).toHaveLength(2);
      const all = await api.admin.get<Email[]>('/admin/emails?limit=50');
      const emails = all.body.map((e) => e.email);
      expect(emails).toContain(ADMIN.email);
      expect([...emails].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))).toEqual(emails);
      expect(Number(all.headers.get('x-total-count'))).toBeGreaterThanOrEqual(emails.length);
    });

    it('should keep the admin listing for site admins (403, 401)', async () => {
      expect((await alice.api.get('/admin/emails')).body).toEqual(giteaError('user should be the site admin'));
      expect((await alice.api.get('/admin/emails/search?q=a')).status).toBe(403);
      expect((await api.anonymous.get('/admin/emails')).status).toBe(401);
    });
  });

  describe('followers', () => {
    it('should follow and unfollow, keeping the counts real', async () => {
      const ivy = await createUser(api, 'ivy');
      const jon = await createUser(api, 'jon');
      expect((await ivy.api.put(`/user/following/${jon.username}`)).status).toBe(204);
      expect((await ivy.api.put(`/user/following/${jon.username}`)).status).toBe(204);
      expect((await api.anonymous.get<User>(`/users/${jon.username}`)).body.followers_count).toBe(1);
      expect((await ivy.api.get<User>('/user')).body.following_count).toBe(1);

      const followers = await ivy.api.get<User[]>(`/users/${jon.username}/followers`);
      expect(followers.body.map((u) => u.login)).toEqual([ivy.username]);
      expect(followers.headers.get('x-total-count')).toBe('1');
      expect((await jon.api.get<User[]>('/user/followers')).body.map((u) => u.login)).toEqual([ivy.username]);
      expect((await ivy.api.get<User[]>('/user/following')).body.map((u) => u.login)).toEqual([jon.username]);
      expect((await bob.api.get<User[]>(`/users/${ivy.username}/following`)).body.map((u) => u.login)).toEqual([jon.username]);

      expect((await ivy.api.get(`/user/following/${jon.username}`)).status).toBe(204);
      expect((await jon.api.get(`/user/following/${ivy.username}`)).status).toBe(404);
      expect((await bob.api.get(`/users/${ivy.username}/following/${jon.username}`)).status).toBe(204);
      expect((await bob.api.get(`/users/${jon.username}/following/${ivy.username}`)).status).toBe(404);

      expect((await ivy.api.delete(`/user/following/${jon.username}`)).status).toBe(204);
      expect((await api.anonymous.get<User>(`/users/${jon.username}`)).body.followers_count).toBe(0);
      expect((await ivy.api.get<User>('/user')).body.following_count).toBe(0);
      expect((await ivy.api.get<User[]>('/user/following')).body).toEqual([]);
    });

    it('should hide followers the caller may not see', async () => {
      const kim = await createUser(api, 'kim');
      const shy = await createUser(api, 'shy', { visibility: 'private' });
      await shy.api.put(`/user/following/${kim.username}`);
      expect((await bob.api.get<User[]>(`/users/${kim.username}/followers`)).body).toEqual([]);
      expect((await api.admin.get<User[]>(`/users/${kim.username}/followers`)).body.map((u) => u.login)).toEqual([shy.username]);
      // A private user who follows you is visible to you.
      expect((await kim.api.get<User[]>('/user/followers')).body.map((u) => u.login)).toEqual([shy.username]);
      expect((await kim.api.get<User>(`/users/${shy.username}`)).status).toBe(404);
    });

    it('should answer 404 for unknown users and 401 without sign-in', async () => {
      expect((await alice.api.put('/user/following/no-such-user-here')).status).toBe(404);
      expect((await alice.api.get('/users/no-such-user-here/followers')).status).toBe(404);
      expect((await alice.api.get(`/users/${bob.username}/following/no-such-user-here`)).status).toBe(404);
      expect((await api.anonymous.get(`/users/${bob.username}/followers`)).status).toBe(401);
      expect((await api.anonymous.put(`/user/following/${bob.username}`)).status).toBe(401);
    });
  });

  describe('admin edit', () => {
    it('should edit a user (200) and answer the User with its private fields', async () => {
      const lou = await createUser(api, 'lou');
      const res = await api.admin.patch<User>(`/admin/users/${lou.username}`, {
        login_name: 'lou-ext',
        source_id: 0,
        full_name: 'Lou L',
        website: 'https://lou.example.com',
        restricted: true,
        visibility: 'limited',
        admin: true,
      } satisfies EditUserOption);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        login: lou.username,
        login_name: 'lou-ext',
        full_name: 'Lou L',
        website: 'https://lou.example.com',
        restricted: true,
        visibility: 'limited',
        is_admin: true,
        active: true,
      });
      const demoted = await api.admin.patch<User>(`/admin/users/${lou.username}`, { login_name: 'lou-ext', admin: false });
      expect(demoted.body.is_admin).toBe(false);
    });

    it('should leave the visibility alone when told "public", as Gitea does', async () => {
      const mo = await createUser(api, 'mo', { visibility: 'private' });
      const res = await api.admin.patch<User>(`/admin/users/${mo.username}`, { login_name: '', source_id: 0, visibility: 'public' });
      expect(res.status).toBe(422);
      const kept = await api.admin.patch<User>(`/admin/users/${mo.username}`, { login_name: 'mo', visibility: 'public' });
      expect(kept.body.visibility).toBe('private');
    });

    it('should change the primary e-mail address', async () => {
      const nia = await createUser(api, 'nia');
      const next = `${nia.username}-new@example.com`;
      const res = await api.admin.patch<User>(`/admin/users/${nia.username}`, { login_name: nia.username, email: next });
      expect(res.body.email).toBe(next);
      // The old primary address is replaced, not kept (Gitea's ReplacePrimaryEmailAddress): free for anyone again.
      expect((await nia.api.get<Email[]>('/user/emails')).body.map((e) => [e.email, e.primary])).toEqual([[next, true]]);
      expect((await nia.api.post('/user/emails', { emails: [`${nia.username}-second@example.com`] })).status).toBe(201);
      // An address of the user's own, not primary, is in use all the same.
      expect(await api.admin.patch(`/admin/users/${nia.username}`, { login_name: nia.username, email: `${nia.username}-second@example.com` })).toMatchObject({
        status: 400,
        body: giteaError(`e-mail already in use [email: ${nia.username}-second@example.com]`),
      });
      const reuse = uniqueName('reuse');
      expect((await api.admin.post('/admin/users', { username: reuse, email: nia.email, password: 'password-1', must_change_password: false })).status).toBe(201);
      const used = await api.admin.patch(`/admin/users/${nia.username}`, { login_name: nia.username, email: bob.email });
      expect(used.status).toBe(400);
      expect(used.body).toEqual(giteaError(`e-mail already in use [email: ${bob.email}]`));
      expect((await api.admin.patch(`/admin/users/${nia.username}`, { login_name: nia.username, email: '' })).body).toEqual(
        giteaError('e-mail invalid [email: ]'),
      );
    });

    it('should validate and refuse what Gitea refuses', async () => {
      expect((await api.admin.patch(`/admin/users/${alice.username}`, { full_name: 'x' })).body).toEqual(giteaError('[LoginName]: Required'));
      expect((await api.admin.patch('/admin/users/no-such-user-here', { login_name: 'x' })).status).toBe(404);
      expect((await api.admin.patch(`/admin/users/${alice.username}`, { login_name: 'x', password: 'short' })).status).toBe(400);
      expect((await alice.api.patch(`/admin/users/${bob.username}`, { login_name: 'x' })).body).toEqual(giteaError('user should be the site admin'));
      expect((await api.anonymous.patch(`/admin/users/${bob.username}`, { login_name: 'x' })).status).toBe(401);
      const root = await api.admin.patch(`/admin/users/${ADMIN.username}`, { login_name: ADMIN.username, admin: false });
      expect(root.status).toBe(400);
      expect(root.body).toEqual(giteaError(/can not delete the last admin user/));
    });

    it('should refuse prohibited and inactive users at authentication', async () => {
      const oz = await createUser(api, 'oz');
      const token = await tokenApi(oz, ['read:user']);
      expect((await token.get('/user')).status).toBe(200);
      await api.admin.patch(`/admin/users/${oz.username}`, { login_name: oz.username, prohibit_login: true });
      await expectEventually(async () => {
        const res = await oz.api.get('/user');
        expect(res.status).toBe(401);
        expect(res.body).toEqual(giteaError('invalid username, password or token'));
      });
      await expectEventually(async () => {
        const res = await token.get('/user');
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ message: 'This account is prohibited from signing in, please contact your site administrator.' });
      });
      await api.admin.patch(`/admin/users/${oz.username}`, { login_name: oz.username, prohibit_login: false, active: false });
      await expectEventually(async () => expect((await oz.api.get('/user')).status).toBe(403));
      await api.admin.patch(`/admin/users/${oz.username}`, { login_name: oz.username, active: true, password: 'a-new-password' });
      await expectEventually(async () => expect((await api.asUser(oz.username, 'a-new-password').get('/user')).status).toBe(200));
      expect((await oz.api.get('/user')).status).toBe(401);
    });
  });

  describe('admin delete', () => {
    it('should delete a user (204) whose tokens, e-mails and follows go with it', async () => {
      const pat = await createUser(api, 'pat');
      const token = await tokenApi(pat, ['read:user']);
      await pat.api.put(`/user/following/${bob.username}`);
      const before = (await api.anonymous.get<User>(`/users/${bob.username}`)).body.followers_count;
      expect((await api.admin.delete(`/admin/users/${pat.username}`)).status).toBe(204);
      expect((await api.admin.get(`/users/${pat.username}`)).status).toBe(404);
      expect((await api.anonymous.get<User>(`/users/${bob.username}`)).body.followers_count).toBe(before - 1);
      await expectEventually(async () => expect((await token.get('/user')).status).toBe(401));
      // Its address is free again.
      expect((await api.admin.post('/admin/users', { username: uniqueName('reuse'), email: pat.email, password: 'password-1' })).status).toBe(201);
      expect((await api.admin.delete(`/admin/users/${pat.username}`)).status).toBe(404);
    });

    it('should refuse users that own repositories or belong to organizations, and oneself (422)', async () => {
      const quin = await createUser(api, 'quin');
      await quin.api.post('/user/repos', { name: 'mine' });
      const owns = await api.admin.delete(`/admin/users/${quin.username}`);
      expect(owns.status).toBe(422);
      expect(owns.body).toEqual(giteaError(`user still has ownership of repositories [uid: ${quin.id}]`));
      const rae = await createUser(api, 'rae');
      await createOrg(rae.api);
      expect((await api.admin.delete(`/admin/users/${rae.username}`)).body).toEqual(
        giteaError(`user still has membership of organizations [uid: ${rae.id}]`),
      );
      expect((await api.admin.delete(`/admin/users/${ADMIN.username}`)).body).toEqual(giteaError('you cannot delete yourself'));
      expect((await alice.api.delete(`/admin/users/${bob.username}`)).status).toBe(403);
    });
  });
});
