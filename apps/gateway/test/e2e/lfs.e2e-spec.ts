import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContentsResponse, Repository } from '@gitforge/contracts';
import { Api, createUser, type TestUser } from './support/api.js';
import { GitCli, gitUrl } from './support/git.js';
import { Layout, layoutsUnderTest, type LayoutKind } from './support/layout.js';
import { addCollaborator, createRepo } from './support/repos.js';

const LFS = 'application/vnd.git-lfs+json';
const MAX = 25 * 1024 * 1024;
const sha256 = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');
const basic = (u: TestUser): string =>
  `Basic ${Buffer.from(`${u.username}:${u.password}`).toString('base64')}`;

const keyDir = mkdtempSync(join(tmpdir(), 'gf-lfskeys-'));
afterAll(() => rmSync(keyDir, { recursive: true, force: true }));

describe.each(layoutsUnderTest())('Git LFS (%s layout)', (kind: LayoutKind) => {
  let layout: Layout;
  let api: Api;
  let git: GitCli;
  let alice: TestUser;
  let bob: TestUser;
  let outsider: TestUser;
  let repo: Repository;
  let knownHosts: string;
  const key = join(keyDir, `alice-${kind}`);
  // 20 MiB that do not compress.
  const big = randomBytes(20 * 1024 * 1024);

  const lfsUrl = (r: Repository, rest: string): string =>
    `${layout.rootUrl}${r.full_name}.git/info/lfs/${rest}`;
  const lfsFetch = (r: Repository, rest: string, init: RequestInit & { auth?: TestUser | null } = {}) =>
    fetch(lfsUrl(r, rest), {
      ...init,
      headers: {
        Accept: LFS,
        'Content-Type': LFS,
        ...(init.auth ? { Authorization: basic(init.auth) } : {}),
        ...(init.headers as Record<string, string>),
      },
    });
  const batch = (
    r: Repository,
    operation: 'upload' | 'download',
    objects: Array<{ oid: string; size: number }>,
    auth: TestUser | null,
  ) =>
    lfsFetch(r, 'objects/batch', {
      method: 'POST',
      body: JSON.stringify({ operation, transfers: ['basic'], objects }),
      auth,
    });
  const sshEnv = (): Record<string, string> => ({
    GIT_SSH_COMMAND: `ssh -F /dev/null -i ${key} -o IdentitiesOnly=yes -o BatchMode=yes -o UserKnownHostsFile=${knownHosts} -o StrictHostKeyChecking=yes`,
  });

  beforeAll(async () => {
    layout = await Layout.start(kind, { env: { GITFORGE_LFS_MAX_FILE_SIZE: String(MAX) } });
    api = new Api(layout);
    git = GitCli.create();
    // git-lfs's filters, in the throwaway HOME's config.
    await git.run(['lfs', 'install', '--skip-repo']);
    [alice, bob, outsider] = await Promise.all([
      createUser(api, 'lalice'),
      createUser(api, 'lbob'),
      createUser(api, 'lout'),
    ]);
    repo = await createRepo(alice.api, { auto_init: true, private: true });
    await addCollaborator(alice.api, repo, bob, 'write');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
    expect(
      (await alice.api.post('/user/keys', { title: 'lfs', key: readFileSync(`${key}.pub`, 'utf8') })).status,
    ).toBe(201);
    const hostPub = readFileSync(join(layout.dataDir, 'ssh', 'gitforge_host_ed25519_key.pub'), 'utf8')
      .split(' ')
      .slice(0, 2)
      .join(' ');
    const u = new URL(repo.ssh_url);
    knownHosts = join(git.home, 'known_hosts');
    writeFileSync(knownHosts, `[${u.hostname}]:${u.port} ${hostPub}\n`);
  });

  afterAll(async () => {
    git?.cleanup();
    await layout?.stop();
  });

  /** Tracks *.bin, commits `files` and pushes over `remote`; a fresh clone from `remote` then has the same bytes. */
  async function pushAndClone(
    remote: string,
    env: Record<string, string>,
    files: Record<string, Buffer>,
    branch: string,
  ): Promise<string> {
    const dir = git.dir('lfs');
    await git.run(['clone', '--quiet', remote, dir], { env });
    await git.run(['checkout', '--quiet', '-b', branch], { cwd: dir });
    await git.run(['lfs', 'track', '*.bin'], { cwd: dir });
    for (const [name, data] of Object.entries(files)) writeFileSync(join(dir, name), data);
    await git.run(['add', '--all'], { cwd: dir });
    await git.run(['commit', '--quiet', '-m', 'large files'], { cwd: dir });
    await git.run(['push', '--quiet', 'origin', branch], { cwd: dir, env });
    const fresh = git.dir('lfs-clone');
    await git.run(['clone', '--quiet', '--branch', branch, remote, fresh], { env });
    for (const [name, data] of Object.entries(files))
      expect(sha256(readFileSync(join(fresh, name)))).toBe(sha256(data));
    return fresh;
  }

  it('should push a 20 MiB object over HTTP and give a fresh clone the same bytes, then lock and unlock', async () => {
    const remote = gitUrl(layout, alice.username, repo.name, [alice.username, alice.password]);
    const fresh = await pushAndClone(
      remote,
      {},
      { 'big.bin': big, 'small.bin': Buffer.from('tiny lfs object\n') },
      'http',
    );
    // The pointer is in git; the contents API tells its object and media serves it.
    const contents = await alice.api.get<ContentsResponse>(
      `/repos/${repo.full_name}/contents/big.bin?ref=http`,
    );
    expect(contents.body).toMatchObject({ lfs_oid: sha256(big), lfs_size: big.length });
    const media = await alice.api.get(`/repos/${repo.full_name}/media/small.bin?ref=http`);
    expect(media.text).toBe('tiny lfs object\n');

    await git.run(['lfs', 'lock', 'big.bin'], { cwd: fresh });
    const locks = await git.run(['lfs', 'locks'], { cwd: fresh });
    expect(locks.stdout).toMatch(new RegExp(`big\\.bin\\s+${alice.username}\\s+ID:\\d+`));
    const again = await git.run(['lfs', 'lock', 'big.bin'], { cwd: fresh, allowFailure: true });
    expect(again.code).not.toBe(0);
    await git.run(['lfs', 'unlock', 'big.bin'], { cwd: fresh });
    expect((await git.run(['lfs', 'locks'], { cwd: fresh })).stdout.trim()).toBe('');
  });

  it('should push and clone over SSH through git-lfs-authenticate, and lock and unlock there', async () => {
    const data = randomBytes(20 * 1024 * 1024);
    const fresh = await pushAndClone(repo.ssh_url, sshEnv(), { 'ssh.bin': data }, 'ssh');
    await git.run(['lfs', 'lock', 'ssh.bin'], { cwd: fresh, env: sshEnv() });
    expect((await git.run(['lfs', 'locks'], { cwd: fresh, env: sshEnv() })).stdout).toContain('ssh.bin');
    await git.run(['lfs', 'unlock', 'ssh.bin'], { cwd: fresh, env: sshEnv() });
    expect((await git.run(['lfs', 'locks'], { cwd: fresh, env: sshEnv() })).stdout.trim()).toBe('');
  });

  it('should accept a pushed pointer whose object was never uploaded, as Gitea does', async () => {
    const dir = git.dir('pointer');
    await git.run([
      'clone',
      '--quiet',
      gitUrl(layout, alice.username, repo.name, [alice.username, alice.password]),
      dir,
    ]);
    const oid = sha256('never uploaded');
    writeFileSync(
      join(dir, 'ghost.bin'),
      `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize 14\n`,
    );
    // Plain git: no .gitattributes for *.bin here, so the pointer goes in as it is.
    await git.run(['add', 'ghost.bin'], { cwd: dir });
    await git.run(['commit', '--quiet', '-m', 'pointer only'], { cwd: dir });
    await git.run(['push', '--quiet', 'origin', 'HEAD:ghost'], { cwd: dir });
    const dl = await batch(repo, 'download', [{ oid, size: 14 }], alice);
    expect((await dl.json()) as unknown).toMatchObject({ objects: [{ oid, error: { code: 404 } }] });
  });

  it('should refuse a wrong oid, a short body and an oversize object, and keep nothing of them', async () => {
    const body = Buffer.from('some bytes for the wrong oid');
    const wrongOid = sha256('other bytes');
    const put = (oid: string, size: number, data: Buffer) =>
      lfsFetch(repo, `objects/${oid}/${size}`, {
        method: 'PUT',
        auth: alice,
        body: data,
        headers: { 'Content-Type': 'application/octet-stream' },
      });
    const wrong = await put(wrongOid, body.length, body);
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toEqual({ message: 'the object does not have the expected sha256' });
    const short = await put(sha256(body), body.length + 10, body);
    expect(short.status).toBe(422);
    // Refused before the body is read: the answer still arrives whole, not a reset connection.
    const tooBig = Buffer.alloc(MAX + 1);
    const oversize = await put(sha256(tooBig), MAX + 1, tooBig);
    expect(oversize.status).toBe(413);
    expect(await oversize.json()).toEqual({ message: `Size must be less than or equal to ${MAX}` });
    const anonymous = await fetch(lfsUrl(repo, `objects/${sha256(tooBig)}/${MAX + 1}`), {
      method: 'PUT',
      body: tooBig,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(anonymous.status).toBe(401);
    const stored = (oid: string): boolean =>
      existsSync(join(layout.dataDir, 'lfs', oid.slice(0, 2), oid.slice(2, 4), oid.slice(4)));
    expect([stored(wrongOid), stored(sha256(body)), stored(sha256(tooBig))]).toEqual([false, false, false]);
    const up = await batch(
      repo,
      'upload',
      [
        { oid: sha256('y'), size: MAX + 1 },
        { oid: 'not-an-oid', size: 1 },
      ],
      alice,
    );
    expect(await up.json()).toMatchObject({
      objects: [
        { error: { code: 422, message: `Size must be less than or equal to ${MAX}` } },
        { error: { code: 422, message: 'Oid or size are invalid' } },
      ],
    });
  });

  it('should serve an object only through repositories that reference it, to callers who can read them', async () => {
    const oid = sha256(big);
    const own = await batch(repo, 'download', [{ oid, size: big.length }], alice);
    const ownBody = (await own.json()) as { objects: Array<{ actions: { download: { href: string } } }> };
    const href = ownBody.objects[0]!.actions.download.href;
    expect(href).toBe(lfsUrl(repo, `objects/${oid}`));
    const bytes = Buffer.from(
      await (await fetch(href, { headers: { Authorization: basic(bob) } })).arrayBuffer(),
    );
    expect(sha256(bytes)).toBe(oid);
    // A broken transfer resumes with a range (206).
    const rest = await fetch(href, { headers: { Authorization: basic(bob), Range: 'bytes=100-' } });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe(`bytes 100-${big.length - 1}/${big.length}`);
    expect(Buffer.from(await rest.arrayBuffer()).equals(big.subarray(100))).toBe(true);
    // Private repository: anonymous callers are asked for credentials, outsiders do not see it.
    const anon = await batch(repo, 'download', [{ oid, size: big.length }], null);
    expect(anon.status).toBe(401);
    expect(anon.headers.get('lfs-authenticate')).toBe('Basic realm="gitea-lfs"');
    expect((await batch(repo, 'download', [{ oid, size: big.length }], outsider)).status).toBe(404);
    expect((await fetch(href, { headers: { Authorization: basic(outsider) } })).status).toBe(404);
    // The outsider's own repository does not reference it: knowing the oid is not enough.
    const theirs = await createRepo(outsider.api, { auto_init: true });
    const viaTheirs = await batch(theirs, 'download', [{ oid, size: big.length }], outsider);
    expect(await viaTheirs.json()).toMatchObject({ objects: [{ oid, error: { code: 404 } }] });
    expect(
      (await fetch(lfsUrl(theirs, `objects/${oid}`), { headers: { Authorization: basic(outsider) } })).status,
    ).toBe(404);
    // Uploading needs write access; a wrong Accept header is 415.
    const readerRepo = await createRepo(alice.api, { auto_init: true });
    expect((await batch(readerRepo, 'upload', [{ oid, size: big.length }], outsider)).status).toBe(403);
    expect(
      (
        await lfsFetch(repo, 'objects/batch', {
          method: 'POST',
          auth: alice,
          headers: { Accept: 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(415);
    expect(
      (
        await lfsFetch(repo, 'objects/batch', {
          method: 'POST',
          auth: alice,
          body: '{"operation":"delete","objects":[]}',
        })
      ).status,
    ).toBe(400);
  });

  it("should serve a fork its parent's objects, as Gitea copies them when it forks", async () => {
    const oid = sha256(big);
    const fork = await bob.api.post<Repository>(`/repos/${repo.full_name}/forks`, {});
    expect(fork.status).toBe(202);
    const viaFork = await batch(fork.body, 'download', [{ oid, size: big.length }], bob);
    const body = (await viaFork.json()) as { objects: Array<{ actions?: { download: { href: string } } }> };
    const href = body.objects[0]!.actions?.download.href;
    expect(href).toBe(lfsUrl(fork.body, `objects/${oid}`));
    const bytes = Buffer.from(await (await fetch(href!, { headers: { Authorization: basic(bob) } })).arrayBuffer());
    expect(sha256(bytes)).toBe(oid);
  });

  it("should drop a deleted repository's references, and an object once no repository references it", async () => {
    const data = Buffer.from(`object of a repository that goes ${kind}\n`);
    const oid = sha256(data);
    const gone = await createRepo(alice.api, { auto_init: true });
    const put = await lfsFetch(gone, `objects/${oid}/${data.length}`, {
      method: 'PUT',
      auth: alice,
      body: data,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(put.status).toBe(200);
    const fork = await bob.api.post<Repository>(`/repos/${gone.full_name}/forks`, {});
    expect(fork.status).toBe(202);
    const stored = (): boolean =>
      existsSync(join(layout.dataDir, 'lfs', oid.slice(0, 2), oid.slice(2, 4), oid.slice(4)));
    expect((await alice.api.delete(`/repos/${gone.full_name}`)).status).toBe(204);
    // The fork still references it.
    expect(stored()).toBe(true);
    expect((await fetch(lfsUrl(fork.body, `objects/${oid}`), { headers: { Authorization: basic(bob) } })).status).toBe(200);
    // Gone with the last repository that referenced it (the first one's row went with it too).
    expect((await bob.api.delete(`/repos/${fork.body.full_name}`)).status).toBe(204);
    expect(stored()).toBe(false);
  });

  it('should let only the owner unlock a lock, and a repository admin force it', async () => {
    const create = await lfsFetch(repo, 'locks', {
      method: 'POST',
      auth: bob,
      body: JSON.stringify({ path: 'dir/../doc.bin' }),
    });
    expect(create.status).toBe(201);
    const { lock } = (await create.json()) as { lock: { id: string; path: string; owner: { name: string } } };
    expect(lock).toMatchObject({ path: 'doc.bin', owner: { name: bob.username } });
    const dup = await lfsFetch(repo, 'locks', {
      method: 'POST',
      auth: alice,
      body: JSON.stringify({ path: 'doc.bin' }),
    });
    expect(dup.status).toBe(409);
    expect(await dup.json()).toMatchObject({ lock: { id: lock.id }, message: 'already created lock' });
    const verify = await lfsFetch(repo, 'locks/verify', { method: 'POST', auth: alice, body: '{}' });
    expect(await verify.json()).toMatchObject({ ours: [], theirs: [{ id: lock.id }] });
    expect((await lfsFetch(repo, 'locks', { auth: null })).status).toBe(401);
    const notMine = await lfsFetch(repo, `locks/${lock.id}/unlock`, {
      method: 'POST',
      auth: alice,
      body: '{}',
    });
    expect(notMine.status).toBe(403);
    const bobForce = await lfsFetch(repo, 'locks', {
      method: 'POST',
      auth: alice,
      body: JSON.stringify({ path: 'alice.bin' }),
    });
    const aliceLock = ((await bobForce.json()) as { lock: { id: string } }).lock;
    expect(
      (
        await lfsFetch(repo, `locks/${aliceLock.id}/unlock`, {
          method: 'POST',
          auth: bob,
          body: '{"force":true}',
        })
      ).status,
    ).toBe(403);
    const forced = await lfsFetch(repo, `locks/${lock.id}/unlock`, {
      method: 'POST',
      auth: alice,
      body: '{"force":true}',
    });
    expect(forced.status).toBe(200);
    const list = await lfsFetch(repo, 'locks?path=doc.bin', { auth: alice });
    expect(await list.json()).toEqual({ locks: [] });
  });

  it('should answer lock ids and cursors beyond any row with no lock, not a server error', async () => {
    const huge = '99999999999';
    const byId = await lfsFetch(repo, `locks?id=${huge}`, { auth: alice });
    expect([byId.status, await byId.json()]).toEqual([200, { locks: [] }]);
    const after = await lfsFetch(repo, `locks?cursor=${huge}`, { auth: alice });
    expect([after.status, await after.json()]).toEqual([200, { locks: [] }]);
    const verify = await lfsFetch(repo, 'locks/verify', { method: 'POST', auth: alice, body: JSON.stringify({ cursor: huge }) });
    expect([verify.status, await verify.json()]).toEqual([200, { ours: [], theirs: [] }]);
    const fraction = await lfsFetch(repo, 'locks/verify', { method: 'POST', auth: alice, body: '{"cursor":1.5}' });
    expect(fraction.status).toBe(400);
    const unlock = await lfsFetch(repo, `locks/${huge}/unlock`, { method: 'POST', auth: alice, body: '{}' });
    expect([unlock.status, await unlock.json()]).toEqual([404, { message: 'lock not found' }]);
  });

  it('should refuse a lock path too long to index as a bad request, not a server error', async () => {
    const long = Array.from({ length: 4000 }, () => String.fromCodePoint(0x4e00 + Math.floor(Math.random() * 0x5000))).join('');
    const res = await lfsFetch(repo, 'locks', { method: 'POST', auth: alice, body: JSON.stringify({ path: long }) });
    expect([res.status, await res.json()]).toEqual([400, { message: 'invalid path' }]);
    // As long as PostgreSQL can index it is fine.
    const fits = await lfsFetch(repo, 'locks', { method: 'POST', auth: alice, body: JSON.stringify({ path: 'x'.repeat(2048) }) });
    expect(fits.status).toBe(201);
  });
});
