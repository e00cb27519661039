import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Repository } from '@gitforge/contracts';
import { createOrg } from './support/accounts.js';
import { Api, createUser, giteaError, uniqueName, type ApiResponse, type TestUser } from './support/api.js';
import { GitCli, gitUrl } from './support/git.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { createRepo } from './support/repos.js';

/**
 * Gitea's `/admin/unadopted` through the gateway: bare repositories an operator drops into the
 * repositories volume in Gitea's layout (`<owner>/<name>.git`) are listed, adopted as private
 * repositories that the API and git over HTTP then serve, or deleted; site administrators only.
 */
describe.each(layoutsUnderTest())('admin unadopted repositories (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let git: GitCli;
  let alice: TestUser;
  let root: string;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    git = GitCli.create();
    alice = await createUser(api, 'alice');
    root = join(layout.dataDir, 'repositories');
  });

  afterAll(async () => {
    git?.cleanup();
    await layout?.stop();
  });

  const dropPath = (owner: string, name: string): string => join(root, owner, `${name}.git`);

  /** Drops a bare repository with two commits on `master` and a tag on the first; answers the commit ids, oldest first. */
  async function drop(owner: string, name: string): Promise<string[]> {
    const work = git.dir('src');
    await git.run(['init', '--quiet', '--initial-branch=master', work]);
    const first = await git.commit(work, { 'README.md': '# dropped\n' }, 'first');
    const second = await git.commit(work, { 'a.txt': 'a\n' }, 'second');
    await git.run(['tag', 'v1.0', first], { cwd: work });
    await git.run(['clone', '--quiet', '--bare', work, dropPath(owner, name)]);
    return [first, second];
  }

  const list = (query: string): Promise<ApiResponse<string[]>> => api.admin.get<string[]>(`/admin/unadopted${query}`);

  /** A 4xx with a JSON body carries Gitea's {message, url}; nothing answers 5xx. */
  const expectRefusal = (res: ApiResponse, status: number): void => {
    expect(res.status).toBe(status);
    if (typeof res.body === 'object' && res.body !== null) expect(res.body).toEqual(expect.objectContaining(giteaError()));
  };

  it('should list the dropped repositories of existing owners, filtered by `query` or `pattern`, paged with X-Total-Count', async () => {
    const org = (await createOrg(api.admin)).name.toLowerCase();
    await drop(alice.username, 'proj');
    await drop(alice.username, 'other');
    await drop(org, 'lib');
    // None of these is listed: an upper-case or unusable name, a directory without `.git`, an unknown owner.
    await drop(alice.username, 'Upper');
    await drop(alice.username, 'x.wiki');
    mkdirSync(join(root, alice.username, 'plain'), { recursive: true });
    await drop(uniqueName('nobody'), 'orphan');

    const mine = await list(`?query=${alice.username}/*`);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([`${alice.username}/other`, `${alice.username}/proj`]);
    expect(mine.headers.get('x-total-count')).toBe('2');
    expect(mine.headers.get('link')).toBeNull();
    expect((await list(`?pattern=${alice.username}/p*`)).body).toEqual([`${alice.username}/proj`]);
    expect((await list(`?query=${org}`)).body).toEqual([`${org}/lib`]);

    const paged = await list(`?query=${alice.username}&limit=1&page=2`);
    expect(paged.body).toEqual([`${alice.username}/proj`]);
    expect(paged.headers.get('x-total-count')).toBe('2');

    const all = await list('?limit=50');
    expect(all.status).toBe(200);
    expect(all.body).toEqual(expect.arrayContaining([`${alice.username}/other`, `${alice.username}/proj`, `${org}/lib`]));
    expect(all.body.some((n) => n.includes('orphan') || n.endsWith('/Upper') || n.includes('wiki') || n.endsWith('/plain'))).toBe(false);
    // An invalid glob is skipped, as Gitea skips it.
    expect((await list('?limit=50&query=%5Bbroken')).headers.get('x-total-count')).toBe(all.headers.get('x-total-count'));
  });

  it('should adopt a dropped repository as a private repository that the API and git over HTTP serve', async () => {
    const name = 'adopt-me';
    const [first, second] = await drop(alice.username, name);
    const res = await api.admin.post(`/admin/unadopted/${alice.username}/${name}`);
    expect(res.status).toBe(204);
    expect(existsSync(dropPath(alice.username, name))).toBe(false);

    const repo = await alice.api.get<Repository>(`/repos/${alice.username}/${name}`);
    expect(repo.status).toBe(200);
    expect(repo.body).toMatchObject({ name, full_name: `${alice.username}/${name}`, private: true, default_branch: 'master', empty: false, object_format_name: 'sha1' });
    expect(repo.body.size).toBeGreaterThan(0);
    expect((await api.anonymous.get(`/repos/${alice.username}/${name}`)).status).toBe(404);

    const work = git.dir('clone');
    await git.run(['clone', '--quiet', gitUrl(layout, alice.username, name, [alice.username, alice.password]), work]);
    expect((await git.run(['rev-list', 'HEAD'], { cwd: work })).stdout.trim().split('\n')).toEqual([second, first]);
    expect((await git.run(['rev-parse', 'v1.0^{commit}'], { cwd: work })).stdout.trim()).toBe(first);
    expect(readFileSync(join(work, 'README.md'), 'utf8')).toBe('# dropped\n');

    expect((await list(`?query=${alice.username}/${name}`)).body).toEqual([]);
    expect((await api.admin.post(`/admin/unadopted/${alice.username}/${name}`)).status).toBe(404);
    expect((await api.admin.delete(`/admin/unadopted/${alice.username}/${name}`)).status).toBe(404);
  });

  it('should delete a dropped directory from disk and from the list', async () => {
    await drop(alice.username, 'drop-me');
    expect((await list(`?query=${alice.username}/drop-me`)).body).toEqual([`${alice.username}/drop-me`]);
    expect((await api.admin.delete(`/admin/unadopted/${alice.username}/drop-me`)).status).toBe(204);
    expect(existsSync(dropPath(alice.username, 'drop-me'))).toBe(false);
    expect((await list(`?query=${alice.username}/drop-me`)).body).toEqual([]);
    expect((await api.admin.delete(`/admin/unadopted/${alice.username}/drop-me`)).status).toBe(404);
  });

  it('should answer 404 for an unknown owner, a name that has a repository, and nothing dropped; keeping the directory', async () => {
    const ghost = uniqueName('nobody');
    await drop(ghost, 'orphan');
    expect((await api.admin.post(`/admin/unadopted/${ghost}/orphan`)).status).toBe(404);
    expect((await api.admin.delete(`/admin/unadopted/${ghost}/orphan`)).status).toBe(404);
    expect(existsSync(dropPath(ghost, 'orphan'))).toBe(true);

    const existing = await createRepo(alice.api, { name: uniqueName('taken') });
    await drop(alice.username, existing.name);
    expect((await list(`?query=${alice.username}/${existing.name}`)).body).toEqual([]);
    expect((await api.admin.post(`/admin/unadopted/${alice.username}/${existing.name}`)).status).toBe(404);
    expect((await api.admin.delete(`/admin/unadopted/${alice.username}/${existing.name}`)).status).toBe(404);
    expect(existsSync(join(dropPath(alice.username, existing.name), 'HEAD'))).toBe(true);

    expect((await api.admin.post(`/admin/unadopted/${alice.username}/never-dropped`)).status).toBe(404);
  });

  it('should refuse what is no git repository (422) and leave it where it lies', async () => {
    const junk = dropPath(alice.username, 'junk');
    mkdirSync(junk, { recursive: true });
    writeFileSync(join(junk, 'notes.txt'), 'not a repository\n');
    expectRefusal(await api.admin.post(`/admin/unadopted/${alice.username}/junk`), 422);
    expect(readFileSync(join(junk, 'notes.txt'), 'utf8')).toBe('not a repository\n');
    expect((await list(`?query=${alice.username}/junk`)).body).toEqual([`${alice.username}/junk`]);
  });

  it('should refuse non-admins (403), anonymous callers (401), and names no repository could have (404)', async () => {
    await drop(alice.username, 'guarded');
    expect(await alice.api.get('/admin/unadopted')).toMatchObject({ status: 403, body: giteaError() });
    expect(await alice.api.post(`/admin/unadopted/${alice.username}/guarded`)).toMatchObject({ status: 403, body: giteaError() });
    expect(await alice.api.delete(`/admin/unadopted/${alice.username}/guarded`)).toMatchObject({ status: 403, body: giteaError() });
    expect((await api.anonymous.get('/admin/unadopted')).status).toBe(401);
    expect((await api.anonymous.post(`/admin/unadopted/${alice.username}/guarded`)).status).toBe(401);
    expect((await api.anonymous.delete(`/admin/unadopted/${alice.username}/guarded`)).status).toBe(401);
    expect(existsSync(dropPath(alice.username, 'guarded'))).toBe(true);

    for (const [owner, name] of [
      [alice.username, '..'],
      [alice.username, '%2e%2e'],
      ['..', 'repositories'],
      ['%2e%2e', alice.username],
      [alice.username, '..%2F..%2Fetc'],
      [alice.username, 'x.git'],
      [alice.username, '--upload-pack=x'],
      [alice.username, 'a%01b'],
      [alice.username, 'a%00b'],
      [alice.username, 'x'.repeat(5000)],
      ['x'.repeat(5000), 'x'],
    ] as const) {
      expectRefusal(await api.admin.post(`/admin/unadopted/${owner}/${name}`), 404);
      expectRefusal(await api.admin.delete(`/admin/unadopted/${owner}/${name}`), 404);
    }
    expect(existsSync(dropPath(alice.username, 'guarded'))).toBe(true);
    for (const query of ['?query=%01%1b', `?query=${'x'.repeat(10_000)}`, '?page=-1&limit=1e20', '?page=99999999999999999999', '?query=a%00b']) {
      expect((await list(query)).status).toBe(200);
    }
  });
});
