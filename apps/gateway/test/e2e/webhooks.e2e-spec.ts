import { createHash, createHmac } from 'node:crypto';
import type { CreateHookOption, EditHookOption, Hook, HookDelivery, HookDeliveryDetail, Repository } from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { HookReceiver, type ReceivedDelivery } from './support/hook-receiver.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { serviceQuery } from './support/repo-disk.js';

const hmac = (algo: 'sha1' | 'sha256', secret: string, body: string): string => createHmac(algo, secret).update(body).digest('hex');

describe.each(layoutsUnderTest())('webhooks through the gateway (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let receiver: HookReceiver;
  let alice: TestUser;
  let bob: TestUser;
  let org: string;

  const gitea = (path: string, extra: Partial<CreateHookOption> = {}): CreateHookOption => ({
    type: 'gitea',
    config: { url: receiver.url(path), content_type: 'json' },
    active: true,
    ...extra,
  });

  async function createRepo(owner: TestUser, name = uniqueName('repo'), extra: Record<string, unknown> = {}): Promise<Repository> {
    const res = await owner.api.post<Repository>('/user/repos', { name, ...extra });
    expect(res.status).toBe(201);
    return res.body;
  }

  const bodyOf = (d: ReceivedDelivery): Record<string, unknown> => JSON.parse(d.body) as Record<string, unknown>;

  beforeAll(async () => {
    layout = await Layout.start(kind, { env: { GITFORGE_WEBHOOK_ALLOW_LOOPBACK: '1', GITFORGE_WEBHOOK_BACKOFF_MS: '200', GITFORGE_WEBHOOK_MAX_ATTEMPTS: '3' } });
    api = new Api(layout);
    receiver = await HookReceiver.start();
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
    org = uniqueName('org');
    expect((await alice.api.post('/orgs', { username: org })).status).toBe(201);
  });

  afterAll(async () => {
    await receiver?.close();
    await layout?.stop();
  });

  describe('repository hooks', () => {
    let repo: Repository;
    let privateRepo: Repository;

    beforeAll(async () => {
      repo = await createRepo(alice);
      privateRepo = await createRepo(alice, uniqueName('secret'), { private: true });
    });

    it('should create a hook (201) in the Hook shape, without the secret', async () => {
      const res = await alice.api.post<Hook>(`/repos/${repo.full_name}/hooks`, {
        type: 'gitea',
        name: 'ci',
        config: { url: receiver.url('/repo-crud'), content_type: 'form', secret: 'shh' },
        events: ['push', 'create'],
        branch_filter: 'main',
        authorization_header: 'Bearer t0k',
        active: true,
      } satisfies CreateHookOption);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        name: 'ci',
        type: 'gitea',
        branch_filter: 'main',
        config: { url: receiver.url('/repo-crud'), content_type: 'form' },
        events: ['create', 'push'],
        // Like the secret, the stored header never leaves (Gitea's ToHook).
        authorization_header: '',
        active: true,
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      });
    });

    it('should default to an inactive push-only hook', async () => {
      const res = await alice.api.post<Hook>(`/repos/${repo.full_name}/hooks`, {
        type: 'gitea',
        config: { url: receiver.url('/defaults'), content_type: 'json' },
      } satisfies CreateHookOption);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ active: false, events: ['push'], branch_filter: '', authorization_header: '', name: '' });
    });

    it('should list, page and show hooks', async () => {
      const list = await alice.api.get<Hook[]>(`/repos/${repo.full_name}/hooks?limit=1`);
      expect(list.status).toBe(200);
      expect(list.body).toHaveLength(1);
      expect(Number(list.headers.get('x-total-count'))).toBeGreaterThanOrEqual(2);
      // Gitea's ListHooks sets X-Total-Count only; an organization's or a user's (ListOwnerHooks) link their pages too.
      expect(list.headers.get('link')).toBeNull();
      const orgList = await alice.api.get<Hook[]>(`/orgs/${org}/hooks?limit=1`);
      expect(orgList.headers.get('x-total-count')).not.toBeNull();
      if (Number(orgList.headers.get('x-total-count')) > 1) expect(orgList.headers.get('link')).toContain('rel="next"');
      else expect(orgList.headers.get('link')).toBeNull();
      const one = await alice.api.get<Hook>(`/repos/${repo.full_name}/hooks/${list.body[0]!.id}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual(list.body[0]);
    });

    it("should edit with Gitea's semantics: events recomputed, filter and authorization cleared, active kept", async () => {
      const created = await alice.api.post<Hook>(`/repos/${repo.full_name}/hooks`, gitea('/edit', { events: ['issues'], branch_filter: 'dev', authorization_header: 'x' }));
      const res = await alice.api.patch<Hook>(`/repos/${repo.full_name}/hooks/${created.body.id}`, {
        config: { url: receiver.url('/edited'), content_type: 'json' },
        name: '  renamed ',
      } satisfies EditHookOption);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: 'renamed',
        events: ['push'],
        branch_filter: '',
        authorization_header: '',
        active: true,
        config: { url: receiver.url('/edited'), content_type: 'json' },
      });
      const off = await alice.api.patch<Hook>(`/repos/${repo.full_name}/hooks/${created.body.id}`, { active: false, events: ['pull_request_only'] } satisfies EditHookOption);
      expect(off.body).toMatchObject({ active: false, events: ['pull_request'], name: 'renamed' });
    });

    it('should delete a hook (204), then answer 404', async () => {
      const created = await alice.api.post<Hook>(`/repos/${repo.full_name}/hooks`, gitea('/gone'));
      expect((await alice.api.delete(`/repos/${repo.full_name}/hooks/${created.body.id}`)).status).toBe(204);
      expect((await alice.api.get(`/repos/${repo.full_name}/hooks/${created.body.id}`)).status).toBe(404);
      expect((await alice.api.delete(`/repos/${repo.full_name}/hooks/${created.body.id}`)).status).toBe(404);
    });

    it.each([
      [{ config: { url: 'http://x.test/', content_type: 'json' } }, 422, '[Type]: Required'],
      [{ type: 'gitea' }, 422, '[Config]: Required'],
      [{ type: 'jira', config: { url: 'http://x.test/', content_type: 'json' } }, 422, 'Invalid hook type: jira'],
      [{ type: 'gitea', config: { content_type: 'json' } }, 422, 'Missing config option: url'],
      [{ type: 'gitea', config: { url: 'http://x.test/' } }, 422, 'Missing config option: content_type'],
      [{ type: 'gitea', config: { url: 'http://x.test/', content_type: 'xml' } }, 422, 'Invalid content type'],
      [{ type: 'gitea', config: { url: 'not a url', content_type: 'json' } }, 422, 'Invalid url'],
      [{ type: 'slack', config: { url: 'http://x.test/', content_type: 'json' } }, 422, 'Missing config option: channel'],
      [{ type: 'slack', config: { url: 'http://x.test/', content_type: 'json', channel: 'Bad Channel!' } }, 400, 'Invalid slack channel name'],
      [{ type: 'gitea', config: { url: 'http://x.test/', content_type: 'json' }, branch_filter: '{main' }, 422, '[BranchFilter]: GlobPattern'],
    ])('should refuse %j with %i', async (body, status, message) => {
      const res = await alice.api.post(`/repos/${repo.full_name}/hooks`, body);
      expect(res.status).toBe(status);
      expect(res.body).toEqual(giteaError(message));
    });

    it('should refuse an invalid url or content type on edit (422)', async () => {
      const created = await alice.api.post<Hook>(`/repos/${repo.full_name}/hooks`, gitea('/bad-edit'));
      const res = await alice.api.patch(`/repos/${repo.full_name}/hooks/${created.body.id}`, { config: { content_type: 'yaml' } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(giteaError('Invalid content type'));
    });

    it('should require sign-in (401), repository admin (403), and hide private repositories (404)', async () => {
      expect((await api.anonymous.get(`/repos/${repo.full_name}/hooks`)).status).toBe(401);
      const forbidden = await bob.api.get(`/repos/${repo.full_name}/hooks`);
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toEqual(giteaError('user should be an owner or a collaborator with admin write of a repository'));
      expect((await bob.api.post(`/repos/${repo.full_name}/hooks`, gitea('/x'))).status).toBe(403);
      expect((await bob.api.get(`/repos/${privateRepo.full_name}/hooks`)).status).toBe(404);
      expect((await alice.api.get(`/repos/${alice.username}/no-such-repo/hooks`)).status).toBe(404);
      expect((await alice.api.get(`/repos/${repo.full_name}/hooks/999999`)).status).toBe(404);
      expect((await api.admin.get(`/repos/${privateRepo.full_name}/hooks`)).status).toBe(200);
    });

    it("should answer git hook routes as Gitea with git hooks disabled (its default): 403 after the admin check", async () => {
      expect((await api.anonymous.get(`/repos/${repo.full_name}/hooks/git`)).status).toBe(401);
      const outsider = await bob.api.get(`/repos/${repo.full_name}/hooks/git`);
      expect(outsider.status).toBe(403);
      expect(outsider.body).toEqual(giteaError('user should be an owner or a collaborator with admin write of a repository'));
      expect((await bob.api.get(`/repos/${privateRepo.full_name}/hooks/git`)).status).toBe(404);
      for (const res of [
        await alice.api.get(`/repos/${repo.full_name}/hooks/git`),
        await alice.api.get(`/repos/${repo.full_name}/hooks/git/pre-receive`),
        await alice.api.patch(`/repos/${repo.full_name}/hooks/git/pre-receive`, { content: '#!/bin/sh\nexit 0\n' }),
        await alice.api.delete(`/repos/${repo.full_name}/hooks/git/pre-receive`),
        await api.admin.get(`/repos/${repo.full_name}/hooks/git`),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(giteaError('must be allowed to edit Git hooks'));
      }
    });
  });

  describe('organization, user and admin hooks', () => {
    it('should let organization owners manage organization hooks, and nobody else', async () => {
      const created = await alice.api.post<Hook>(`/orgs/${org}/hooks`, gitea('/org-crud'));
      expect(created.status).toBe(201);
      const list = await alice.api.get<Hook[]>(`/orgs/${org}/hooks`);
      expect(list.body.map((h) => h.id)).toContain(created.body.id);
      expect(list.headers.get('x-total-count')).toBe(String(list.body.length));
      expect((await alice.api.patch<Hook>(`/orgs/${org}/hooks/${created.body.id}`, { events: ['create'] })).body.events).toEqual(['create']);
      const denied = await bob.api.get(`/orgs/${org}/hooks`);
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(giteaError('Must be an organization owner'));
      expect((await alice.api.get(`/orgs/no-such-org-here/hooks`)).status).toBe(404);
      expect((await alice.api.delete(`/orgs/${org}/hooks/${created.body.id}`)).status).toBe(204);
    });

    it("should keep users' hooks to themselves, PATCH /user/hooks/{id} included", async () => {
      const created = await bob.api.post<Hook>('/user/hooks', gitea('/bob-crud'));
      expect(created.status).toBe(201);
      const edited = await bob.api.patch<Hook>(`/user/hooks/${created.body.id}`, { events: ['repository'], active: false } satisfies EditHookOption);
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ events: ['repository'], active: false });
      expect((await alice.api.get(`/user/hooks/${created.body.id}`)).status).toBe(404);
      expect((await alice.api.patch(`/user/hooks/${created.body.id}`, {})).status).toBe(404);
      const own = await bob.api.get<Hook[]>('/user/hooks');
      expect(own.body.map((h) => h.id)).toEqual([created.body.id]);
      // Gitea's ListOwnerHooks: X-Total-Count and Link.
      const second = await bob.api.post<Hook>('/user/hooks', gitea('/bob-second'));
      const paged = await bob.api.get<Hook[]>('/user/hooks?limit=1');
      expect(paged.headers.get('x-total-count')).toBe('2');
      expect(paged.headers.get('link')).toContain('rel="next"');
      expect((await bob.api.delete(`/user/hooks/${second.body.id}`)).status).toBe(204);
      expect((await api.anonymous.get('/user/hooks')).status).toBe(401);
      expect((await bob.api.delete(`/user/hooks/${created.body.id}`)).status).toBe(204);
    });

    it('should create default hooks unless is_system_webhook, and list system hooks unless asked', async () => {
      const def = await api.admin.post<Hook>('/admin/hooks', gitea('/never-default', { active: false }));
      expect(def.status).toBe(201);
      const sys = await api.admin.post<Hook>('/admin/hooks', gitea('/never-system', { active: false, config: { url: receiver.url('/never-system'), content_type: 'json', is_system_webhook: 'true' } }));
      expect(sys.status).toBe(201);
      const ids = async (query: string) => (await api.admin.get<Hook[]>(`/admin/hooks${query}`)).body.map((h) => h.id);
      expect(await ids('')).toContain(sys.body.id);
      expect(await ids('')).not.toContain(def.body.id);
      expect(await ids('?type=system')).not.toContain(def.body.id);
      expect(await ids('?type=default')).toEqual(expect.arrayContaining([def.body.id]));
      expect(await ids('?type=default')).not.toContain(sys.body.id);
      expect(await ids('?type=all')).toEqual(expect.arrayContaining([def.body.id, sys.body.id]));
      // Gitea's admin ListHooks pages them, with Link and X-Total-Count (docs/api-notes.md).
      const every = (await api.admin.get<Hook[]>('/admin/hooks?type=all&limit=50')).body;
      const first = await api.admin.get<Hook[]>('/admin/hooks?type=all&limit=1');
      expect(first.body.map((h) => h.id)).toEqual([every[0]!.id]);
      expect(first.headers.get('x-total-count')).toBe(String(every.length));
      expect(first.headers.get('link')).toContain('rel="next"');
      const second = await api.admin.get<Hook[]>('/admin/hooks?type=all&limit=1&page=2');
      expect(second.body.map((h) => h.id)).toEqual([every[1]!.id]);
      expect((await api.admin.get<Hook>(`/admin/hooks/${def.body.id}`)).body.id).toBe(def.body.id);
      expect((await api.admin.patch<Hook>(`/admin/hooks/${sys.body.id}`, { name: 'sys' })).body).toMatchObject({ name: 'sys', active: false });
      expect((await api.admin.delete(`/admin/hooks/${sys.body.id}`)).status).toBe(204);
      expect((await api.admin.delete(`/admin/hooks/${def.body.id}`)).status).toBe(204);
    });

    it("should answer /admin/hooks errors as Gitea does", async () => {
      const bad = await api.admin.post('/admin/hooks', gitea('/x', { config: { url: receiver.url('/x'), content_type: 'json', is_system_webhook: 'maybe' } }));
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual(giteaError('Invalid is_system_webhook value'));
      expect((await api.admin.get('/admin/hooks/999999')).status).toBe(404);
      // Gitea answers this one with a 500; never a 5xx here.
      expect(await api.admin.patch('/admin/hooks/999999', {})).toMatchObject({ status: 404, body: giteaError() });
      expect((await api.admin.delete('/admin/hooks/999999')).status).toBe(404);
      const denied = await alice.api.get('/admin/hooks');
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(giteaError('user should be the site admin'));
    });
  });

  describe('delivery', () => {
    let carol: TestUser;

    beforeAll(async () => {
      carol = await createUser(api, 'carol');
    });

    it("should deliver a repository event with Gitea's headers, signatures and Authorization", async () => {
      const hook = await carol.api.post<Hook>('/user/hooks', gitea('/carol', { events: ['repository'], authorization_header: 'Bearer carol', config: { url: receiver.url('/carol'), content_type: 'json', secret: 'carol-secret' } }));
      expect(hook.status).toBe(201);
      const repo = await createRepo(carol);
      const [d] = await receiver.waitFor('/carol');
      expect(d!.method).toBe('POST');
      expect(d!.headers).toMatchObject({
        'content-type': 'application/json',
        'x-gitea-event': 'repository',
        'x-gitea-event-type': 'repository',
        'x-gogs-event': 'repository',
        'x-github-event': 'repository',
        'x-gitea-hook-installation-target-type': 'user',
        authorization: 'Bearer carol',
        'user-agent': 'Go-http-client/1.1',
        'x-gitea-signature': hmac('sha256', 'carol-secret', d!.body),
        'x-hub-signature-256': `sha256=${hmac('sha256', 'carol-secret', d!.body)}`,
        'x-hub-signature': `sha1=${hmac('sha1', 'carol-secret', d!.body)}`,
      });
      expect(d!.headers['x-gitea-delivery']).toMatch(/^[0-9a-f-]{36}$/);
      expect(d!.headers['x-github-delivery']).toBe(d!.headers['x-gitea-delivery']);
      expect(bodyOf(d!)).toMatchObject({
        action: 'created',
        repository: { id: repo.id, full_name: repo.full_name, permissions: { admin: true, push: true, pull: true } },
        organization: { login: carol.username },
        // The sender as anyone sees them, as Gitea's ToUser without a viewer renders it.
        sender: { login: carol.username, email: `${carol.id}+${carol.username.toLowerCase()}@noreply.localhost`, last_login: '0001-01-01T00:00:00Z' },
      });
      // Stored sealed: neither the secret nor the header is in admin-service's table in clear.
      const [row] = await serviceQuery<{ secret: string; authorization_header: string }>(layout, 'admin', {
        sqlite: 'SELECT secret, authorization_header FROM webhook WHERE id = ?',
        pg: 'SELECT secret, authorization_header FROM gitforge_admin.webhook WHERE id = $1',
      }, [hook.body.id]);
      expect(row!.secret).toMatch(/^v1:/);
      expect(`${row!.secret} ${row!.authorization_header}`).not.toMatch(/carol/);
      // Gitea's editHook never changes the secret: a PATCH naming one still signs with the first.
      const edited = await carol.api.patch<Hook>(`/user/hooks/${hook.body.id}`, { config: { secret: 'other' }, events: ['repository'], authorization_header: 'Bearer carol' } satisfies EditHookOption);
      expect(edited.status).toBe(200);
      await createRepo(carol);
      const [, again] = await receiver.waitFor('/carol', 2);
      expect(again!.headers['x-gitea-signature']).toBe(hmac('sha256', 'carol-secret', again!.body));
      expect(again!.headers.authorization).toBe('Bearer carol');
    });

    it('should deliver form hooks a payload field signed as JSON', async () => {
      const dave = await createUser(api, 'dave');
      await dave.api.post('/user/hooks', gitea('/form', { events: ['repository'], config: { url: receiver.url('/form'), content_type: 'form', secret: 'k' } }));
      await createRepo(dave);
      const [d] = await receiver.waitFor('/form');
      expect(d!.headers['content-type']).toBe('application/x-www-form-urlencoded');
      const json = new URLSearchParams(d!.body).get('payload')!;
      expect(JSON.parse(json)).toMatchObject({ action: 'created' });
      expect(d!.headers['x-gitea-signature']).toBe(hmac('sha256', 'k', json));
    });

    it('should deliver organization, system and default hooks, and only what a hook subscribes to', async () => {
      await alice.api.post(`/orgs/${org}/hooks`, gitea('/org-events', { events: ['repository'] }));
      await alice.api.post(`/orgs/${org}/hooks`, gitea('/org-push-only', { events: ['push'] }));
      await alice.api.post(`/orgs/${org}/hooks`, gitea('/org-inactive', { events: ['repository'], active: false }));
      const system = await api.admin.post<Hook>('/admin/hooks', gitea('/system', { events: ['repository'], config: { url: receiver.url('/system'), content_type: 'json', is_system_webhook: 'true' } }));
      const def = await api.admin.post<Hook>('/admin/hooks', gitea('/default', { events: ['repository'] }));
      const name = uniqueName('orgrepo');
      expect((await alice.api.post(`/orgs/${org}/repos`, { name })).status).toBe(201);
      // Gitea copies the default hooks while creating the repository: they are there at once.
      const repoHooks = await alice.api.get<Hook[]>(`/repos/${org}/${name}/hooks`);
      expect(repoHooks.body).toEqual([expect.objectContaining({ config: { url: receiver.url('/default'), content_type: 'json' }, events: ['repository'] })]);
      const [o] = await receiver.waitFor('/org-events');
      expect(o!.headers['x-gitea-hook-installation-target-type']).toBe('organization');
      expect(bodyOf(o!)).toMatchObject({ action: 'created', repository: { full_name: `${org}/${name}` }, organization: { login: org } });
      const systemHits = await receiver.waitFor('/system');
      expect(systemHits.map((d) => (bodyOf(d).repository as Repository).full_name)).toContain(`${org}/${name}`);
      expect(systemHits.find((d) => (bodyOf(d).repository as Repository).full_name === `${org}/${name}`)!.headers['x-gitea-hook-installation-target-type']).toBe('system');
      // The default hook was copied into the new repository, which then announced itself to it.
      const [copied] = await receiver.waitFor('/default');
      expect(copied!.headers['x-gitea-hook-installation-target-type']).toBe('repository');
      // The worker's copy on repo.created (the fallback) found it done: still one copy, one delivery.
      expect((await alice.api.get<Hook[]>(`/repos/${org}/${name}/hooks`)).body).toHaveLength(1);
      expect(receiver.at('/default').filter((d) => (bodyOf(d).repository as Repository).full_name === `${org}/${name}`)).toHaveLength(1);
      // Everything for this event went out together; the push-only and inactive hooks got none of it.
      expect(receiver.at('/org-push-only')).toEqual([]);
      expect(receiver.at('/org-inactive')).toEqual([]);
      await api.admin.delete(`/admin/hooks/${system.body.id}`);
      await api.admin.delete(`/admin/hooks/${def.body.id}`);
    });

    it('should send no repository webhook for a rename, as Gitea sends none, but record it in the feed', async () => {
      const erin = await createUser(api, 'erin');
      await erin.api.post('/user/hooks', gitea('/rename', { events: ['repository'] }));
      const repo = await createRepo(erin);
      await receiver.waitFor('/rename');
      const newName = uniqueName('renamed');
      expect((await erin.api.patch(`/repos/${repo.full_name}`, { name: newName })).status).toBe(200);
      await expectEventually(async () => {
        const feed = await erin.api.get<Array<{ op_type: string; content: string }>>(`/users/${erin.username}/activities/feeds`);
        expect(feed.body.map((a) => [a.op_type, a.content])).toContainEqual(['rename_repo', repo.name]);
      });
      // The rename's feed entry and its (absent) webhook come from the same event, through the same relay.
      const deleted = await erin.api.delete(`/repos/${erin.username}/${newName}`);
      expect(deleted.status).toBe(204);
      const [created, removed] = await receiver.waitFor('/rename', 2);
      expect([bodyOf(created!).action, bodyOf(removed!).action]).toEqual(['created', 'deleted']);
    });

    it("should send slack, discord and msteams hooks their services' formats", async () => {
      const fred = await createUser(api, 'fred');
      const cfg = (path: string, extra: Record<string, string> = {}) => ({ url: receiver.url(path), content_type: 'json', ...extra });
      await fred.api.post('/user/hooks', { type: 'slack', config: cfg('/slack', { channel: '#dev', username: 'forge' }), events: ['repository'], active: true } satisfies CreateHookOption);
      await fred.api.post('/user/hooks', { type: 'discord', config: cfg('/discord', { username: 'forge' }), events: ['repository'], active: true } satisfies CreateHookOption);
      await fred.api.post('/user/hooks', { type: 'msteams', config: cfg('/msteams'), events: ['repository'], active: true } satisfies CreateHookOption);
      const repo = await createRepo(fred);
      const [slack] = await receiver.waitFor('/slack');
      expect(bodyOf(slack!)).toEqual({
        channel: '#dev',
        text: `[<${repo.html_url}|${repo.full_name}>] Repository created by <${layout.rootUrl}${fred.username}|${fred.username}>`,
        username: 'forge',
        icon_url: '',
        unfurl_links: 0,
        link_names: 0,
        attachments: null,
      });
      const [discord] = await receiver.waitFor('/discord');
      expect(bodyOf(discord!)).toMatchObject({
        username: 'forge',
        embeds: [{ title: `[${repo.full_name}] Repository created`, url: repo.html_url, color: 0x1ac600, author: { name: fred.username } }],
      });
      const [teams] = await receiver.waitFor('/msteams');
      expect(bodyOf(teams!)).toMatchObject({
        '@type': 'MessageCard',
        title: `[${repo.full_name}] Repository created`,
        sections: [{ activitySubtitle: fred.username, facts: [{ name: 'Repository:', value: repo.full_name }] }],
      });
      expect(teams!.headers['x-gitea-event']).toBe('repository');
    });

    it("should accept Gitea's other hook types and send each its service's format", async () => {
      const ola = await createUser(api, 'ola');
      const cfg = (path: string, extra: Record<string, string> = {}) => ({ url: receiver.url(path), content_type: 'json', ...extra });
      const types = {
        dingtalk: cfg('/dingtalk'),
        telegram: cfg('/telegram'),
        feishu: cfg('/feishu'),
        wechatwork: cfg('/wechatwork'),
        matrix: cfg('/matrix', { room_id: '!room:example.com', message_type: '1' }),
        packagist: cfg('/packagist', { package_url: 'https://packagist.org/packages/acme/x' }),
      };
      for (const [type, config] of Object.entries(types)) {
        const res = await ola.api.post<Hook>('/user/hooks', { type, config, events: ['repository'], active: true } satisfies CreateHookOption);
        expect(res.status).toBe(201);
        // Gitea's ToHook shows only url and content_type for these types.
        expect(res.body).toMatchObject({ type, config: { url: config.url, content_type: 'json' } });
        expect(Object.keys(res.body.config).sort()).toEqual(['content_type', 'url']);
      }
      const repo = await createRepo(ola);
      const title = `[${repo.full_name}] Repository created`;
      const [ding] = await receiver.waitFor('/dingtalk');
      expect(bodyOf(ding!)).toMatchObject({ msgtype: 'actionCard', actionCard: { title, text: title, singleTitle: 'view repository', singleURL: `dingtalk://dingtalkclient/page/link?pc_slide=false&url=${encodeURIComponent(repo.html_url)}` } });
      const [tg] = await receiver.waitFor('/telegram');
      expect(bodyOf(tg!)).toEqual({ text: `[<a href="${repo.html_url}">${repo.full_name}</a>] Repository created`, parse_mode: 'HTML', disable_web_page_preview: true });
      const [fs] = await receiver.waitFor('/feishu');
      expect(bodyOf(fs!)).toEqual({ msg_type: 'text', content: { text: title } });
      const [wx] = await receiver.waitFor('/wechatwork');
      expect(bodyOf(wx!)).toMatchObject({ msgtype: 'markdown', markdown: { content: title } });
      const matrix = await expectEventually(async () => {
        const got = receiver.received.filter((d) => d.path.startsWith('/matrix/'));
        expect(got).toHaveLength(1);
        return got[0]!;
      });
      // A PUT under the body's SHA-1 as transaction id, Gitea's idempotent Matrix send.
      expect(matrix.method).toBe('PUT');
      expect(matrix.path).toBe(`/matrix/${createHash('sha1').update(matrix.body).digest('hex')}`);
      expect(bodyOf(matrix)).toEqual({
        body: `[[${repo.full_name}](${repo.html_url})] Repository created by [${ola.username}](${layout.rootUrl}${ola.username})`,
        msgtype: 'm.notice',
        format: 'org.matrix.custom.html',
        formatted_body: `[<a href="${repo.html_url}">${repo.full_name}</a>] Repository created by <a href="${layout.rootUrl}${ola.username}">${ola.username}</a>`,
      });
      const [pk] = await receiver.waitFor('/packagist');
      expect(bodyOf(pk!)).toEqual({ repository: { url: '' } });
      expect(pk!.headers['x-gitea-event']).toBe('repository');
    });

    it('should retry a failing receiver with backoff and record both attempts', async () => {
      const gina = await createUser(api, 'gina');
      receiver.respond('/flaky', [500]);
      const hook = await gina.api.post<Hook>('/user/hooks', gitea('/flaky', { events: ['repository'] }));
      await createRepo(gina);
      const [first, second] = await receiver.waitFor('/flaky', 2);
      expect(second!.headers['x-gitea-delivery']).toBe(first!.headers['x-gitea-delivery']);
      const list = await expectEventually(async () => {
        const res = await gina.api.get<HookDelivery[]>(`/user/hooks/${hook.body.id}/deliveries`);
        expect(res.body.map((d) => d.status_code)).toEqual([200, 500]);
        return res;
      });
      expect(list.headers.get('x-total-count')).toBe('2');
      expect(list.body[1]).toMatchObject({ status: 'Invalid HTTP Response: 500', outcome: 'failure', redelivery: false, event: 'repository', action: 'created' });
      expect(list.body[0]).toMatchObject({ status: 'OK', outcome: 'success', guid: first!.headers['x-gitea-delivery'] });
    });

    it('should show a delivery (Authorization masked), redeliver it under the same delivery id (202), and guard both', async () => {
      const hank = await createUser(api, 'hank');
      const hook = await hank.api.post<Hook>('/user/hooks', gitea('/hank', { events: ['repository'], authorization_header: 'token secret-value' }));
      await createRepo(hank);
      const [sent] = await receiver.waitFor('/hank');
      const [delivery] = await expectEventually(async () => {
        const res = await hank.api.get<HookDelivery[]>(`/user/hooks/${hook.body.id}/deliveries`);
        expect(res.body[0]?.status_code).toBe(200);
        return res.body;
      });
      const detail = await hank.api.get<HookDeliveryDetail>(`/user/hooks/${hook.body.id}/deliveries/${delivery!.id}`);
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({
        id: delivery!.id,
        guid: sent!.headers['x-gitea-delivery'],
        url: receiver.url('/hank'),
        request: { headers: { Authorization: '******', 'X-Gitea-Event': 'repository' }, payload: JSON.parse(sent!.body) },
        response: { headers: expect.objectContaining({ 'Content-Type': 'text/plain' }), payload: 'thanks' },
      });
      expect(JSON.stringify(detail.body)).not.toContain('secret-value');
      expect((await hank.api.post(`/user/hooks/${hook.body.id}/deliveries/${delivery!.id}/attempts`)).status).toBe(202);
      const [, again] = await receiver.waitFor('/hank', 2);
      expect(again!.headers['x-gitea-delivery']).toBe(sent!.headers['x-gitea-delivery']);
      await expectEventually(async () => {
        const res = await hank.api.get<HookDelivery[]>(`/user/hooks/${hook.body.id}/deliveries`);
        expect(res.body.map((d) => [d.redelivery, d.status_code])).toEqual([
          [true, 200],
          [false, 200],
        ]);
      });
      expect((await bob.api.get(`/user/hooks/${hook.body.id}/deliveries`)).status).toBe(404);
      expect((await hank.api.get(`/user/hooks/${hook.body.id}/deliveries/999999`)).status).toBe(404);
      expect((await hank.api.post(`/user/hooks/${hook.body.id}/deliveries/999999/attempts`)).status).toBe(404);
    });

    it("should send a test push of the default branch's head commit (204)", async () => {
      const repo = await createRepo(alice, uniqueName('tested'), { auto_init: true });
      const hook = await alice.api.post<Hook>(`/repos/${repo.full_name}/hooks`, gitea('/test-push', { authorization_header: 'x' }));
      const res = await alice.api.post(`/repos/${repo.full_name}/hooks/${hook.body.id}/tests`);
      expect(res.status).toBe(204);
      const [d] = await receiver.waitFor('/test-push');
      expect(d!.headers['x-gitea-event']).toBe('push');
      const body = bodyOf(d!) as {
        ref: string;
        before: string;
        after: string;
        commits: Array<{ id: string; message: string; added: string[] | null; removed: string[] | null; modified: string[] | null }>;
        total_commits: number;
        pusher: { login: string; email: string };
        repository: Repository;
      };
      expect(body).toMatchObject({ ref: 'refs/heads/main', total_commits: 1, pusher: { login: alice.username } });
      expect(body.before).toBe(body.after);
      // Gitea's ToPayloadCommit leaves the file lists out, and TestHook shows the repository with no access.
      expect(body.commits[0]).toMatchObject({ id: body.after, message: 'Initial commit\n', added: null, removed: null, modified: null });
      expect(body.repository.permissions).toEqual({ admin: false, push: false, pull: false });
      expect(body.pusher.email).toMatch(/@noreply\./);
      expect(body.repository.owner.email).toMatch(/@noreply\./);
      const unknownRef = await alice.api.post(`/repos/${repo.full_name}/hooks/${hook.body.id}/tests?ref=nonexist`);
      expect(unknownRef.status).toBe(404);
      expect(unknownRef.body).toEqual(giteaError('unable to find a git ref'));
      const bySha = await alice.api.post(`/repos/${repo.full_name}/hooks/${hook.body.id}/tests?ref=${body.after}`);
      expect(bySha.status).toBe(204);
      const [, again] = await receiver.waitFor('/test-push', 2);
      expect(bodyOf(again!)).toMatchObject({ ref: body.after, after: body.after });
      expect((await bob.api.post(`/repos/${repo.full_name}/hooks/${hook.body.id}/tests`)).status).toBe(403);
      expect((await alice.api.post(`/repos/${repo.full_name}/hooks/999999/tests`)).status).toBe(404);
      // Sent whatever the hook's events and branch filter say (Gitea's PrepareTestWebhook).
      const picky = await alice.api.post<Hook>(`/repos/${repo.full_name}/hooks`, gitea('/test-picky', { events: ['issues'], branch_filter: 'dev' }));
      expect((await alice.api.post(`/repos/${repo.full_name}/hooks/${picky.body.id}/tests`)).status).toBe(204);
      expect(bodyOf((await receiver.waitFor('/test-picky'))[0]!)).toMatchObject({ ref: 'refs/heads/main' });
      // An empty repository has no ref to show: 404 before the hook is looked up.
      const empty = await createRepo(alice);
      const emptyHook = await alice.api.post<Hook>(`/repos/${empty.full_name}/hooks`, gitea('/test-empty'));
      for (const id of [emptyHook.body.id, 999999]) {
        expect(await alice.api.post(`/repos/${empty.full_name}/hooks/${id}/tests`)).toMatchObject({ status: 404, body: giteaError('repository is empty') });
      }
    });

    it("should send a status hook Gitea's CommitStatusPayload when a commit status is reported", async () => {
      const gina = await createUser(api, 'gina');
      const hook = await gina.api.post<Hook>('/user/hooks', gitea('/status', { events: ['status'] }));
      expect(hook.status).toBe(201);
      const repo = await createRepo(gina, uniqueName('st'), { auto_init: true });
      const branch = await gina.api.get<{ commit: { id: string } }>(`/repos/${repo.full_name}/branches/main`);
      const sha = branch.body.commit.id;
      const res = await gina.api.post(`/repos/${repo.full_name}/statuses/${sha}`, { state: 'success', context: 'ci/build', description: 'passed', target_url: 'https://ci.example.com/1' });
      expect(res.status).toBe(201);
      const [d] = await receiver.waitFor('/status');
      expect(d!.headers).toMatchObject({ 'x-gitea-event': 'status', 'x-gitea-event-type': 'status' });
      const body = bodyOf(d!);
      expect(Object.keys(body)).toEqual(['commit', 'context', 'created_at', 'description', 'id', 'repository', 'sender', 'sha', 'state', 'target_url', 'updated_at']);
      expect(body).toMatchObject({
        sha,
        state: 'success',
        context: 'ci/build',
        description: 'passed',
        target_url: 'https://ci.example.com/1',
        commit: { id: sha, url: `${repo.html_url}/commit/${sha}`, added: ['README.md'] },
        repository: { full_name: repo.full_name, permissions: { admin: true, push: true, pull: true } },
        sender: { login: gina.username, is_admin: false, last_login: '0001-01-01T00:00:00Z' },
      });
      expect((body.sender as { email: string }).email).toMatch(/@noreply\./);
      expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(body.updated_at).toBe(body.created_at);
      // Only hooks subscribed to status get it: the repository creation before reached none.
      expect(receiver.at('/status')).toHaveLength(1);
    });
  });

  describe('activity feeds', () => {
    let ivan: TestUser;
    let publicRepo: Repository;
    let privateRepo: Repository;

    beforeAll(async () => {
      ivan = await createUser(api, 'ivan');
      const secret = uniqueName('feedsecret');
      expect((await alice.api.post(`/orgs/${org}/repos`, { name: secret, private: true })).status).toBe(201);
      privateRepo = (await alice.api.get<Repository>(`/repos/${org}/${secret}`)).body;
      publicRepo = (await ivan.api.post<Repository>('/user/repos', { name: uniqueName('ivanrepo') })).body;
      const renamed = uniqueName('ivanrenamed');
      expect((await ivan.api.patch(`/repos/${publicRepo.full_name}`, { name: renamed })).status).toBe(200);
      publicRepo = { ...publicRepo, name: renamed, full_name: `${ivan.username}/${renamed}` };
    });

    type Activity = { id: number; op_type: string; act_user: { login: string }; repo: Repository; content: string; is_private: boolean; user_id: number; ref_name: string };

    it("should show an organization's activity with X-Total-Count and no Link, private repositories only to members", async () => {
      const member = await expectEventually(async () => {
        const res = await alice.api.get<Activity[]>(`/orgs/${org}/activities/feeds`);
        expect(res.body.map((a) => a.repo.full_name)).toContain(privateRepo.full_name);
        return res;
      });
      expect(member.status).toBe(200);
      expect(member.headers.get('x-total-count')).toBe(String(member.body.length));
      expect(member.headers.get('link')).toBeNull();
      const entry = member.body.find((a) => a.repo.id === privateRepo.id)!;
      expect(entry).toMatchObject({ op_type: 'create_repo', act_user: { login: alice.username }, is_private: true, content: '', ref_name: '' });
      const outsider = await bob.api.get<Activity[]>(`/orgs/${org}/activities/feeds`);
      expect(outsider.status).toBe(200);
      expect(outsider.body.map((a) => a.repo.id)).not.toContain(privateRepo.id);
      expect(outsider.body.some((a) => a.op_type === 'create_repo')).toBe(true);
      const anonymous = await api.anonymous.get<Activity[]>(`/orgs/${org}/activities/feeds`);
      expect(anonymous.body.map((a) => a.repo.id)).not.toContain(privateRepo.id);
      expect((await bob.api.get(`/orgs/no-such-org-x/activities/feeds`)).status).toBe(404);
    });

    it('should hide the actions of a user who hides their activity from everyone but themself and site admins', async () => {
      const kim = await createUser(api, 'kim');
      expect((await kim.api.patch('/user/settings', { hide_activity: true })).status).toBe(200);
      const repo = (await kim.api.post<Repository>('/user/repos', { name: uniqueName('kimrepo') })).body;
      const own = await expectEventually(async () => {
        const res = await kim.api.get<Activity[]>(`/users/${kim.username}/activities/feeds`);
        expect(res.body.map((a) => [a.op_type, a.repo.id])).toContainEqual(['create_repo', repo.id]);
        return res;
      });
      expect(own.status).toBe(200);
      const asAdmin = await api.admin.get<Activity[]>(`/users/${kim.username}/activities/feeds`);
      expect(asAdmin.body.map((a) => a.repo.id)).toContain(repo.id);
      for (const viewer of [api.anonymous, bob.api]) {
        const res = await viewer.get<Activity[]>(`/users/${kim.username}/activities/feeds`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual([]);
        expect(res.headers.get('x-total-count')).toBe('0');
      }
      const repoFeed = await api.anonymous.get<Activity[]>(`/repos/${repo.full_name}/activities/feeds`);
      expect(repoFeed.body).toEqual([]);
    });

    it("should copy a repository's activity to its watchers' feeds, as Gitea's notifyWatchers does", async () => {
      const [maker, follower] = await Promise.all([createUser(api, 'fmaker'), createUser(api, 'ffollower')]);
      const watched = (await maker.api.post<Repository>('/user/repos', { name: uniqueName('watched'), auto_init: true })).body;
      expect((await follower.api.put(`/repos/${watched.full_name}/subscription`)).status).toBe(200);
      const issue = (await maker.api.post<{ number: number }>(`/repos/${watched.full_name}/issues`, { title: 'seen by watchers' })).body;
      await expectEventually(async () => {
        const res = await follower.api.get<Activity[]>(`/users/${follower.username}/activities/feeds`);
        expect(res.body.map((a) => [a.op_type, a.act_user?.login, a.content])).toContainEqual(['create_issue', maker.username, `${issue.number}|seen by watchers`]);
      });
      // Only what they do themselves with only-performed-by.
      expect((await follower.api.get<Activity[]>(`/users/${follower.username}/activities/feeds?only-performed-by=true`)).body).toEqual([]);
    });

    it("should show a user's feed, newest first, with page and limit", async () => {
      const res = await expectEventually(async () => {
        const r = await ivan.api.get<Activity[]>(`/users/${ivan.username}/activities/feeds`);
        expect(r.body.map((a) => a.op_type)).toEqual(['rename_repo', 'create_repo']);
        return r;
      });
      expect(res.body[0]).toMatchObject({ content: expect.stringMatching(/^ivanrepo/), repo: { full_name: publicRepo.full_name }, user_id: ivan.id });
      const page2 = await ivan.api.get<Activity[]>(`/users/${ivan.username}/activities/feeds?limit=1&page=2`);
      expect(page2.body.map((a) => a.op_type)).toEqual(['create_repo']);
      expect(page2.headers.get('x-total-count')).toBe('2');
      expect((await api.anonymous.get<Activity[]>(`/users/${ivan.username}/activities/feeds?only-performed-by=true`)).body).toHaveLength(2);
      expect((await api.anonymous.get('/users/no-such-user-x/activities/feeds')).status).toBe(404);
    });

    it("should filter by Gitea's date parameter and ignore one that does not parse", async () => {
      const d = new Date();
      const today = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
      expect((await ivan.api.get<Activity[]>(`/users/${ivan.username}/activities/feeds?date=${today}`)).body).toHaveLength(2);
      expect((await ivan.api.get<Activity[]>(`/users/${ivan.username}/activities/feeds?date=2001-01-01`)).body).toHaveLength(0);
      expect((await ivan.api.get<Activity[]>(`/users/${ivan.username}/activities/feeds?date=yesterday`)).body).toHaveLength(2);
    });

    it("should show a repository's feed once per action, to those who can read it", async () => {
      const res = await alice.api.get<Activity[]>(`/repos/${privateRepo.full_name}/activities/feeds`);
      expect(res.status).toBe(200);
      expect(res.body.map((a) => a.op_type)).toEqual(['create_repo']);
      expect(res.headers.get('x-total-count')).toBe('1');
      expect((await bob.api.get(`/repos/${privateRepo.full_name}/activities/feeds`)).status).toBe(404);
      expect((await api.anonymous.get<Activity[]>(`/repos/${publicRepo.full_name}/activities/feeds`)).body.map((a) => a.op_type)).toEqual([
        'rename_repo',
        'create_repo',
      ]);
    });

    it("should show a team's feed to its organization's owners, not to outsiders", async () => {
      const teams = await alice.api.get<Array<{ id: number; name: string }>>(`/orgs/${org}/teams`);
      const owners = teams.body.find((t) => t.name === 'Owners')!.id;
      const res = await alice.api.get<Activity[]>(`/teams/${owners}/activities/feeds`);
      expect(res.status).toBe(200);
      expect(res.body.map((a) => a.repo.id)).toContain(privateRepo.id);
      expect((await alice.api.get<Activity[]>(`/orgs/${org}/teams/${owners}/activities/feeds`)).body).toEqual(res.body);
      expect((await alice.api.get(`/orgs/${ivan.username}/teams/${owners}/activities/feeds`)).status).toBe(404);
      expect((await bob.api.get(`/teams/${owners}/activities/feeds`)).status).toBe(404);
      expect((await api.anonymous.get(`/teams/${owners}/activities/feeds`)).status).toBe(401);
      expect((await alice.api.get('/teams/999999/activities/feeds')).status).toBe(404);
    });
  });
});
