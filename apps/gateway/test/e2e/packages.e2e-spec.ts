import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Organization, Package, PackageFile, Repository } from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { createOrg } from './support/accounts.js';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { HookReceiver } from './support/hook-receiver.js';
import { rawRequest } from './support/http.js';
import { ADMIN, Layout, layoutsUnderTest } from './support/layout.js';
import { createRepo } from './support/repos.js';

const run = promisify(execFile);
const MAX_MB = 1;
const QUOTA_MB = 2;

/** Every file under `dir` (recursively), `.blob-tmp` included: what the BlobStore holds. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) => statSync(join(dir, p)).isFile());
}

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

describe.each(layoutsUnderTest())('package registry: generic, npm and the package API (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let aliceToken: string;
  let bobToken: string;
  let scratch: string;
  let receiver: HookReceiver;

  beforeAll(async () => {
    receiver = await HookReceiver.start();
    layout = await Layout.start(kind, {
      env: { GITFORGE_PACKAGES_MAX_FILE_SIZE_MB: String(MAX_MB), GITFORGE_PACKAGES_OWNER_QUOTA_MB: String(QUOTA_MB), GITFORGE_WEBHOOK_ALLOW_LOOPBACK: '1' },
    });
    api = new Api(layout);
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
    const token = async (u: TestUser, scopes: string[]): Promise<string> => {
      const res = await u.api.post<{ sha1: string }>(`/users/${u.username}/tokens`, { name: uniqueName('t'), scopes });
      expect(res.status).toBe(201);
      return res.body.sha1;
    };
    aliceToken = await token(alice, ['write:package', 'write:repository', 'write:user']);
    bobToken = await token(bob, ['write:package']);
    const hook = await alice.api.post('/user/hooks', { type: 'gitea', active: true, events: ['package'], config: { url: receiver.url('/package'), content_type: 'json' } });
    expect(hook.status).toBe(201);
    scratch = mkdtempSync(join(tmpdir(), 'gf-packages-'));
  });

  afterAll(async () => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    await layout?.stop();
    await receiver?.close();
  });

  const registry = (owner: string, rest: string): string => `/api/packages/${owner}/${rest}`;
  const auth = (token: string) => ({ authorization: `token ${token}` });
  const blobFiles = (): string[] => filesUnder(join(layout.dataDir, 'packages'));
  const tmpBlobs = (): string[] => filesUnder(join(layout.dataDir, '.blob-tmp'));

  async function curl(args: string[]): Promise<string> {
    const { stdout } = await run('curl', ['-sS', ...args], { maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  }

  describe('generic registry', () => {
    const name = 'tool';
    let bytes: Buffer;
    let source: string;

    beforeAll(() => {
      bytes = randomBytes(300 * 1024);
      source = join(scratch, 'tool.bin');
      writeFileSync(source, bytes);
    });

    it('should take an upload from curl with a token (201), refuse the same file again (409), and serve it back byte for byte', async () => {
      const url = `${layout.rootUrl}api/packages/${alice.username}/generic/${name}/1.2.0/tool.bin`;
      expect(await curl(['-o', '/dev/null', '-w', '%{http_code}', '-T', source, '-H', `Authorization: token ${aliceToken}`, url])).toBe('201');
      const again = await curl(['-w', '\n%{http_code}', '-T', source, '-H', `Authorization: token ${aliceToken}`, url]);
      expect(again.split('\n').pop()).toBe('409');
      expect(again).toContain('package file already exists');

      const out = join(scratch, 'downloaded.bin');
      expect(await curl(['-o', out, '-w', '%{http_code}', url])).toBe('200');
      expect(sha256(readFileSync(out))).toBe(sha256(bytes));
      const head = await rawRequest(layout, 'HEAD', registry(alice.username, `generic/${name}/1.2.0/tool.bin`));
      expect(head.status).toBe(200);
      expect(head.headers['content-length']).toBe(String(bytes.length));
      expect(head.headers['content-disposition']).toBe('attachment; filename=tool.bin');
      expect(head.headers['cache-control']).toBe('max-age=0, private, must-revalidate');

      // A broken download resumes: curl asks for the rest (206), and the file comes out whole.
      const partial = join(scratch, 'resumed.bin');
      writeFileSync(partial, bytes.subarray(0, 100 * 1024));
      expect(await curl(['-C', '-', '-o', partial, '-w', '%{http_code}', url])).toBe('206');
      expect(sha256(readFileSync(partial))).toBe(sha256(bytes));
      // A copy that is current is not sent again; a range past the end is 416.
      const again304 = await rawRequest(layout, 'GET', registry(alice.username, `generic/${name}/1.2.0/tool.bin`), { 'if-none-match': head.headers.etag as string });
      expect(again304.status).toBe(304);
      const outside = await rawRequest(layout, 'GET', registry(alice.username, `generic/${name}/1.2.0/tool.bin`), { range: `bytes=${bytes.length}-` });
      expect(outside.status).toBe(416);
      expect(outside.headers['content-range']).toBe(`bytes */${bytes.length}`);
      // A conditional download of another version is 412, as Go's ServeContent answers it; of this one, the file.
      const ifMatch = (tag: string) => rawRequest(layout, 'GET', registry(alice.username, `generic/${name}/1.2.0/tool.bin`), { 'if-match': tag });
      expect((await ifMatch('"not-this-one"')).status).toBe(412);
      expect((await ifMatch(head.headers.etag as string)).status).toBe(200);
    });

    it('should store identical bytes once, however many files carry them', async () => {
      const before = blobFiles().length;
      const res = await rawRequest(layout, 'PUT', registry(alice.username, `generic/${name}/1.2.0/copy.bin`), auth(aliceToken), bytes);
      expect(res.status).toBe(201);
      expect(blobFiles()).toHaveLength(before);
      const files = await alice.api.as({ token: aliceToken }).get<PackageFile[]>(`/packages/${alice.username}/generic/${name}/1.2.0/files`);
      expect(files.status).toBe(200);
      expect(files.body.map((f) => f.name)).toEqual(['tool.bin', 'copy.bin']);
      expect(files.body[0]).toEqual({
        id: expect.any(Number),
        size: bytes.length,
        name: 'tool.bin',
        md5: createHash('md5').update(bytes).digest('hex'),
        sha1: createHash('sha1').update(bytes).digest('hex'),
        sha256: sha256(bytes),
        sha512: createHash('sha512').update(bytes).digest('hex'),
      });
    });

    it('should answer 401 to anonymous uploads and to other users (Gitea’s reqPackageAccess), and let anyone read a public owner’s files', async () => {
      const path = registry(alice.username, `generic/${name}/1.2.0/other.bin`);
      const anonymous = await rawRequest(layout, 'PUT', path, {}, Buffer.from('x'));
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers['www-authenticate']).toBe('Basic realm="Gitea Package API"');
      const other = await rawRequest(layout, 'PUT', path, auth(bobToken), Buffer.from('x'));
      expect(other.status).toBe(401);
      expect(other.headers['www-authenticate']).toBe('Basic realm="Gitea Package API"');
      expect(other.headers['content-type']).toMatch(/^text\/plain/);
      expect(other.body.toString()).toBe('user should have specific permission or be a site admin');
      expect((await rawRequest(layout, 'DELETE', registry(alice.username, `generic/${name}/1.2.0`), auth(bobToken))).status).toBe(401);
      expect((await rawRequest(layout, 'GET', registry(alice.username, `generic/${name}/1.2.0/tool.bin`), auth(bobToken))).status).toBe(200);
      expect((await rawRequest(layout, 'GET', registry(alice.username, `generic/${name}/1.2.0/missing.bin`))).status).toBe(404);
      expect((await rawRequest(layout, 'GET', registry('no-such-owner-x', `generic/${name}/1.2.0/tool.bin`))).status).toBe(404);
    });

    it('should take parallel uploads of different files to a new package version, every one of them', async () => {
      const pkg = uniqueName('parallel');
      const uploads = await Promise.all(
        Array.from({ length: 8 }, (_, i) => rawRequest(layout, 'PUT', registry(alice.username, `generic/${pkg}/1.0.0/part-${i}.bin`), auth(aliceToken), randomBytes(64 * 1024))),
      );
      expect(uploads.map((u) => u.status)).toEqual(Array.from({ length: 8 }, () => 201));
      const files = await alice.api.as({ token: aliceToken }).get<PackageFile[]>(`/packages/${alice.username}/generic/${pkg}/1.0.0/files`);
      expect(files.body).toHaveLength(8);
    });

    it('should refuse names that could walk a path, with plain-text 400s, and store nothing', async () => {
      const before = blobFiles().length;
      for (const rest of [`generic/${name}/1.0.0/..%2F..%2Fetc%2Fpasswd`, `generic/${name}/1.0.0/..`, `generic/..%2Fx/1.0.0/f.bin`, `generic/${name}/..%2F1/f.bin`, `generic/${name}/%20v1/f.bin`]) {
        const res = await rawRequest(layout, 'PUT', registry(alice.username, rest), auth(aliceToken), Buffer.from('evil'));
        expect({ rest, status: res.status }).toEqual({ rest, status: 400 });
        expect(res.headers['content-type']).toMatch(/^text\/plain/);
        expect(res.body.toString()).toMatch(/^invalid (package name|package version|filename)$/);
      }
      expect(blobFiles()).toHaveLength(before);
    });

    it('should refuse an oversize upload with 413 and keep no partial file', async () => {
      const before = blobFiles().length;
      const big = join(scratch, 'big.bin');
      writeFileSync(big, randomBytes(MAX_MB * 1024 * 1024 + 1));
      const url = `${layout.rootUrl}api/packages/${alice.username}/generic/${name}/9.9.9/big.bin`;
      const out = await curl(['-w', '\n%{http_code}', '-T', big, '-H', `Authorization: token ${aliceToken}`, url]);
      expect(out.split('\n').pop()).toBe('413');
      expect(blobFiles()).toHaveLength(before);
      expect(tmpBlobs()).toEqual([]);
      expect((await rawRequest(layout, 'GET', registry(alice.username, `generic/${name}/9.9.9/big.bin`))).status).toBe(404);
    });

    it('should hold the owner to its quota (403) and keep nothing of the refused upload', async () => {
      const dave = await createUser(api, 'dave');
      const token = (await dave.api.post<{ sha1: string }>(`/users/${dave.username}/tokens`, { name: uniqueName('t'), scopes: ['write:package'] })).body.sha1;
      const part = (i: number) => registry(dave.username, `generic/quota/1.0.0/part${i}.bin`);
      const chunk = Math.floor(0.9 * 1024 * 1024);
      expect((await rawRequest(layout, 'PUT', part(1), auth(token), randomBytes(chunk))).status).toBe(201);
      expect((await rawRequest(layout, 'PUT', part(2), auth(token), randomBytes(chunk))).status).toBe(201);
      const before = blobFiles().length;
      const over = await rawRequest(layout, 'PUT', part(3), auth(token), randomBytes(chunk));
      expect(over.status).toBe(403);
      expect(over.body.toString()).toContain('quota');
      expect(blobFiles()).toHaveLength(before);
      expect((await rawRequest(layout, 'GET', part(3))).status).toBe(404);
      // Site admins are not held to owners' quotas (Gitea's CheckSizeQuotaExceeded skips them).
      const basicAdmin = { authorization: `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}` };
      expect((await rawRequest(layout, 'PUT', part(4), basicAdmin, randomBytes(chunk))).status).toBe(201);
    });

    it('should delete one file, then the version with its last file, and drop bytes no file holds', async () => {
      const unique = randomBytes(1000);
      expect((await rawRequest(layout, 'PUT', registry(alice.username, `generic/${name}/2.0.0/only.bin`), auth(aliceToken), unique)).status).toBe(201);
      const before = blobFiles().length;
      expect((await rawRequest(layout, 'DELETE', registry(alice.username, `generic/${name}/2.0.0/only.bin`), auth(bobToken))).status).toBe(401);
      expect((await rawRequest(layout, 'DELETE', registry(alice.username, `generic/${name}/2.0.0/only.bin`), auth(aliceToken))).status).toBe(204);
      expect(blobFiles()).toHaveLength(before - 1);
      expect((await alice.api.as({ token: aliceToken }).get(`/packages/${alice.username}/generic/${name}/2.0.0`)).status).toBe(404);

      // 1.2.0 has two files with the same bytes: the blob stays until the version goes.
      expect((await rawRequest(layout, 'DELETE', registry(alice.username, `generic/${name}/1.2.0/copy.bin`), auth(aliceToken))).status).toBe(204);
      expect(blobFiles()).toHaveLength(before - 1);
      expect((await rawRequest(layout, 'PUT', registry(alice.username, `generic/${name}/1.3.0/x.bin`), auth(aliceToken), Buffer.from('x'))).status).toBe(201);
      expect((await rawRequest(layout, 'DELETE', registry(alice.username, `generic/${name}/1.3.0`), auth(aliceToken))).status).toBe(204);
      expect((await rawRequest(layout, 'GET', registry(alice.username, `generic/${name}/1.3.0/x.bin`))).status).toBe(404);
      expect((await rawRequest(layout, 'DELETE', registry(alice.username, `generic/${name}/1.3.0`), auth(aliceToken))).status).toBe(404);
    });

    it('should sweep what a crash mid-upload leaves (cleanup_packages), keeping every stored file, and let only admins run it', async () => {
      const kept = randomBytes(2000);
      expect((await rawRequest(layout, 'PUT', registry(alice.username, `generic/${name}/3.0.0/kept.bin`), auth(aliceToken), kept)).status).toBe(201);
      // Everything here is two days old, past the task's day of grace; what rows name must stay.
      const twoDaysAgo = new Date(Date.now() - 48 * 60 * 60 * 1000);
      const age = (path: string): void => utimesSync(path, twoDaysAgo, twoDaysAgo);
      const stored = blobFiles();
      for (const f of stored) age(join(layout.dataDir, 'packages', f));
      // A process killed after staging bytes, before their row; one killed mid-put; a put under way.
      mkdirSync(join(layout.dataDir, 'packages', 'zz'), { recursive: true });
      writeFileSync(join(layout.dataDir, 'packages', 'zz', 'zz-stranded'), 'staged, never named');
      age(join(layout.dataDir, 'packages', 'zz', 'zz-stranded'));
      mkdirSync(join(layout.dataDir, '.blob-tmp'), { recursive: true });
      writeFileSync(join(layout.dataDir, '.blob-tmp', 'dead.tmp'), 'cut off');
      age(join(layout.dataDir, '.blob-tmp', 'dead.tmp'));
      writeFileSync(join(layout.dataDir, '.blob-tmp', 'live.tmp'), 'under way');

      expect((await alice.api.post('/admin/cron/cleanup_packages')).status).toBe(403);
      expect(blobFiles()).toContain(join('zz', 'zz-stranded'));
      expect((await api.admin.post('/admin/cron/cleanup_packages')).status).toBe(204);

      await expectEventually(() => expect(blobFiles().sort()).toEqual([...stored].sort()));
      expect(tmpBlobs()).toEqual(['live.tmp']);
      rmSync(join(layout.dataDir, '.blob-tmp', 'live.tmp'));
      const back = await rawRequest(layout, 'GET', registry(alice.username, `generic/${name}/3.0.0/kept.bin`));
      expect(back.status).toBe(200);
      expect(sha256(back.body)).toBe(sha256(kept));
    });
  });

  describe('npm registry with the npm CLI', () => {
    const scope = 'gfe2e';
    let pkgName: string;
    let home: string;
    let npmEnv: NodeJS.ProcessEnv;

    beforeAll(() => {
      pkgName = `@${scope}/${uniqueName('hello').toLowerCase()}`;
      home = join(scratch, 'home');
      mkdirSync(home, { recursive: true });
      const prefix = `//localhost:${layout.port}/api/packages/${alice.username}/npm/`;
      // As Gitea's documentation sets it up: the registry of the scope, the default registry too
      // (npm unpublish finds a tarball's path relative to the default one), and the token.
      writeFileSync(join(home, '.npmrc'), `registry=http:${prefix}\n@${scope}:registry=http:${prefix}\n${prefix}:_authToken=${aliceToken}\n`);
      npmEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_') && k !== 'NODE_OPTIONS'));
      Object.assign(npmEnv, {
        HOME: home,
        npm_config_userconfig: join(home, '.npmrc'),
        npm_config_cache: join(home, 'cache'),
        npm_config_update_notifier: 'false',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
      });
    });

    async function npm(cwd: string, args: string[]): Promise<string> {
      try {
        const { stdout } = await run('npm', args, { cwd, env: npmEnv, maxBuffer: 16 * 1024 * 1024 });
        return stdout;
      } catch (err) {
        const e = err as { stdout?: string; stderr?: string; message: string };
        throw new Error(`npm ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
      }
    }

    /** The delivery of the `package` hook for this package's `version` with `action`, once it arrives. */
    async function expectPackageHook(action: string, version: string): Promise<{ action: string; package: Package; sender: { login: string } }> {
      type Hook = { action: string; package: Package; sender: { login: string } };
      const find = (): Hook | undefined =>
        receiver.received
          .filter((d) => d.path === '/package')
          .map((d) => JSON.parse(d.body) as Hook)
          .find((h) => h.action === action && h.package.name === pkgName && h.package.version === version);
      await expectEventually(() => expect(find()).toBeDefined());
      return find()!;
    }

    function writePackage(version: string): string {
      const dir = join(scratch, `pkg-${version}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: pkgName, version, description: 'a package published to gitforge', main: 'index.js', license: 'MIT' }));
      writeFileSync(join(dir, 'index.js'), `module.exports = { greeting: 'hello from gitforge', version: '${version}' };\n`);
      return dir;
    }

    it('should publish a scoped package with the token from .npmrc, show it in npm view and install it', async () => {
      await npm(writePackage('1.0.0'), ['publish']);
      await npm(writePackage('1.1.0'), ['publish']);
      const view = JSON.parse(await npm(home, ['view', pkgName, '--json'])) as { name: string; versions: string[]; 'dist-tags': Record<string, string>; description: string };
      expect(view.name).toBe(pkgName);
      expect(view.versions).toEqual(['1.0.0', '1.1.0']);
      expect(view['dist-tags']).toEqual({ latest: '1.1.0' });
      expect(view.description).toBe('a package published to gitforge');

      const app = join(scratch, 'app');
      mkdirSync(app, { recursive: true });
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '0.0.0', private: true }));
      await npm(app, ['install', `${pkgName}@1.0.0`]);
      const { stdout } = await run('node', ['-e', `const m = require(${JSON.stringify(pkgName)}); process.stdout.write(m.greeting + ' ' + m.version)`], { cwd: app });
      expect(stdout).toBe('hello from gitforge 1.0.0');

      const payload = await expectPackageHook('created', '1.0.0');
      expect(payload.action).toBe('created');
      expect(payload.package).toMatchObject({ type: 'npm', name: pkgName, version: '1.0.0', owner: { login: alice.username } });
      expect(payload.sender.login).toBe(alice.username);
    });

    it('should move dist-tags with npm dist-tag add and unpublish one version with npm unpublish', async () => {
      await npm(home, ['dist-tag', 'add', `${pkgName}@1.0.0`, 'stable']);
      expect(await npm(home, ['dist-tag', 'ls', pkgName])).toMatch(/latest: 1\.1\.0\s+stable: 1\.0\.0/);
      await npm(home, ['dist-tag', 'add', `${pkgName}@1.1.0`, 'next']);
      await npm(home, ['dist-tag', 'rm', pkgName, 'next']);
      expect(await npm(home, ['dist-tag', 'ls', pkgName])).not.toContain('next');
      // As Gitea: a tag that reads as a version is refused, a range is a tag like any other, and a package that is not there has no tags.
      const tagPath = (name: string, tag = '') => registry(alice.username, `npm/-/package/${name.replace('/', '%2f')}/dist-tags${tag ? `/${tag}` : ''}`);
      const setTag = (tag: string) => rawRequest(layout, 'PUT', tagPath(pkgName, tag), { ...auth(aliceToken), 'content-type': 'application/json' }, Buffer.from('"1.0.0"'));
      expect((await setTag('v1.2')).status).toBe(400);
      const oversized = await rawRequest(layout, 'PUT', tagPath(pkgName, 'big'), { ...auth(aliceToken), 'content-type': 'application/json' }, Buffer.alloc(5000, 0x61));
      expect(oversized.status).toBe(413);
      expect((await setTag('1.x')).status).toBe(200);
      expect(JSON.parse((await rawRequest(layout, 'GET', tagPath(pkgName), auth(aliceToken))).body.toString())).toMatchObject({ '1.x': '1.0.0' });
      expect((await rawRequest(layout, 'DELETE', tagPath(pkgName, '1.x'), auth(aliceToken))).status).toBe(200);
      const ghost = `@${scope}/no-such-package`;
      const none = await rawRequest(layout, 'GET', tagPath(ghost), auth(aliceToken));
      expect({ status: none.status, body: JSON.parse(none.body.toString()) }).toEqual({ status: 200, body: {} });
      expect((await rawRequest(layout, 'DELETE', tagPath(ghost, 'beta'), auth(aliceToken))).status).toBe(200);
      expect((await rawRequest(layout, 'DELETE', tagPath(ghost, 'beta'))).status).toBe(401);
      // As in Gitea, a search hit names the package without its scope, which it gives apart (with its `@`).
      const found = JSON.parse(await npm(home, ['search', '--json', '--prefer-online', pkgName.split('/')[1]!])) as Array<{ name: string; version: string; scope: string }>;
      expect(found.map((p) => [p.scope, p.name, p.version])).toEqual([[`@${scope}`, pkgName.split('/')[1]!, '1.1.0']]);
      await npm(home, ['unpublish', `${pkgName}@1.1.0`]);
      const out = await npm(home, ['view', pkgName, '--json', '--prefer-online']);
      const view = JSON.parse(out || 'null') as { versions: string[]; 'dist-tags': Record<string, string> } | null;
      expect({ out, versions: view?.versions, tags: view?.['dist-tags'] }).toEqual({ out, versions: ['1.0.0'], tags: { latest: '1.0.0', stable: '1.0.0' } });
      const list = await alice.api.as({ token: aliceToken }).get<Package[]>(`/packages/${alice.username}?type=npm`);
      expect(list.body.map((p) => p.version)).toEqual(['1.0.0']);
      expect((await expectPackageHook('deleted', '1.1.0')).package.name).toBe(pkgName);
    });

    it('should answer npm’s error form to a version that is not semver and to a tarball whose integrity does not match', async () => {
      const tarball = Buffer.from('not really a tarball');
      const doc = (version: string, integrity: string) => ({
        name: pkgName,
        versions: { [version]: { name: pkgName, version, dist: { integrity, shasum: '' } } },
        'dist-tags': { latest: version },
        _attachments: { [`x-${version}.tgz`]: { content_type: 'application/octet-stream', data: tarball.toString('base64'), length: tarball.length } },
      });
      const good = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
      const path = registry(alice.username, `npm/${encodeURIComponent(pkgName)}`);
      const put = (body: object) => rawRequest(layout, 'PUT', path, { ...auth(aliceToken), 'content-type': 'application/json' }, Buffer.from(JSON.stringify(body)));
      const before = blobFiles().length;

      const notSemver = await put(doc('1.0', good));
      expect(notSemver.status).toBe(400);
      expect(JSON.parse(notSemver.body.toString())).toEqual({ error: 'package version is invalid' });
      const mismatch = await put(doc('3.0.0', `sha512-${createHash('sha512').update('other').digest('base64')}`));
      expect(mismatch.status).toBe(400);
      expect(JSON.parse(mismatch.body.toString())).toEqual({ error: 'failed to validate integrity' });
      // Gitea's npm registry answers a version published again with 409 (ErrDuplicatePackageVersion).
      const duplicate = await put(doc('1.0.0', good));
      expect(duplicate.status).toBe(409);
      expect(JSON.parse(duplicate.body.toString())).toEqual({ error: 'package version already exists' });
      expect(blobFiles()).toHaveLength(before);
      const anonymous = await rawRequest(layout, 'PUT', path, { 'content-type': 'application/json' }, Buffer.from(JSON.stringify(doc('4.0.0', good))));
      expect(anonymous.status).toBe(401);

      const search = async (query: string) => JSON.parse((await rawRequest(layout, 'GET', registry(alice.username, `npm/-/v1/search?${query}`))).body.toString()) as { total: number; objects: Array<{ package: Record<string, unknown> }> };
      const text = `text=${encodeURIComponent(pkgName.split('/')[1]!)}`;
      // Gitea's shape: the newest version, the scope apart, the owner as publisher and the owner's registry as `links.npm`.
      expect(await search(text)).toEqual({
        total: 1,
        objects: [
          {
            package: {
              scope: `@${scope}`,
              name: pkgName.split('/')[1],
              version: '1.0.0',
              date: expect.any(String),
              description: 'a package published to gitforge',
              author: { name: '' },
              publisher: { name: alice.username },
              maintainers: [],
              links: { npm: `${layout.rootUrl}api/packages/${alice.username}/npm` },
            },
          },
        ],
      });
      // Gitea's paging: `from` skips hits (the total stays), `size` 0 is the default page, and a name nothing contains finds nothing.
      expect(await search(`${text}&from=1&size=10`)).toEqual({ total: 1, objects: [] });
      expect((await search(`${text}&from=0&size=0`)).objects).toHaveLength(1);
      expect(await search('text=no-such-package-anywhere')).toEqual({ total: 0, objects: [] });
    });

    it("should link a package whose repository.url is one of this forge's repositories, and refuse one the publisher may not write (403)", async () => {
      const tarball = Buffer.from('linked tarball');
      const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
      const publish = (name: string, url: string) =>
        rawRequest(
          layout,
          'PUT',
          registry(alice.username, `npm/${encodeURIComponent(name)}`),
          { ...auth(aliceToken), 'content-type': 'application/json' },
          Buffer.from(
            JSON.stringify({
              name,
              versions: { '1.0.0': { name, version: '1.0.0', repository: { type: 'git', url }, dist: { integrity, shasum: '' } } },
              'dist-tags': { latest: '1.0.0' },
              _attachments: { [`${name}-1.0.0.tgz`]: { content_type: 'application/octet-stream', data: tarball.toString('base64'), length: tarball.length } },
            }),
          ),
        );
      const own = await createRepo(alice.api);
      const linked = uniqueName('linked').toLowerCase();
      expect((await publish(linked, `${layout.rootUrl}${own.full_name}.git`)).status).toBe(201);
      const got = await alice.api.as({ token: aliceToken }).get<Package>(`/packages/${alice.username}/npm/${linked}/1.0.0`);
      expect(got.body.repository).toMatchObject({ id: own.id, full_name: own.full_name });
      // Another host's URL links nothing.
      const elsewhere = uniqueName('elsewhere').toLowerCase();
      expect((await publish(elsewhere, `https://github.com/${own.full_name}.git`)).status).toBe(201);
      expect((await alice.api.as({ token: aliceToken }).get<Package>(`/packages/${alice.username}/npm/${elsewhere}/1.0.0`)).body.repository).toBeNull();
      // bob's public repository: alice reads it but may not write its packages.
      const theirs = await createRepo(bob.api);
      const refused = await publish(uniqueName('theirs').toLowerCase(), `${layout.rootUrl}${theirs.full_name}`);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body.toString())).toEqual({ error: 'no permission to upload this package' });
    });
  });

  describe('package API', () => {
    let tokenApi: Api;

    beforeAll(async () => {
      tokenApi = alice.api.as({ token: aliceToken });
      for (const v of ['0.1.0', '0.2.0']) {
        expect((await rawRequest(layout, 'PUT', registry(alice.username, `generic/apitool/${v}/a.txt`), auth(aliceToken), Buffer.from(`v${v}`))).status).toBe(201);
      }
    });

    it('should list an owner’s packages with type and q filters, newest first, with pagination headers', async () => {
      const all = await tokenApi.get<Package[]>(`/packages/${alice.username}?type=generic&q=apitool`);
      expect(all.status).toBe(200);
      expect(all.headers.get('x-total-count')).toBe('2');
      expect(all.body.map((p) => p.version)).toEqual(['0.2.0', '0.1.0']);
      expect(all.body[0]).toEqual({
        id: expect.any(Number),
        owner: expect.objectContaining({ login: alice.username, email: alice.email, active: true }),
        repository: null,
        // Shown as the caller (alice herself) sees them: Gitea's ToPackage passes the doer.
        creator: expect.objectContaining({ login: alice.username, email: alice.email, active: true }),
        type: 'generic',
        name: 'apitool',
        version: '0.2.0',
        html_url: `${layout.rootUrl}${alice.username}/-/packages/generic/apitool/0.2.0`,
        created_at: expect.any(String),
      });
      const paged = await tokenApi.get<Package[]>(`/packages/${alice.username}?type=generic&q=apitool&limit=1&page=2`);
      expect(paged.body.map((p) => p.version)).toEqual(['0.1.0']);
      expect((await tokenApi.get<Package[]>(`/packages/${alice.username}?type=npm&q=apitool`)).body).toEqual([]);
    });

    it('should answer the newest version at -/latest, one version, and 404 for unknown ones', async () => {
      const latest = await tokenApi.get<Package>(`/packages/${alice.username}/generic/apitool/-/latest`);
      expect(latest.status).toBe(200);
      expect(latest.body.version).toBe('0.2.0');
      expect((await tokenApi.get<Package>(`/packages/${alice.username}/generic/apitool/0.1.0`)).body.version).toBe('0.1.0');
      expect((await tokenApi.get(`/packages/${alice.username}/generic/nothing/-/latest`)).status).toBe(404);
      expect((await tokenApi.get(`/packages/${alice.username}/generic/apitool/9.0.0`)).status).toBe(404);
    });

    it('should want a token (401), the package scope (403), and write access to delete (403)', async () => {
      const anonymous = await api.anonymous.get(`/packages/${alice.username}`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual(giteaError('token is required'));
      const repoOnly = (await alice.api.post<{ sha1: string }>(`/users/${alice.username}/tokens`, { name: uniqueName('t'), scopes: ['read:repository'] })).body.sha1;
      expect((await api.as({ token: repoOnly }).get(`/packages/${alice.username}`)).status).toBe(403);
      const bobApi = api.as({ token: bobToken });
      expect((await bobApi.get<Package[]>(`/packages/${alice.username}?q=apitool`)).body).toHaveLength(2);
      const denied = await bobApi.delete(`/packages/${alice.username}/generic/apitool/0.1.0`);
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(giteaError('user should have specific permission or be a site admin'));
    });

    it('should link a package to a repository of the owner and unlink it', async () => {
      const repo = (await tokenApi.post<Repository>('/user/repos', { name: uniqueName('pkgrepo') })).body;
      expect((await tokenApi.post(`/packages/${alice.username}/generic/apitool/-/link/no-such-repo`)).status).toBe(404);
      expect((await api.as({ token: bobToken }).post(`/packages/${alice.username}/generic/apitool/-/link/${repo.name}`)).status).toBe(403);
      expect((await tokenApi.post(`/packages/${alice.username}/generic/apitool/-/link/${repo.name}`)).status).toBe(201);
      expect((await tokenApi.get<Package>(`/packages/${alice.username}/generic/apitool/0.2.0`)).body.repository).toMatchObject({ id: repo.id, full_name: repo.full_name });
      // Gitea's LinkToRepository: a linked package is linked already, to the same repository too.
      const again = await tokenApi.post(`/packages/${alice.username}/generic/apitool/-/link/${repo.name}`);
      expect(again.status).toBe(400);
      expect(again.body).toEqual(giteaError('invalid argument'));
      expect((await api.as({ token: bobToken }).post(`/packages/${alice.username}/generic/apitool/-/unlink`)).status).toBe(403);
      expect((await tokenApi.post(`/packages/${alice.username}/generic/apitool/-/unlink`)).status).toBe(204);
      expect((await tokenApi.get<Package>(`/packages/${alice.username}/generic/apitool/0.2.0`)).body.repository).toBeNull();
      expect((await tokenApi.post(`/packages/${alice.username}/generic/apitool/-/unlink`)).status).toBe(400);
    });

    it('should list one package’s versions, list every type with type=all, and delete a whole package', async () => {
      const versions = await tokenApi.get<Package[]>(`/packages/${alice.username}/generic/apitool`);
      expect(versions.status).toBe(200);
      expect(versions.headers.get('x-total-count')).toBe('2');
      expect(versions.body.map((p) => p.version)).toEqual(['0.2.0', '0.1.0']);
      const second = await tokenApi.get<Package[]>(`/packages/${alice.username}/generic/apitool?limit=1&page=2`);
      expect(second.body.map((p) => p.version)).toEqual(['0.1.0']);
      expect((await tokenApi.get(`/packages/${alice.username}/generic/nothing`)).status).toBe(404);
      expect((await tokenApi.get<Package[]>(`/packages/${alice.username}?type=all&q=apitool`)).body).toHaveLength(2);

      for (const v of ['1.0.0', '2.0.0']) {
        expect((await rawRequest(layout, 'PUT', registry(alice.username, `generic/doomed/${v}/a.txt`), auth(aliceToken), Buffer.from(v))).status).toBe(201);
      }
      // An upper-case name shows lowercased in html_url, as Gitea's VersionHTMLURL writes it.
      expect((await rawRequest(layout, 'PUT', registry(alice.username, 'generic/Doomed.Up/1.0.0/a.txt'), auth(aliceToken), Buffer.from('x'))).status).toBe(201);
      const upper = await tokenApi.get<Package>(`/packages/${alice.username}/generic/Doomed.Up/1.0.0`);
      expect(upper.body.html_url).toBe(`${layout.rootUrl}${alice.username}/-/packages/generic/doomed.up/1.0.0`);

      expect((await api.as({ token: bobToken }).delete(`/packages/${alice.username}/generic/doomed`)).status).toBe(403);
      expect((await api.anonymous.delete(`/packages/${alice.username}/generic/doomed`)).status).toBe(401);
      expect((await tokenApi.delete(`/packages/${alice.username}/generic/doomed`)).status).toBe(204);
      expect((await tokenApi.get(`/packages/${alice.username}/generic/doomed`)).status).toBe(404);
      expect((await tokenApi.get(`/packages/${alice.username}/generic/doomed/1.0.0`)).status).toBe(404);
      expect((await rawRequest(layout, 'GET', registry(alice.username, 'generic/doomed/2.0.0/a.txt'), auth(aliceToken))).status).toBe(404);
      expect((await tokenApi.delete(`/packages/${alice.username}/generic/doomed`)).status).toBe(404);
    });

    it('should deliver package events to the hooks of a linked private repository, as Gitea does', async () => {
      const repo = (await tokenApi.post<Repository>('/user/repos', { name: uniqueName('privpkg'), private: true })).body;
      const path = `/repo-package-${repo.name}`;
      expect((await tokenApi.post(`/repos/${repo.full_name}/hooks`, { type: 'gitea', active: true, events: ['package'], config: { url: receiver.url(path), content_type: 'json' } })).status).toBe(201);
      expect((await rawRequest(layout, 'PUT', registry(alice.username, 'generic/privlinked/1.0.0/a.txt'), auth(aliceToken), Buffer.from('one'))).status).toBe(201);
      expect((await tokenApi.post(`/packages/${alice.username}/generic/privlinked/-/link/${repo.name}`)).status).toBe(201);
      expect((await rawRequest(layout, 'PUT', registry(alice.username, 'generic/privlinked/2.0.0/a.txt'), auth(aliceToken), Buffer.from('two'))).status).toBe(201);
      const [delivery] = await receiver.waitFor(path);
      expect(JSON.parse(delivery!.body)).toMatchObject({ action: 'created', package: { name: 'privlinked', version: '2.0.0' } });
    });

    it('should delete a version through the API', async () => {
      expect((await tokenApi.delete(`/packages/${alice.username}/generic/apitool/0.1.0`)).status).toBe(204);
      expect((await tokenApi.get(`/packages/${alice.username}/generic/apitool/0.1.0`)).status).toBe(404);
      expect((await tokenApi.get<Package>(`/packages/${alice.username}/generic/apitool/-/latest`)).body.version).toBe('0.2.0');
    });

    it('should refuse a private organization’s packages to outsiders as Gitea does (API 403 once the package is found, registry 401) and show them to members', async () => {
      const org: Organization = await createOrg(alice.api, { visibility: 'private' });
      expect((await rawRequest(layout, 'PUT', registry(org.username, 'generic/secret/1.0.0/s.txt'), auth(aliceToken), Buffer.from('secret'))).status).toBe(201);
      expect((await tokenApi.get<Package[]>(`/packages/${org.username}`)).body.map((p) => p.name)).toEqual(['secret']);
      const bob = api.as({ token: bobToken });
      const listed = await bob.get(`/packages/${org.username}`);
      expect(listed.status).toBe(403);
      expect(listed.body).toEqual(giteaError('user should have specific permission or be a site admin'));
      expect((await bob.get(`/packages/${org.username}/generic/secret/-/latest`)).status).toBe(403);
      expect((await bob.get(`/packages/${org.username}/generic/secret/1.0.0/files`)).status).toBe(403);
      expect((await bob.delete(`/packages/${org.username}/generic/secret/1.0.0`)).status).toBe(403);
      // Gitea finds the package before it judges access.
      expect((await bob.get(`/packages/${org.username}/generic/nothing/-/latest`)).status).toBe(404);
      expect((await bob.get(`/packages/${org.username}/generic/secret/9.9.9`)).status).toBe(404);
      for (const credentials of [auth(bobToken), {}]) {
        const refused = await rawRequest(layout, 'GET', registry(org.username, 'generic/secret/1.0.0/s.txt'), credentials);
        expect(refused.status).toBe(401);
        expect(refused.headers['www-authenticate']).toBe('Basic realm="Gitea Package API"');
      }
      const got = await rawRequest(layout, 'GET', registry(org.username, 'generic/secret/1.0.0/s.txt'), auth(aliceToken));
      expect(got.body.toString()).toBe('secret');
    });

    it('should stop a public-only token at a private owner’s packages (403), in the API and in the registry', async () => {
      const org: Organization = await createOrg(alice.api, { visibility: 'private' });
      expect((await rawRequest(layout, 'PUT', registry(org.username, 'generic/hidden/1.0.0/h.txt'), auth(aliceToken), Buffer.from('hidden'))).status).toBe(201);
      const publicOnly = (await alice.api.post<{ sha1: string }>(`/users/${alice.username}/tokens`, { name: uniqueName('t'), scopes: ['write:package', 'public-only'] })).body.sha1;
      const listed = await api.as({ token: publicOnly }).get(`/packages/${org.username}`);
      expect(listed.status).toBe(403);
      expect(listed.body).toEqual(giteaError('token scope is limited to public packages'));
      expect((await api.as({ token: publicOnly }).get(`/packages/${org.username}/generic/hidden/-/latest`)).status).toBe(403);
      expect((await rawRequest(layout, 'GET', registry(org.username, 'generic/hidden/1.0.0/h.txt'), auth(publicOnly))).status).toBe(403);
      expect((await rawRequest(layout, 'PUT', registry(org.username, 'generic/hidden/1.0.0/other.txt'), auth(publicOnly), Buffer.from('x'))).status).toBe(403);
      // Public owners stay within its reach.
      expect((await api.as({ token: publicOnly }).get(`/packages/${alice.username}`)).status).toBe(200);
    });
  });
});
