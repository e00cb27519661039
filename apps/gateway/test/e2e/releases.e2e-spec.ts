import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Activity, Attachment, CreateReleaseOption, CreateTagProtectionOption, EditReleaseOption, Release, Repository } from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { GitCli, gitUrl } from './support/git.js';
import { HookReceiver } from './support/hook-receiver.js';
import { basicAuth, rawRequest } from './support/http.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { commitOnDisk, gitOnDisk, repoEvents } from './support/repo-disk.js';
import { addCollaborator } from './support/repos.js';

const run = promisify(execFile);
const MAX_MB = 1;

describe.each(layoutsUnderTest())('releases, release assets and archives (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let repo: Repository;
  let head: string;
  let git: GitCli;
  let scratch: string;
  let receiver: HookReceiver;

  beforeAll(async () => {
    receiver = await HookReceiver.start();
    layout = await Layout.start(kind, { env: { GITFORGE_ATTACHMENT_MAX_SIZE_MB: String(MAX_MB), GITFORGE_WEBHOOK_ALLOW_LOOPBACK: '1' } });
    api = new Api(layout);
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
    carol = await createUser(api, 'carol');
    repo = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('released'), auto_init: true })).body;
    const init = (await gitOnDisk(layout, repo.id, ['rev-parse', 'main'])).trim();
    head = await commitOnDisk(
      layout,
      repo.id,
      'main',
      [
        { path: 'hello.txt', content: 'hello release\n' },
        { path: 'run.sh', content: '#!/bin/sh\necho run\n', mode: '100755' },
      ],
      'Add files',
      init,
    );
    // carol writes; bob only reads (the repository is public).
    await addCollaborator(alice.api, repo, carol, 'write');
    const hook = await alice.api.post(`/repos/${repo.full_name}/hooks`, {
      type: 'gitea',
      active: true,
      events: ['release'],
      config: { url: receiver.url('/release'), content_type: 'json' },
    });
    expect(hook.status).toBe(201);
    git = GitCli.create();
    scratch = mkdtempSync(join(tmpdir(), 'gf-releases-'));
  });

  afterAll(async () => {
    git?.cleanup();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    await layout?.stop();
    await receiver?.close();
  });

  const releases = (r: Repository = repo) => `/repos/${r.full_name}/releases`;

  async function upload(as: TestUser | null, releaseId: number, name: string, content: Buffer | string, query = '') {
    const form = new FormData();
    form.append('attachment', new Blob([content]), name);
    const res = await fetch(`${layout.apiUrl}${releases()}/${releaseId}/assets${query}`, {
      method: 'POST',
      body: form,
      headers: as ? { authorization: basicAuth(as.username, as.password) } : {},
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Attachment & { message?: string } };
  }

  async function download(url: string, as: TestUser | null = null) {
    const res = await fetch(url, { headers: as ? { authorization: basicAuth(as.username, as.password) } : {} });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  }

  const tagsOnServer = async (r: Repository = repo, as: TestUser = alice) => git.lsRemote(gitUrl(layout, r.owner.login, r.name, [as.username, as.password]));

  describe('releases', () => {
    let first: Release;

    it('should create a release with an annotated tag at the target, visible to git ls-remote, and announce it', async () => {
      const res = await alice.api.post<Release>(releases(), {
        tag_name: 'v1.0',
        target_commitish: 'main',
        name: 'One',
        body: 'First release',
        tag_message: 'Version one',
      } satisfies CreateReleaseOption);
      expect(res.status).toBe(201);
      first = res.body;
      const html = `${layout.rootUrl}${repo.full_name}`;
      const apiUrl = `${layout.apiUrl}/repos/${repo.full_name}`;
      expect(first).toEqual({
        id: expect.any(Number),
        tag_name: 'v1.0',
        target_commitish: 'main',
        name: 'One',
        body: 'First release',
        url: `${apiUrl}/releases/${first.id}`,
        html_url: `${html}/releases/tag/v1.0`,
        tarball_url: `${html}/archive/v1.0.tar.gz`,
        zipball_url: `${html}/archive/v1.0.zip`,
        upload_url: `${apiUrl}/releases/${first.id}/assets`,
        draft: false,
        prerelease: false,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        published_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        author: expect.objectContaining({ login: alice.username }),
        assets: [],
      });
      // An annotated tag (tag_message), on the branch's head, advertised over smart HTTP.
      expect((await gitOnDisk(layout, repo.id, ['cat-file', '-t', 'refs/tags/v1.0'])).trim()).toBe('tag');
      expect((await gitOnDisk(layout, repo.id, ['rev-parse', 'v1.0^{commit}'])).trim()).toBe(head);
      const refs = await tagsOnServer();
      expect(refs.get('refs/tags/v1.0^{}')).toBe(head);

      const events = (await repoEvents(layout, repo.id)).map((e) => `${e.name} ${(e.payload as { ref?: string; action?: string }).ref ?? (e.payload as { action?: string }).action}`);
      expect(events).toEqual(expect.arrayContaining(['repo.pushed refs/tags/v1.0', 'repo.ref_created v1.0', 'release.published published']));
      expect((await alice.api.get<Repository>(`/repos/${repo.full_name}`)).body.release_counter).toBe(1);
    });

    it('should take over an existing tag, and refuse a second release of a tag (409)', async () => {
      expect((await alice.api.post(`/repos/${repo.full_name}/tags`, { tag_name: 'lightweight', target: head })).status).toBe(201);
      const res = await carol.api.post<Release>(releases(), { tag_name: 'lightweight', target_commitish: 'no-such-branch', name: 'On a tag' } satisfies CreateReleaseOption);
      expect(res.status).toBe(201);
      // The tag's own commit stands; the target is the one given (Gitea's tag-only release).
      expect(res.body).toMatchObject({ tag_name: 'lightweight', target_commitish: 'no-such-branch', author: { login: carol.username } });
      expect((await alice.api.post(`/repos/${repo.full_name}/tags`, { tag_name: 'bare-tag', target: head })).status).toBe(201);
      const bare = await carol.api.post<Release>(releases(), { tag_name: 'bare-tag' } satisfies CreateReleaseOption);
      expect(bare.body.target_commitish).toBe('');
      expect((await alice.api.delete(`${releases()}/${bare.body.id}`)).status).toBe(204);
      expect((await alice.api.delete(`/repos/${repo.full_name}/tags/bare-tag`)).status).toBe(204);
      expect((await gitOnDisk(layout, repo.id, ['cat-file', '-t', 'refs/tags/lightweight'])).trim()).toBe('commit');
      const again = await alice.api.post(releases(), { tag_name: 'v1.0' } satisfies CreateReleaseOption);
      expect(again.status).toBe(409);
      expect(again.body).toEqual(giteaError('Release is has no Tag'));
    });

    it('should keep drafts untagged and hidden from readers until published', async () => {
      const draft = await alice.api.post<Release>(releases(), { tag_name: 'v2.0-rc', target_commitish: head, name: 'Draft', draft: true } satisfies CreateReleaseOption);
      expect(draft.status).toBe(201);
      expect(draft.body.draft).toBe(true);
      // Gitea's ToAPIRelease: one time for both fields, a draft's too.
      expect(draft.body.published_at).toBe(draft.body.created_at);
      expect((await tagsOnServer()).has('refs/tags/v2.0-rc')).toBe(false);

      const asReader = await bob.api.get<Release[]>(releases());
      expect(asReader.body.map((r) => r.tag_name)).not.toContain('v2.0-rc');
      expect((await bob.api.get(`${releases()}/${draft.body.id}`)).status).toBe(404);
      expect((await api.anonymous.get(`${releases()}/tags/v2.0-rc`)).status).toBe(404);
      expect((await bob.api.get(`${releases()}/${draft.body.id}/assets`)).status).toBe(404);

      const asWriter = await carol.api.get<Release[]>(`${releases()}?draft=true`);
      expect(asWriter.body.map((r) => r.tag_name)).toEqual(['v2.0-rc']);
      expect((await carol.api.get<Release[]>(`${releases()}?draft=false`)).body.map((r) => r.tag_name).sort()).toEqual(['lightweight', 'v1.0']);

      const published = await alice.api.patch<Release>(`${releases()}/${draft.body.id}`, { draft: false, prerelease: true } satisfies EditReleaseOption);
      expect(published.status).toBe(200);
      expect(published.body).toMatchObject({ draft: false, prerelease: true, name: 'Draft', published_at: expect.any(String) });
      expect(published.body.created_at).toBe(published.body.published_at);

      expect((await tagsOnServer()).get('refs/tags/v2.0-rc')).toBe(head);
      expect((await bob.api.get<Release>(`${releases()}/tags/v2.0-rc`)).body.id).toBe(draft.body.id);
      expect((await bob.api.get<Release[]>(`${releases()}?pre-release=true`)).body.map((r) => r.tag_name)).toEqual(['v2.0-rc']);
      // Empty strings change nothing (Gitea).
      const edited = await alice.api.patch<Release>(`${releases()}/${draft.body.id}`, { name: '', body: 'Now with notes' } satisfies EditReleaseOption);
      expect(edited.body).toMatchObject({ name: 'Draft', body: 'Now with notes' });
      const events = (await repoEvents(layout, repo.id)).filter((e) => e.name.startsWith('release.')).map((e) => `${e.name} ${(e.payload as { release: Release }).release.tag_name}`);
      expect(events).toEqual(expect.arrayContaining(['release.published v2.0-rc', 'release.updated v2.0-rc']));
    });

    it('should answer the latest release that is neither draft nor prerelease, and page the list', async () => {
      const latest = await bob.api.get<Release>(`${releases()}/latest`);
      expect(latest.status).toBe(200);
      expect(latest.body.tag_name).toBe('lightweight');
      const page = await bob.api.get<Release[]>(`${releases()}?limit=1&page=2`);
      expect(page.body).toHaveLength(1);
      expect(page.headers.get('x-total-count')).toBe('3');
      const byTag = await bob.api.get<Release>(`${releases()}/tags/v1.0`);
      expect(byTag.body).toMatchObject({ id: first.id, tag_name: 'v1.0' });
    });

    it("should date a draft anew when it is published, as Gitea's createTag does, and list it by that date", async () => {
      const own = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('redate'), auto_init: true })).body;
      const draft = (await alice.api.post<Release>(releases(own), { tag_name: 'd1', draft: true } satisfies CreateReleaseOption)).body;
      const later = (await alice.api.post<Release>(releases(own), { tag_name: 'r1' } satisfies CreateReleaseOption)).body;
      expect((await alice.api.get<Release[]>(releases(own))).body.map((r) => r.tag_name)).toEqual(['r1', 'd1']);
      const published = (await alice.api.patch<Release>(`${releases(own)}/${draft.id}`, { draft: false } satisfies EditReleaseOption)).body;
      expect(Date.parse(published.created_at)).toBeGreaterThanOrEqual(Date.parse(later.created_at));
      expect(published.published_at).toBe(published.created_at);
      expect((await alice.api.get<Release[]>(releases(own))).body.map((r) => r.tag_name)).toEqual(['d1', 'r1']);
    });

    it('should keep releases to admins while the releases unit is off (403, Gitea reqRepoReader)', async () => {
      const off = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('norel'), auto_init: true })).body;
      await addCollaborator(alice.api, off, carol, 'write');
      const made = await alice.api.post<Release>(releases(off), { tag_name: 'v1' } satisfies CreateReleaseOption);
      expect(made.status).toBe(201);
      expect((await alice.api.patch(`/repos/${off.full_name}`, { has_releases: false })).status).toBe(200);
      const refused = 'user should have specific read permission or be a repo admin or a site admin';
      for (const path of [releases(off), `${releases(off)}/${made.body.id}`, `${releases(off)}/tags/v1`, `${releases(off)}/latest`]) {
        expect([path, (await bob.api.get(path)).status]).toEqual([path, 403]);
        expect([path, (await api.anonymous.get(path)).status]).toEqual([path, 403]);
        expect([path, (await carol.api.get(path)).body]).toEqual([path, giteaError(refused)]);
        expect([path, (await alice.api.get(path)).status]).toEqual([path, 200]);
      }
      expect((await carol.api.post(releases(off), { tag_name: 'v2' } satisfies CreateReleaseOption)).status).toBe(403);
      expect((await alice.api.post(releases(off), { tag_name: 'v2' } satisfies CreateReleaseOption)).status).toBe(201);
      expect((await alice.api.patch(`/repos/${off.full_name}`, { has_releases: true })).status).toBe(200);
      expect((await bob.api.get(releases(off))).status).toBe(200);
    });

    it('should refuse what Gitea refuses: option-like tags, unknown targets, readers, strangers and empty repositories', async () => {
      const optionLike = await alice.api.post(releases(), { tag_name: '--upload-pack=touch' });
      expect(optionLike.status).toBe(422);
      expect((await alice.api.post(releases(), {})).status).toBe(422);
      const target = await alice.api.post(releases(), { tag_name: 'v9', target_commitish: '--output=/tmp/x' } satisfies CreateReleaseOption);
      expect(target.status).toBe(404);
      expect(await alice.api.post(releases(), { tag_name: 'v9', target_commitish: 'nowhere' } satisfies CreateReleaseOption)).toMatchObject({ status: 404, body: giteaError('target not found') });
      expect((await tagsOnServer()).has('refs/tags/v9')).toBe(false);
      expect((await bob.api.post(releases(), { tag_name: 'bobs' })).status).toBe(403);
      expect((await bob.api.patch(`${releases()}/${first.id}`, { name: 'x' })).status).toBe(403);
      expect((await bob.api.delete(`${releases()}/${first.id}`)).status).toBe(403);
      expect((await api.anonymous.post(releases(), { tag_name: 'anon' })).status).toBe(401);
      expect((await bob.api.get(`${releases()}/999999`)).status).toBe(404);
      expect((await bob.api.get(`${releases()}/abc`)).status).toBe(404);
      expect((await bob.api.get(`${releases()}/tags/nope`)).status).toBe(404);
      // A NUL in a tag or file name names nothing (PostgreSQL refuses to compare it).
      expect((await bob.api.get(`${releases()}/tags/v1.0%00`)).status).toBe(404);
      expect((await alice.api.delete(`${releases()}/tags/v1.0%00`)).status).toBe(404);
      expect((await download(`${layout.rootUrl}${repo.full_name}/releases/download/v1.0%00/x.bin`)).status).toBe(404);
      expect((await download(`${layout.rootUrl}${repo.full_name}/releases/download/v1.0/x%00.bin`)).status).toBe(404);
      // Dot segments (sent raw; fetch would resolve them) name no tag or file either.
      for (const path of [`/${repo.full_name}/releases/download/%2e%2e/x.bin`, `/${repo.full_name}/releases/download/v1.0/%2E%2E`, `/${repo.full_name}/archive/%2e%2e`]) {
        const dots = await rawRequest(layout, 'GET', path);
        expect({ path, status: dots.status }).toEqual({ path, status: 404 });
      }

      const empty = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('empty') })).body;
      const onEmpty = await alice.api.post(releases(empty), { tag_name: 'v1' });
      expect(onEmpty.status).toBe(422);
      expect(onEmpty.body).toEqual(giteaError('repo is empty'));
      expect((await alice.api.get(`${releases(empty)}/latest`)).status).toBe(404);

      const secret = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('secret'), auto_init: true, private: true })).body;
      expect((await alice.api.post(releases(secret), { tag_name: 'hidden' })).status).toBe(201);
      expect((await bob.api.get(releases(secret))).status).toBe(404);
      expect((await api.anonymous.get(`${releases(secret)}/tags/hidden`)).status).toBe(404);
      expect((await alice.api.get<Release[]>(releases(secret))).body.map((r) => r.tag_name)).toEqual(['hidden']);

      // An archived repository keeps its releases readable and refuses changes (423).
      const shelved = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('shelved'), auto_init: true })).body;
      const kept = (await alice.api.post<Release>(releases(shelved), { tag_name: 'v1' })).body;
      expect((await alice.api.patch(`/repos/${shelved.full_name}`, { archived: true })).status).toBe(200);
      const locked = await alice.api.post(releases(shelved), { tag_name: 'v2' });
      expect(locked.status).toBe(423);
      expect(locked.body).toEqual(giteaError('repo is archived'));
      expect((await alice.api.patch(`${releases(shelved)}/${kept.id}`, { name: 'x' })).status).toBe(423);
      expect((await alice.api.delete(`${releases(shelved)}/${kept.id}`)).status).toBe(423);
      expect((await bob.api.get<Release>(`${releases(shelved)}/${kept.id}`)).status).toBe(200);
    });

    it('should apply tag protection to the tags releases create (Gitea answers 422)', async () => {
      const rule = await alice.api.post(`/repos/${repo.full_name}/tag_protections`, {
        name_pattern: 'locked-*',
        whitelist_usernames: [carol.username],
      } satisfies CreateTagProtectionOption);
      expect(rule.status).toBe(201);
      const refused = await alice.api.post(releases(), { tag_name: 'locked-1' } satisfies CreateReleaseOption);
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(giteaError('release tag name is protected [tag_name: locked-1]'));
      expect((await tagsOnServer()).has('refs/tags/locked-1')).toBe(false);
      // A draft makes no tag; publishing it is where protection bites.
      const draft = await alice.api.post<Release>(releases(), { tag_name: 'locked-2', draft: true } satisfies CreateReleaseOption);
      expect(draft.status).toBe(201);
      expect((await alice.api.patch(`${releases()}/${draft.body.id}`, { draft: false })).status).toBe(422);
      const allowed = await carol.api.post<Release>(releases(), { tag_name: 'locked-3' } satisfies CreateReleaseOption);
      expect(allowed.status).toBe(201);
      expect((await tagsOnServer()).has('refs/tags/locked-3')).toBe(true);
    });

    it("should refuse to delete a release's tag through the tags API (409, Gitea's DeleteTag) until the release is gone", async () => {
      const made = (await alice.api.post<Release>(releases(), { tag_name: 'owned-1' } satisfies CreateReleaseOption)).body;
      const refused = await alice.api.delete(`/repos/${repo.full_name}/tags/owned-1`);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual(giteaError('a tag attached to a release cannot be deleted directly'));
      expect((await tagsOnServer()).has('refs/tags/owned-1')).toBe(true);
      expect((await alice.api.delete(`${releases()}/${made.id}`)).status).toBe(204);
      expect((await alice.api.delete(`/repos/${repo.full_name}/tags/owned-1`)).status).toBe(204);
      expect((await tagsOnServer()).has('refs/tags/owned-1')).toBe(false);
    });

    it("should turn the release of a tag a push deleted into a draft (Gitea's PushUpdateDeleteTags)", async () => {
      const made = (await alice.api.post<Release>(releases(), { tag_name: 'pushed-away' } satisfies CreateReleaseOption)).body;
      const counter = async () => (await alice.api.get<Repository>(`/repos/${repo.full_name}`)).body.release_counter;
      const before = await counter();
      const local = join(scratch, 'push-delete');
      await git.run(['init', '--quiet', local]);
      await git.run(['push', gitUrl(layout, repo.owner.login, repo.name, [alice.username, alice.password]), ':refs/tags/pushed-away'], { cwd: local });
      expect((await tagsOnServer()).has('refs/tags/pushed-away')).toBe(false);
      await expectEventually(async () => expect((await alice.api.get<Release>(`${releases()}/${made.id}`)).body).toMatchObject({ draft: true }));
      expect((await bob.api.get(`${releases()}/${made.id}`)).status).toBe(404);
      expect(await counter()).toBe(before - 1);
      expect((await alice.api.delete(`${releases()}/${made.id}`)).status).toBe(204);
    });
  });

  describe('notifications', () => {
    it("should deliver Gitea's release webhook (published, updated, deleted) and record publish_release in the feed", async () => {
      const created = (await alice.api.post<Release>(releases(), { tag_name: 'hooked-1', name: 'Hooked' } satisfies CreateReleaseOption)).body;
      expect((await alice.api.patch(`${releases()}/${created.id}`, { body: 'changed' } satisfies EditReleaseOption)).status).toBe(200);
      expect((await alice.api.delete(`${releases()}/${created.id}`)).status).toBe(204);
      const deliveries = await expectEventually(
        () => {
          const got = receiver
            .at('/release')
            .map((d) => JSON.parse(d.body) as { action: string; release: Release; repository: Repository; sender: { login: string } })
            .filter((p) => p.release.tag_name === 'hooked-1');
          if (got.length < 3) throw new Error(`${got.length} of 3 release deliveries`);
          return got;
        },
        { timeoutMs: 20_000, intervalMs: 50 },
      );
      expect(deliveries.map((p) => p.action).sort()).toEqual(['deleted', 'published', 'updated']);
      const published = deliveries.find((p) => p.action === 'published')!;
      expect(Object.keys(published)).toEqual(['action', 'release', 'repository', 'sender']);
      expect(published).toMatchObject({ release: { id: created.id, name: 'Hooked', url: created.url }, repository: { full_name: repo.full_name }, sender: { login: alice.username } });
      const headers = receiver.at('/release').map((d) => d.headers['x-gitea-event']);
      expect(new Set(headers)).toEqual(new Set(['release']));

      const feed = await expectEventually(
        async () => {
          const res = await alice.api.get<Activity[]>(`/repos/${repo.full_name}/activities/feeds?limit=50`);
          const entries = res.body.filter((e) => e.op_type === 'publish_release' && e.ref_name === 'hooked-1');
          if (entries.length === 0) throw new Error('no publish_release entry yet');
          return entries;
        },
        { timeoutMs: 20_000, intervalMs: 100 },
      );
      expect(feed[0]).toMatchObject({ content: 'Hooked', act_user: { login: alice.username } });
    });
  });

  describe('assets', () => {
    let release: Release;
    let asset: Attachment;

    beforeAll(async () => {
      release = (await alice.api.post<Release>(releases(), { tag_name: 'assets-1', name: 'With files' } satisfies CreateReleaseOption)).body;
    });

    it('should upload a file (201), list it in the release and its assets, and get it', async () => {
      const created = await upload(carol, release.id, 'tool.bin', Buffer.from([0, 1, 2, 3, 4]));
      expect(created.status).toBe(201);
      asset = created.body;
      expect(asset).toEqual({
        id: expect.any(Number),
        name: 'tool.bin',
        size: 5,
        download_count: 0,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        // One file on its own downloads by its uuid (Gitea's Attachment.DownloadURL) ...
        browser_download_url: `${layout.rootUrl}attachments/${created.body.uuid}`,
      });
      // ... and through the release's tag where the release lists its files (their names are unique).
      const listed = { ...asset, browser_download_url: `${layout.rootUrl}${repo.full_name}/releases/download/assets-1/tool.bin` };
      expect((await bob.api.get<Attachment[]>(`${releases()}/${release.id}/assets`)).body).toEqual([listed]);
      expect((await api.anonymous.get<Attachment>(`${releases()}/${release.id}/assets/${asset.id}`)).body).toEqual(asset);
      expect((await bob.api.get<Release>(`${releases()}/${release.id}`)).body.assets).toEqual([listed]);
      const named = await upload(alice, release.id, 'ignored.txt', 'notes', '?name=NOTES.md');
      expect(named.body.name).toBe('NOTES.md');
      // The file as the body itself, named by ?name= (Gitea's non-multipart upload).
      const raw = await fetch(`${layout.apiUrl}${releases()}/${release.id}/assets?name=raw.bin`, {
        method: 'POST',
        body: Buffer.from('raw bytes'),
        headers: { authorization: basicAuth(alice.username, alice.password), 'content-type': 'application/octet-stream' },
      });
      expect(raw.status).toBe(201);
      const rawAsset = (await raw.json()) as Attachment;
      expect(rawAsset).toMatchObject({ name: 'raw.bin', size: 9 });
      expect((await download(rawAsset.browser_download_url)).body.toString()).toBe('raw bytes');
      const unnamed = await fetch(`${layout.apiUrl}${releases()}/${release.id}/assets`, {
        method: 'POST',
        body: Buffer.from('x'),
        headers: { authorization: basicAuth(alice.username, alice.password), 'content-type': 'application/octet-stream' },
      });
      expect(unnamed.status).toBe(400);
      expect(await unnamed.json()).toEqual(giteaError('Could not determine name of attachment.'));
      expect((await alice.api.delete(`${releases()}/${release.id}/assets/${rawAsset.id}`)).status).toBe(204);
    });

    it('should take a raw body of any type named by ?name= (Gitea reads every non-multipart body as the file), and empty files', async () => {
      for (const [type, name] of [['text/plain', 'notes.txt'], ['application/json', 'data.json'], ['image/png', 'pic.png']] as const) {
        const res = await fetch(`${layout.apiUrl}${releases()}/${release.id}/assets?name=${name}`, {
          method: 'POST',
          body: '{"raw": true}',
          headers: { authorization: basicAuth(alice.username, alice.password), 'content-type': type },
        });
        expect({ type, status: res.status }).toEqual({ type, status: 201 });
        const made = (await res.json()) as Attachment;
        expect(made).toMatchObject({ name, size: 13 });
        expect((await download(made.browser_download_url)).body.toString()).toBe('{"raw": true}');
        expect((await alice.api.delete(`${releases()}/${release.id}/assets/${made.id}`)).status).toBe(204);
      }
      const empty = await upload(alice, release.id, 'empty.txt', '');
      expect(empty.status).toBe(201);
      expect(empty.body.size).toBe(0);
      expect((await download(empty.body.browser_download_url)).body.length).toBe(0);
      expect((await alice.api.delete(`${releases()}/${release.id}/assets/${empty.body.id}`)).status).toBe(204);
    });

    it('should download through browser_download_url and count it', async () => {
      const got = await download(asset.browser_download_url, bob);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(Buffer.from([0, 1, 2, 3, 4]));
      expect(got.headers.get('content-disposition')).toContain('tool.bin');
      expect((await download(asset.browser_download_url)).status).toBe(200);
      expect((await bob.api.get<Attachment>(`${releases()}/${release.id}/assets/${asset.id}`)).body.download_count).toBe(2);
      expect((await download(`${layout.rootUrl}${repo.full_name}/releases/download/assets-1/tool.bin`)).body).toEqual(Buffer.from([0, 1, 2, 3, 4]));
      expect((await bob.api.get<Attachment>(`${releases()}/${release.id}/assets/${asset.id}`)).body.download_count).toBe(3);
      expect((await download(`${layout.rootUrl}${repo.full_name}/releases/download/assets-1/missing.bin`)).status).toBe(404);
      expect((await download(`${layout.rootUrl}attachments/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    });

    it('should list files of one name by their uuids, each downloading its own bytes', async () => {
      const twin = (await alice.api.post<Release>(releases(), { tag_name: 'twins', name: 'Twins' } satisfies CreateReleaseOption)).body;
      const first = (await upload(alice, twin.id, 'same.txt', 'first')).body;
      const second = (await upload(alice, twin.id, 'same.txt', 'second')).body;
      const listed = (await bob.api.get<Attachment[]>(`${releases()}/${twin.id}/assets`)).body;
      expect(listed.map((a) => a.browser_download_url)).toEqual([`${layout.rootUrl}attachments/${first.uuid}`, `${layout.rootUrl}attachments/${second.uuid}`]);
      expect((await download(listed[1]!.browser_download_url, bob)).body.toString()).toBe('second');
      expect((await alice.api.delete(`${releases()}/${twin.id}`)).status).toBe(204);
    });

    it('should rename (201) and delete (204) an asset, writers only', async () => {
      const renamed = await carol.api.patch<Attachment>(`${releases()}/${release.id}/assets/${asset.id}`, { name: 'tool-linux.bin' });
      expect(renamed.status).toBe(201);
      expect(renamed.body).toMatchObject({ id: asset.id, name: 'tool-linux.bin', browser_download_url: `${layout.rootUrl}attachments/${asset.uuid}` });
      expect((await bob.api.get<Attachment[]>(`${releases()}/${release.id}/assets`)).body.find((a) => a.id === asset.id)?.browser_download_url).toMatch(/\/releases\/download\/assets-1\/tool-linux\.bin$/);
      expect((await download(renamed.body.browser_download_url)).body).toEqual(Buffer.from([0, 1, 2, 3, 4]));
      expect((await bob.api.patch(`${releases()}/${release.id}/assets/${asset.id}`, { name: 'x' })).status).toBe(403);
      expect((await bob.api.delete(`${releases()}/${release.id}/assets/${asset.id}`)).status).toBe(403);
      expect((await upload(bob, release.id, 'bob.txt', 'no')).status).toBe(403);
      expect((await upload(null, release.id, 'anon.txt', 'no')).status).toBe(401);
      // An asset of another release is not found through this one.
      expect((await bob.api.get(`${releases()}/${release.id + 100000}/assets/${asset.id}`)).status).toBe(404);
      expect((await alice.api.delete(`${releases()}/${release.id}/assets/${asset.id}`)).status).toBe(204);
      expect((await alice.api.get(`${releases()}/${release.id}/assets/${asset.id}`)).status).toBe(404);
      expect((await download(renamed.body.browser_download_url)).status).toBe(404);
    });

    it('should refuse names that walk out of the path (422) and files over the size limit (413)', async () => {
      const walking = await upload(alice, release.id, 'x.txt', 'evil', `?name=${encodeURIComponent('../../etc/passwd')}`);
      expect(walking.status).toBe(422);
      expect(walking.body).toEqual(giteaError(/invalid attachment name/));
      const kept = await upload(alice, release.id, 'fine.txt', 'fine');
      const rename = await alice.api.patch(`${releases()}/${release.id}/assets/${kept.body.id}`, { name: '..\\up' });
      expect(rename.status).toBe(422);
      const big = await upload(alice, release.id, 'big.bin', Buffer.alloc(MAX_MB * 1024 * 1024 + 1, 7));
      expect(big.status).toBe(413);
      expect(big.body).toEqual(giteaError(`attachment exceeds limit ${MAX_MB * 1024 * 1024}`));
      const names = (await alice.api.get<Attachment[]>(`${releases()}/${release.id}/assets`)).body.map((a) => a.name);
      expect(names).toEqual(['NOTES.md', 'fine.txt']);
    });

    it('should serve the assets and archives of a tag with slashes', async () => {
      const nested = (await alice.api.post<Release>(releases(), { tag_name: 'nested/v1.0', name: 'Nested' } satisfies CreateReleaseOption)).body;
      expect(nested).toMatchObject({ html_url: `${layout.rootUrl}${repo.full_name}/releases/tag/nested/v1.0`, tarball_url: `${layout.rootUrl}${repo.full_name}/archive/nested/v1.0.tar.gz` });
      expect((await bob.api.get<Release>(`${releases()}/tags/nested/v1.0`)).body.id).toBe(nested.id);
      const file = await upload(alice, nested.id, 'notes v1.txt', 'spaced');
      // Gitea escapes the tag as one segment (url.PathEscape); the tag's slashes serve as well.
      const [listed] = (await bob.api.get<Attachment[]>(`${releases()}/${nested.id}/assets`)).body;
      expect(listed!.browser_download_url).toBe(`${layout.rootUrl}${repo.full_name}/releases/download/nested%2Fv1.0/notes%20v1.txt`);
      for (const url of [listed!.browser_download_url, `${layout.rootUrl}${repo.full_name}/releases/download/nested/v1.0/notes%20v1.txt`, file.body.browser_download_url]) {
        expect((await download(url)).body.toString()).toBe('spaced');
      }
      const tarball = await download(nested.tarball_url);
      expect(tarball.status).toBe(200);
      expect(tarball.headers.get('content-disposition')).toContain(`${repo.name}-nested-v1.0.tar.gz`);
      expect((await alice.api.delete(`${releases()}/tags/nested/v1.0`)).status).toBe(204);
    });

    it("should hide a draft's assets from readers", async () => {
      const draft = (await alice.api.post<Release>(releases(), { tag_name: 'draft-files', draft: true } satisfies CreateReleaseOption)).body;
      const file = await upload(alice, draft.id, 'secret.txt', 'not yet');
      expect(file.status).toBe(201);
      expect((await bob.api.get(`${releases()}/${draft.id}/assets/${file.body.id}`)).status).toBe(404);
      expect((await download(file.body.browser_download_url, bob)).status).toBe(404);
      expect((await download(file.body.browser_download_url, alice)).body.toString()).toBe('not yet');
    });

    it('should delete a release with its files but keep its tag, by id and by tag', async () => {
      const res = await alice.api.delete(`${releases()}/${release.id}`);
      expect(res.status).toBe(204);
      expect((await alice.api.get(`${releases()}/${release.id}`)).status).toBe(404);
      expect((await tagsOnServer()).has('refs/tags/assets-1')).toBe(true);
      expect((await alice.api.delete(`${releases()}/tags/lightweight`)).status).toBe(204);
      expect((await alice.api.get(`${releases()}/tags/lightweight`)).status).toBe(404);
      expect((await alice.api.delete(`${releases()}/tags/lightweight`)).status).toBe(404);
      expect((await tagsOnServer()).has('refs/tags/lightweight')).toBe(true);
      expect((await alice.api.get(`/repos/${repo.full_name}/tags/lightweight`)).status).toBe(200);
      const deleted = (await repoEvents(layout, repo.id)).filter((e) => e.name === 'release.deleted').map((e) => (e.payload as { release: Release }).release.tag_name);
      expect(deleted.sort()).toEqual(['assets-1', 'bare-tag', 'hooked-1', 'lightweight', 'nested/v1.0', 'owned-1', 'twins']);
    });
  });

  describe('archives', () => {
    const treeAt = async (rev: string) => (await gitOnDisk(layout, repo.id, ['ls-tree', '-r', '--name-only', rev])).split('\n').filter(Boolean).sort();

    it('should stream a tarball that unpacks to the tree at the tag, under the repository name', async () => {
      const url = `${layout.rootUrl}${repo.full_name}/archive/v1.0.tar.gz`;
      const got = await download(url);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-disposition')).toContain(`${repo.name}-v1.0.tar.gz`);
      const file = join(scratch, 'v1.tar.gz');
      writeFileSync(file, got.body);
      const dir = mkdtempSync(join(scratch, 'tar-'));
      await run('tar', ['-xzf', file, '-C', dir]);
      const listed = (await run('tar', ['-tzf', file])).stdout.split('\n').filter((p) => p && !p.endsWith('/')).map((p) => p.slice(repo.name.length + 1)).sort();
      expect(listed).toEqual(await treeAt('v1.0'));
      expect(readFileSync(join(dir, repo.name, 'hello.txt'), 'utf8')).toBe('hello release\n');
      expect(statSync(join(dir, repo.name, 'run.sh')).mode & 0o111).not.toBe(0);
      // The second answer comes from the cache (in place once git has finished): the same bytes, with a length.
      const cache = join(layout.dataDir, 'repo-archives', String(repo.id));
      await expectEventually(() => expect(existsSync(cache) && readdirSync(cache).some((f) => f.endsWith('.tar.gz'))).toBe(true), { timeoutMs: 10_000, intervalMs: 20 });
      const again = await download(url);
      expect(again.body.equals(got.body)).toBe(true);
      expect(again.headers.get('content-length')).toBe(String(got.body.length));
      // The API address answers the same archive.
      const viaApi = await download(`${layout.apiUrl}/repos/${repo.full_name}/archive/v1.0.tar.gz`, bob);
      expect(viaApi.body.equals(got.body)).toBe(true);
    });

    it('should stream a zip of a branch and a bundle of a commit', async () => {
      const zip = await download(`${layout.rootUrl}${repo.full_name}/archive/main.zip`);
      expect(zip.status).toBe(200);
      const zipFile = join(scratch, 'main.zip');
      writeFileSync(zipFile, zip.body);
      const dir = mkdtempSync(join(scratch, 'zip-'));
      await run('unzip', ['-q', zipFile, '-d', dir]);
      expect(readFileSync(join(dir, repo.name, 'hello.txt'), 'utf8')).toBe('hello release\n');

      const bundle = await download(`${layout.rootUrl}${repo.full_name}/archive/${head}.bundle`);
      expect(bundle.status).toBe(200);
      const bundleFile = join(scratch, 'head.bundle');
      writeFileSync(bundleFile, bundle.body);
      const heads = (await git.run(['bundle', 'list-heads', bundleFile])).stdout;
      expect(heads).toContain(`${head} refs/heads/bundle`);
    });

    it('should narrow an archive to the subpaths given in ?path=, refusing paths outside the tree', async () => {
      const url = `${layout.apiUrl}/repos/${repo.full_name}/archive/v1.0.tar.gz`;
      const narrowed = await download(`${url}?path=hello.txt`);
      expect(narrowed.status).toBe(200);
      const file = join(scratch, 'narrow.tar.gz');
      writeFileSync(file, narrowed.body);
      const listed = (await run('tar', ['-tzf', file])).stdout.split('\n').filter((p) => p && !p.endsWith('/'));
      expect(listed).toEqual([`${repo.name}/hello.txt`]);
      expect((await download(`${url}?path=nothing.txt`)).status).toBe(404);
      expect((await download(`${url}?path=hello.txt&path=nothing.txt`)).status).toBe(404);
      expect((await download(`${url}?path=${encodeURIComponent('../etc')}`)).status).toBe(404);
      expect((await download(`${url}?path=${encodeURIComponent('--output=x')}`)).status).toBe(404);
      expect((await download(`${url}?path=${encodeURIComponent('*.sh')}`)).status).toBe(404);
    });

    it("should take a deleted repository's releases, asset files and cached archives with it", async () => {
      const doomed = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('doomed'), auto_init: true })).body;
      const rel = (await alice.api.post<Release>(releases(doomed), { tag_name: 'v1' } satisfies CreateReleaseOption)).body;
      const form = new FormData();
      form.append('attachment', new Blob(['bytes']), 'f.bin');
      const uploaded = await fetch(`${layout.apiUrl}${releases(doomed)}/${rel.id}/assets`, { method: 'POST', body: form, headers: { authorization: basicAuth(alice.username, alice.password) } });
      const asset = (await uploaded.json()) as Attachment;
      expect((await download(rel.tarball_url)).status).toBe(200);
      const blob = join(layout.dataDir, 'releases', asset.uuid);
      const cache = join(layout.dataDir, 'repo-archives', String(doomed.id));
      expect(existsSync(blob)).toBe(true);
      // The cache file is renamed into place once git has finished, just after the client has its bytes.
      await expectEventually(() => expect(existsSync(cache) && readdirSync(cache).some((f) => f.endsWith('.tar.gz'))).toBe(true), { timeoutMs: 10_000, intervalMs: 20 });
      expect((await alice.api.delete(`/repos/${doomed.full_name}`)).status).toBe(204);
      expect(existsSync(blob)).toBe(false);
      expect(existsSync(cache)).toBe(false);
    });

    it('should answer 404 for option-like or unknown refs, unknown formats, and private repositories to outsiders', async () => {
      expect((await download(`${layout.rootUrl}${repo.full_name}/archive/--output=x.tar.gz`)).status).toBe(404);
      expect((await download(`${layout.rootUrl}${repo.full_name}/archive/nope.tar.gz`)).status).toBe(404);
      expect((await download(`${layout.rootUrl}${repo.full_name}/archive/v1.0.rar`)).status).toBe(404);
      const secret = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('closed'), auto_init: true, private: true })).body;
      expect((await download(`${layout.rootUrl}${secret.full_name}/archive/main.tar.gz`)).status).toBe(404);
      expect((await download(`${layout.rootUrl}${secret.full_name}/archive/main.tar.gz`, bob)).status).toBe(404);
      expect((await download(`${layout.apiUrl}/repos/${secret.full_name}/archive/main.zip`, bob)).status).toBe(404);
      expect((await download(`${layout.rootUrl}${secret.full_name}/archive/main.tar.gz`, alice)).status).toBe(200);
    });
  });
});
