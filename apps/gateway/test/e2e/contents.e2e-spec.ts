import type {
  ChangeFilesOptions,
  ContentsExtResponse,
  ContentsResponse,
  CreateFileOptions,
  CreateRepoOption,
  DeleteFileOptions,
  FileDeleteResponse,
  FileResponse,
  GetFilesOptions,
  FilesResponse,
  GitBlobResponse,
  GitTreeResponse,
  Repository,
  UpdateFileOptions,
} from '@gitforge/contracts';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { b64, commitOnDisk, gitOnDisk, markMirror, repoEvents } from './support/repo-disk.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

describe.each(layoutsUnderTest())('repository contents and file changes (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;

  const createRepo = async (user: TestUser, body: Partial<CreateRepoOption> = {}): Promise<Repository> => {
    const res = await user.api.post<Repository>('/user/repos', { name: uniqueName('repo'), auto_init: true, ...body } satisfies Partial<CreateRepoOption>);
    if (res.status !== 201) throw new Error(`create repo: ${res.status} ${res.text}`);
    return res.body;
  };
  const put = (user: TestUser, repo: Repository, path: string, content: string, extra: Partial<CreateFileOptions> = {}) =>
    user.api.post<FileResponse>(`/repos/${repo.full_name}/contents/${path}`, { content: b64(content), ...extra } satisfies CreateFileOptions);

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
  });

  afterAll(async () => {
    await layout?.stop();
  });

  describe('GET contents', () => {
    let repo: Repository;
    let head: string;

    beforeAll(async () => {
      repo = await createRepo(alice);
      expect((await put(alice, repo, 'docs/guide/intro.md', '# Intro\n')).status).toBe(201);
      const res = await put(alice, repo, 'docs/api.md', 'api\n');
      head = res.body.commit.sha;
      await gitOnDisk(layout, repo.id, ['tag', 'v1.0', head]);
    });

    it('should list the root with Gitea links and last-commit metadata', async () => {
      const res = await alice.api.get<ContentsResponse[]>(`/repos/${repo.full_name}/contents`);
      expect(res.status).toBe(200);
      expect(res.body.map((e) => [e.name, e.type])).toEqual([
        ['README.md', 'file'],
        ['docs', 'dir'],
      ]);
      const readme = res.body[0]!;
      const api = `${layout.apiUrl}/repos/${repo.full_name}`;
      expect(readme).toMatchObject({
        path: 'README.md',
        content: null,
        encoding: null,
        target: null,
        submodule_git_url: null,
        url: `${api}/contents/README.md?ref=main`,
        html_url: `${layout.rootUrl}${repo.full_name}/src/branch/main/README.md`,
        download_url: `${layout.rootUrl}${repo.full_name}/raw/branch/main/README.md`,
        git_url: `${api}/git/blobs/${readme.sha}`,
        _links: { self: `${api}/contents/README.md?ref=main`, git: `${api}/git/blobs/${readme.sha}`, html: readme.html_url },
        last_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
        last_committer_date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        last_author_date: expect.any(String),
      });
      expect(readme).not.toHaveProperty('last_commit_message');
      expect(res.body[1]).toMatchObject({ size: 0, download_url: null, last_commit_sha: head });
    });

    it('should answer a file as an object with its base64 content, as git stores it', async () => {
      const res = await alice.api.get<ContentsResponse>(`/repos/${repo.full_name}/contents/docs/guide/intro.md`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ type: 'file', name: 'intro.md', path: 'docs/guide/intro.md', encoding: 'base64', size: 8 });
      expect(Buffer.from(res.body.content!, 'base64').toString()).toBe('# Intro\n');
      expect(res.body.sha).toBe((await gitOnDisk(layout, repo.id, ['rev-parse', 'main:docs/guide/intro.md'])).trim());
    });

    it('should answer a directory as an array of entries without content', async () => {
      const res = await alice.api.get<ContentsResponse[]>(`/repos/${repo.full_name}/contents/docs`);
      expect(res.status).toBe(200);
      expect(res.body.map((e) => [e.path, e.type, e.content])).toEqual([
        ['docs/api.md', 'file', null],
        ['docs/guide', 'dir', null],
      ]);
    });

    it('should read at a branch, a tag and a full commit id, and 404 for anything else', async () => {
      const older = (await gitOnDisk(layout, repo.id, ['rev-parse', `${head}~1`])).trim();
      const atTag = await alice.api.get<ContentsResponse>(`/repos/${repo.full_name}/contents/docs/api.md?ref=v1.0`);
      expect(atTag.status).toBe(200);
      expect(atTag.body.html_url).toBe(`${layout.rootUrl}${repo.full_name}/src/tag/v1.0/docs/api.md`);
      const atCommit = await alice.api.get<ContentsResponse[]>(`/repos/${repo.full_name}/contents/docs?ref=${older}`);
      expect(atCommit.status).toBe(200);
      expect(atCommit.body.map((e) => e.name)).toEqual(['guide']);
      expect(atCommit.body[0]!.download_url).toBeNull();
      expect(atCommit.body[0]!.url).toBe(`${layout.apiUrl}/repos/${repo.full_name}/contents/docs/guide?ref=${older}`);
      expect((await alice.api.get(`/repos/${repo.full_name}/contents/docs?ref=${older.slice(0, 10)}`)).status).toBe(404);
      expect((await alice.api.get(`/repos/${repo.full_name}/contents?ref=no-such-branch`)).status).toBe(404);
      expect((await alice.api.get(`/repos/${repo.full_name}/contents/nope.txt`)).status).toBe(404);
    });

    it('should describe symlinks and submodules', async () => {
      const gitmodules = '[submodule "lib"]\n\tpath = lib\n\turl = https://example.com/lib.git\n';
      const target = (await gitOnDisk(layout, repo.id, ['rev-parse', 'main'])).trim();
      await commitOnDisk(layout, repo.id, 'special', [
        { path: '.gitmodules', content: gitmodules },
        { path: 'link', content: 'docs/api.md', mode: '120000' },
        { path: 'lib', mode: '160000', sha: target },
      ], 'special entries');
      const res = await alice.api.get<ContentsResponse[]>(`/repos/${repo.full_name}/contents?ref=special`);
      expect(res.status).toBe(200);
      const link = res.body.find((e) => e.name === 'link')!;
      const lib = res.body.find((e) => e.name === 'lib')!;
      expect(link).toMatchObject({ type: 'symlink', target: 'docs/api.md', content: null });
      expect(link.download_url).toContain('/raw/branch/special/link');
      expect(lib).toMatchObject({ type: 'submodule', submodule_git_url: 'https://example.com/lib.git', html_url: null, git_url: null, download_url: null, sha: target });
      // Renaming the submodule as a file is refused (422), never a 500, and the branch stays.
      const renamed = await alice.api.post(`/repos/${repo.full_name}/contents`, {
        branch: 'special',
        files: [{ operation: 'rename', from_path: 'lib', path: 'lib2' }],
      } as unknown as ChangeFilesOptions);
      expect(renamed.status).toBe(422);
      expect(renamed.body).toEqual(giteaError('a submodule cannot be renamed as a file [path: lib]'));
      expect((await alice.api.get<ContentsResponse>(`/repos/${repo.full_name}/contents/lib?ref=special`)).body.type).toBe('submodule');
    });

    it('should refuse paths that climb out, are absolute or hold NUL', async () => {
      for (const bad of ['docs%2F..%2F..%2Fetc', '%2Fetc%2Fpasswd', 'docs%00x', '.git%2Fconfig']) {
        const res = await alice.api.get(`/repos/${repo.full_name}/contents/${bad}`);
        expect(res.status).toBe(422);
        expect(res.body).toEqual(giteaError(/path contains a malformed path component/));
      }
    });

    it('should refuse a NUL character in the commit message, author or committer (422), never a 500', async () => {
      for (const extra of [{ message: 'one\u0000two' }, { author: { name: 'a\u0000b', email: 'a@example.com' } }, { committer: { name: 'c', email: 'c\u0000@example.com' } }]) {
        const res = await put(alice, repo, 'nul-in-commit.txt', 'x', extra);
        expect(res.status).toBe(422);
        expect(res.body).toEqual(giteaError(/holds a NUL character/));
      }
      expect((await alice.api.get(`/repos/${repo.full_name}/contents/nul-in-commit.txt`)).status).toBe(404);
    });

    it('should refuse an author or committer git refuses (a name of only <>, a date before 1970) with 422, never a 500', async () => {
      const refused = [
        { author: { name: '<>', email: 'a@example.com' } },
        { committer: { name: '...', email: 'c@example.com' } },
        { author: { name: 'Ada', email: 'ada@example.com' }, dates: { author: '1969-12-31T00:00:00Z' } },
      ];
      for (const extra of refused) {
        const res = await put(alice, repo, 'refused-identity.txt', 'x', extra);
        expect(res.status).toBe(422);
        expect(res.body).toEqual(giteaError(/invalid author or committer/));
      }
      expect((await alice.api.get(`/repos/${repo.full_name}/contents/refused-identity.txt`)).status).toBe(404);
    });

    it('should hide a private repository from outsiders and show a public one to anyone', async () => {
      const priv = await createRepo(alice, { private: true });
      expect((await bob.api.get(`/repos/${priv.full_name}/contents`)).status).toBe(404);
      expect((await api.anonymous.get(`/repos/${priv.full_name}/contents/README.md`)).status).toBe(404);
      expect((await api.anonymous.get(`/repos/${priv.full_name}/raw/README.md`)).status).toBe(404);
      expect((await api.anonymous.get(`/repos/${repo.full_name}/contents/README.md`)).status).toBe(200);
    });
  });

  describe('file-contents', () => {
    let repo: Repository;

    beforeAll(async () => {
      repo = await createRepo(alice);
      expect((await put(alice, repo, 'docs/a.md', 'alpha\n')).status).toBe(201);
      expect((await put(alice, repo, 'b.txt', 'bravo\n', { new_branch: 'other' })).status).toBe(201);
    });

    it('should answer several files at once, by POST or by a JSON body in the query, null where nothing is', async () => {
      const posted = await bob.api.post<Array<ContentsResponse | null>>(`/repos/${repo.full_name}/file-contents`, { files: ['docs/a.md', 'missing.txt', 'docs'] } satisfies GetFilesOptions);
      expect(posted.status).toBe(200);
      expect(posted.body).toHaveLength(3);
      expect(posted.body[0]).toMatchObject({ path: 'docs/a.md', type: 'file', encoding: 'base64', content: b64('alpha\n'), last_commit_message: 'Add docs/a.md\n' });
      expect(posted.body[0]!.last_commit_sha).toMatch(/^[0-9a-f]{40}$/);
      expect(posted.body[1]).toBeNull();
      expect(posted.body[2]).toMatchObject({ path: 'docs', type: 'dir', content: null });
      const query = encodeURIComponent(JSON.stringify({ files: ['b.txt'] }));
      const got = await bob.api.get<Array<ContentsResponse | null>>(`/repos/${repo.full_name}/file-contents?ref=other&body=${query}`);
      expect(got.status).toBe(200);
      expect(got.body[0]).toMatchObject({ path: 'b.txt', content: b64('bravo\n') });
      expect((await bob.api.get(`/repos/${repo.full_name}/file-contents?body=${query}`)).body).toEqual([null]);
    });

    it('should refuse a body that is not JSON (400), too many files (400) and hide private repositories', async () => {
      const bad = await bob.api.get(`/repos/${repo.full_name}/file-contents?body=not-json`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual(giteaError('invalid body parameter'));
      const many = await bob.api.post(`/repos/${repo.full_name}/file-contents`, { files: Array.from({ length: 51 }, (_, i) => `f${i}`) });
      expect(many.status).toBe(400);
      expect(many.body).toEqual(giteaError('pagesize must be less than or equal to 50'));
      expect((await bob.api.post(`/repos/${repo.full_name}/file-contents`, { files: 'x' })).status).toBe(422);
      const priv = await createRepo(alice, { private: true });
      expect((await bob.api.post(`/repos/${priv.full_name}/file-contents`, { files: ['README.md'] })).status).toBe(404);
      // The repository is assigned before the body is read.
      expect((await bob.api.get(`/repos/${priv.full_name}/file-contents?body=not-json`)).status).toBe(404);
      expect((await alice.api.post<unknown[]>(`/repos/${priv.full_name}/file-contents`, { files: ['README.md'] })).body).toHaveLength(1);
    });
  });

  describe('GET contents-ext', () => {
    let repo: Repository;
    const pointer = (oid: string, size: number) => `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${size}\n`;
    const lfsData = 'large file content\n';
    const lfsOid = createHash('sha256').update(lfsData).digest('hex');

    beforeAll(async () => {
      repo = await createRepo(alice);
      await put(alice, repo, 'assets/big.bin', pointer(lfsOid, lfsData.length));
      await put(alice, repo, 'assets/small.txt', 'small\n', { message: 'Add the small file\n\nwith a body' });
    });

    it('should answer the root for an empty path with metadata only', async () => {
      for (const path of ['', '/']) {
        const res = await alice.api.get<ContentsExtResponse>(`/repos/${repo.full_name}/contents-ext${path}`);
        expect(res.status).toBe(200);
        expect(res.body.file_contents).toBeUndefined();
        expect(res.body.dir_contents!.map((e) => e.name)).toEqual(['README.md', 'assets']);
        expect(res.body.dir_contents![0]).not.toHaveProperty('last_commit_sha');
      }
    });

    it('should add commit metadata and messages for a whole directory when asked', async () => {
      const res = await alice.api.get<ContentsExtResponse>(`/repos/${repo.full_name}/contents-ext/assets?includes=commit_metadata,commit_message`);
      expect(res.status).toBe(200);
      const [big, small] = res.body.dir_contents!;
      expect(big).toMatchObject({ name: 'big.bin', last_commit_message: 'Add assets/big.bin\n', content: null });
      expect(small).toMatchObject({ name: 'small.txt', last_commit_message: 'Add the small file\n\nwith a body\n' });
      expect(big!.last_commit_sha).not.toBe(small!.last_commit_sha);
      const log = (await gitOnDisk(layout, repo.id, ['log', '-1', '--format=%H', 'main', '--', 'assets/big.bin'])).trim();
      expect(big!.last_commit_sha).toBe(log);
    });

    it('should give a single file its content and LFS metadata only when asked', async () => {
      const plain = await alice.api.get<ContentsExtResponse>(`/repos/${repo.full_name}/contents-ext/assets/big.bin`);
      expect(plain.body.dir_contents).toBeUndefined();
      expect(plain.body.file_contents).toMatchObject({ content: null, encoding: null });
      expect(plain.body.file_contents).not.toHaveProperty('lfs_oid');
      const lfs = await alice.api.get<ContentsExtResponse>(`/repos/${repo.full_name}/contents-ext/assets/big.bin?includes=lfs_metadata`);
      expect(lfs.body.file_contents).toMatchObject({ lfs_oid: lfsOid, lfs_size: lfsData.length, content: null });
      const full = await alice.api.get<ContentsExtResponse>(`/repos/${repo.full_name}/contents-ext/assets/small.txt?includes=file_content`);
      expect(Buffer.from(full.body.file_contents!.content!, 'base64').toString()).toBe('small\n');
      const dir = await alice.api.get<ContentsExtResponse>(`/repos/${repo.full_name}/contents-ext/assets?includes=file_content`);
      expect(dir.body.dir_contents!.every((e) => e.content === null)).toBe(true);
    });

    it('should refuse an unknown include with 400 and a missing path with 404', async () => {
      const res = await alice.api.get(`/repos/${repo.full_name}/contents-ext/assets?includes=everything`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(giteaError('unknown include option "everything"'));
      expect((await alice.api.get(`/repos/${repo.full_name}/contents-ext/missing`)).status).toBe(404);
    });

    it('should serve raw files by path, with a ref in the path or the query', async () => {
      const raw = await alice.api.get(`/repos/${repo.full_name}/raw/assets/small.txt`);
      expect(raw.status).toBe(200);
      expect(raw.text).toBe('small\n');
      expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(raw.headers.get('x-gitea-object-type')).toBe('file');
      const etag = raw.headers.get('etag')!;
      expect((await alice.api.request('GET', `/repos/${repo.full_name}/raw/assets/small.txt`, undefined, { 'if-none-match': etag })).status).toBe(304);
      expect((await alice.api.get(`/repos/${repo.full_name}/raw/main/assets/small.txt`)).text).toBe('small\n');
      expect((await alice.api.get(`/repos/${repo.full_name}/raw/assets/small.txt?ref=main`)).text).toBe('small\n');
      expect((await alice.api.get(`/repos/${repo.full_name}/raw/assets`)).status).toBe(404);
      expect((await alice.api.get(`/repos/${repo.full_name}/raw/assets/none.txt`)).status).toBe(404);
      // A name a header cannot carry raw goes out RFC 2231-encoded, as Go's mime package writes it.
      expect((await put(alice, repo, 'intl/日本.txt', 'nihon\n', { new_branch: 'intl' })).status).toBe(201);
      const unicode = await alice.api.get(`/repos/${repo.full_name}/raw/intl/${encodeURIComponent('日本.txt')}?ref=intl`);
      expect(unicode.status).toBe(200);
      expect(unicode.headers.get('content-disposition')).toBe("inline; filename*=utf-8''%E6%97%A5%E6%9C%AC.txt");
      expect((await alice.api.get(`/repos/${repo.full_name}/media/intl/${encodeURIComponent('日本.txt')}?ref=intl`)).text).toBe('nihon\n');
    });

    it('should resolve an LFS pointer in media only when the object was uploaded to this repository', async () => {
      const before = await alice.api.get(`/repos/${repo.full_name}/media/assets/big.bin`);
      expect(before.status).toBe(200);
      expect(before.text).toBe(pointer(lfsOid, lfsData.length));
      // An object on disk that this repository never received is not served.
      const dir = join(layout.dataDir, 'lfs', lfsOid.slice(0, 2), lfsOid.slice(2, 4));
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, lfsOid.slice(4)), lfsData);
      expect((await alice.api.get(`/repos/${repo.full_name}/media/assets/big.bin`)).text).toBe(pointer(lfsOid, lfsData.length));
      const upload = await fetch(`${layout.rootUrl}${repo.full_name}.git/info/lfs/objects/${lfsOid}/${lfsData.length}`, {
        method: 'PUT',
        headers: { Authorization: `Basic ${Buffer.from(`${alice.username}:${alice.password}`).toString('base64')}`, 'Content-Type': 'application/octet-stream' },
        body: lfsData,
      });
      expect(upload.status).toBe(200);
      const after = await alice.api.get(`/repos/${repo.full_name}/media/assets/big.bin`);
      expect(after.text).toBe(lfsData);
      expect(after.headers.get('etag')).toBe(`"${lfsOid}"`);
      expect((await alice.api.get(`/repos/${repo.full_name}/raw/assets/big.bin`)).text).toBe(pointer(lfsOid, lfsData.length));
    });

    it('should serve git blobs and trees, recursive and paginated', async () => {
      const small = await alice.api.get<ContentsResponse>(`/repos/${repo.full_name}/contents/assets/small.txt`);
      const blob = await alice.api.get<GitBlobResponse>(`/repos/${repo.full_name}/git/blobs/${small.body.sha}`);
      expect(blob.status).toBe(200);
      expect(blob.body).toMatchObject({ sha: small.body.sha, size: 6, encoding: 'base64', content: b64('small\n') });
      expect((await alice.api.get(`/repos/${repo.full_name}/git/blobs/${'0'.repeat(40)}`)).status).toBe(400);

      const head = (await gitOnDisk(layout, repo.id, ['rev-parse', 'main'])).trim();
      const treeId = (await gitOnDisk(layout, repo.id, ['rev-parse', 'main^{tree}'])).trim();
      const top = await alice.api.get<GitTreeResponse>(`/repos/${repo.full_name}/git/trees/${head}`);
      expect(top.status).toBe(200);
      // The tree's own id, whatever named it (Gitea's GetTreeBySHA), and the count in X-Total-Count too.
      expect(top.body).toMatchObject({ sha: treeId, url: `${layout.apiUrl}/repos/${repo.full_name}/git/trees/${treeId}`, total_count: 2, truncated: false, page: 1 });
      expect(top.headers.get('x-total-count')).toBe('2');
      expect((await alice.api.get<GitTreeResponse>(`/repos/${repo.full_name}/git/trees/${treeId}`)).body).toEqual(top.body);
      expect(top.body.tree!.map((e) => [e.path, e.type, e.mode])).toEqual([
        ['README.md', 'blob', '100644'],
        ['assets', 'tree', '040000'],
      ]);
      const abbreviated = await alice.api.get<GitTreeResponse>(`/repos/${repo.full_name}/git/trees/${head.slice(0, 7)}`);
      expect(abbreviated.body).toMatchObject({ sha: treeId, total_count: 2 });
      expect((await alice.api.get(`/repos/${repo.full_name}/git/blobs/${small.body.sha.slice(0, 7)}`)).status).toBe(400);
      const all = await alice.api.get<GitTreeResponse>(`/repos/${repo.full_name}/git/trees/main?recursive=true`);
      expect(all.body.tree!.map((e) => e.path)).toEqual(['README.md', 'assets', 'assets/big.bin', 'assets/small.txt']);
      const paged = await alice.api.get<GitTreeResponse>(`/repos/${repo.full_name}/git/trees/main?recursive=true&per_page=3&page=1`);
      expect(paged.body).toMatchObject({ truncated: true, total_count: 4 });
      expect(paged.body.tree).toHaveLength(3);
      const past = await alice.api.get<GitTreeResponse>(`/repos/${repo.full_name}/git/trees/main?recursive=true&per_page=3&page=3`);
      expect(past.body).toMatchObject({ tree: null, truncated: false });
      expect((await alice.api.get(`/repos/${repo.full_name}/git/trees/${'f'.repeat(40)}`)).status).toBe(400);
    });
  });

  describe('file changes', () => {
    let repo: Repository;

    beforeAll(async () => {
      repo = await createRepo(alice);
    });

    it('should create a file (201) as one commit by the signed-in user that git shows', async () => {
      const res = await put(alice, repo, 'src/main.ts', 'console.log(1);\n');
      expect(res.status).toBe(201);
      expect(res.body.content).toMatchObject({ path: 'src/main.ts', type: 'file', encoding: 'base64', last_commit_sha: res.body.commit.sha });
      expect(res.body.commit).toMatchObject({
        message: 'Add src/main.ts\n',
        author: { name: alice.username, email: alice.email },
        committer: { name: alice.username, email: alice.email },
        html_url: `${layout.rootUrl}${repo.full_name}/commit/${res.body.commit.sha}`,
      });
      expect(res.body.commit.parents).toHaveLength(1);
      expect(res.body.verification).toMatchObject({ verified: false });
      expect(await gitOnDisk(layout, repo.id, ['show', 'main:src/main.ts'])).toBe('console.log(1);\n');
      expect((await gitOnDisk(layout, repo.id, ['rev-parse', 'main'])).trim()).toBe(res.body.commit.sha);
      expect((await gitOnDisk(layout, repo.id, ['log', '-1', '--format=%an <%ae>'])).trim()).toBe(`${alice.username} <${alice.email}>`);
    });

    it('should show what was committed on disk, and answer 422 for a file that exists', async () => {
      const head = (await gitOnDisk(layout, repo.id, ['rev-parse', 'main'])).trim();
      const tree = await gitOnDisk(layout, repo.id, ['ls-tree', 'main']);
      const files = tree
        .trim()
        .split('\n')
        .map((l) => {
          const [meta, path] = l.split('\t');
          return { path: path!, mode: meta!.split(' ')[0], sha: meta!.split(' ')[2] };
        });
      await commitOnDisk(layout, repo.id, 'main', [...files, { path: 'from-disk.txt', content: 'written by git\n' }], 'disk commit', head);
      const res = await alice.api.get<ContentsResponse>(`/repos/${repo.full_name}/contents/from-disk.txt`);
      expect(Buffer.from(res.body.content!, 'base64').toString()).toBe('written by git\n');

      const again = await put(alice, repo, 'from-disk.txt', 'x');
      expect(again.status).toBe(422);
      expect(again.body).toEqual(giteaError('repository file already exists [path: from-disk.txt]'));
      const under = await put(alice, repo, 'from-disk.txt/child', 'x');
      expect(under.status).toBe(422);
      expect(under.body).toEqual(giteaError('a file exists where you’re trying to create a subdirectory [path: from-disk.txt]'));
      const onDir = await put(alice, repo, 'src', 'x');
      expect(onDir.body).toEqual(giteaError('a directory exists where you’re trying to create a file [path: src]'));
    });

    it('should update a file when the sha matches (200) and create one without sha (201)', async () => {
      const current = await alice.api.get<ContentsResponse>(`/repos/${repo.full_name}/contents/src/main.ts`);
      const wrong = await alice.api.put(`/repos/${repo.full_name}/contents/src/main.ts`, { content: b64('x'), sha: 'a'.repeat(40) } satisfies UpdateFileOptions);
      expect(wrong.status).toBe(422);
      expect(wrong.body).toEqual(giteaError(`sha does not match [given: ${'a'.repeat(40)}, expected: ${current.body.sha}]`));
      const ok = await alice.api.put<FileResponse>(`/repos/${repo.full_name}/contents/src/main.ts`, {
        content: b64('console.log(2);\n'),
        sha: current.body.sha,
        message: 'Second version',
      } satisfies UpdateFileOptions);
      expect(ok.status).toBe(200);
      expect(ok.body.commit.message).toBe('Second version\n');
      expect(await gitOnDisk(layout, repo.id, ['show', 'main:src/main.ts'])).toBe('console.log(2);\n');
      const created = await alice.api.put<FileResponse>(`/repos/${repo.full_name}/contents/src/new.ts`, { content: b64('new\n') } satisfies UpdateFileOptions);
      expect(created.status).toBe(201);
      expect(created.body.commit.message).toBe('Add src/new.ts\n');
    });

    it('should move a file with from_path', async () => {
      const current = await alice.api.get<ContentsResponse>(`/repos/${repo.full_name}/contents/src/new.ts`);
      const res = await alice.api.put<FileResponse>(`/repos/${repo.full_name}/contents/lib/moved.ts`, {
        content: b64('moved\n'),
        sha: current.body.sha,
        from_path: 'src/new.ts',
      } satisfies UpdateFileOptions);
      expect(res.status).toBe(200);
      expect((await alice.api.get(`/repos/${repo.full_name}/contents/src/new.ts`)).status).toBe(404);
      expect(await gitOnDisk(layout, repo.id, ['show', 'main:lib/moved.ts'])).toBe('moved\n');
    });

    it('should delete a file whose sha matches and answer Gitea’s errors otherwise', async () => {
      const current = await alice.api.get<ContentsResponse>(`/repos/${repo.full_name}/contents/lib/moved.ts`);
      const noSha = await alice.api.delete(`/repos/${repo.full_name}/contents/lib/moved.ts`, {});
      expect(noSha.status).toBe(422);
      const wrong = await alice.api.delete(`/repos/${repo.full_name}/contents/lib/moved.ts`, { sha: 'b'.repeat(40) } satisfies DeleteFileOptions);
      expect(wrong.status).toBe(422);
      const missing = await alice.api.delete(`/repos/${repo.full_name}/contents/lib/none.ts`, { sha: current.body.sha } satisfies DeleteFileOptions);
      expect(missing.status).toBe(404);
      const ok = await alice.api.delete<FileDeleteResponse>(`/repos/${repo.full_name}/contents/lib/moved.ts`, { sha: current.body.sha } satisfies DeleteFileOptions);
      expect(ok.status).toBe(200);
      expect(ok.body.content).toBeNull();
      expect(ok.body.commit).toMatchObject({ message: 'Delete lib/moved.ts\n', sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
      expect(ok.body.commit.tree.sha).toBe((await gitOnDisk(layout, repo.id, ['rev-parse', 'main^{tree}'])).trim());
      expect((await alice.api.get(`/repos/${repo.full_name}/contents/lib/moved.ts`)).status).toBe(404);
    });

    it('should change several files in one commit', async () => {
      const main = await alice.api.get<ContentsResponse>(`/repos/${repo.full_name}/contents/src/main.ts`);
      const res = await alice.api.post<FilesResponse>(`/repos/${repo.full_name}/contents`, {
        files: [
          { operation: 'create', path: 'a.txt', content: b64('a') },
          { operation: 'update', path: 'src/main.ts', content: b64('console.log(3);\n'), sha: main.body.sha },
          { operation: 'delete', path: 'from-disk.txt' },
        ],
      } satisfies ChangeFilesOptions);
      expect(res.status).toBe(201);
      expect(res.body.files.map((f) => f?.path ?? null)).toEqual(['a.txt', 'src/main.ts', null]);
      expect(res.body.commit.message).toBe('Add a.txt\nUpdate src/main.ts\nDelete from-disk.txt\n');
      const status = await gitOnDisk(layout, repo.id, ['diff-tree', '--no-commit-id', '--name-status', '-r', 'main']);
      expect(status.trim().split('\n').sort()).toEqual(['A\ta.txt', 'D\tfrom-disk.txt', 'M\tsrc/main.ts']);
      const missing = await alice.api.post(`/repos/${repo.full_name}/contents`, { files: [] } as unknown as ChangeFilesOptions);
      expect(missing.status).toBe(422);
    });

    it('should apply author, committer, dates and sign-off as Gitea does', async () => {
      const onlyAuthor = await put(alice, repo, 'people/one.txt', '1', {
        author: { name: 'Ada', email: 'ada@example.com' },
        dates: { author: '2024-02-03T04:05:06+02:00', committer: '2024-02-03T05:00:00Z' },
      });
      expect(onlyAuthor.body.commit.author).toEqual({ name: 'Ada', email: 'ada@example.com', date: '2024-02-03T02:05:06Z' });
      expect(onlyAuthor.body.commit.committer).toEqual({ name: 'Ada', email: 'ada@example.com', date: '2024-02-03T05:00:00Z' });
      expect((await gitOnDisk(layout, repo.id, ['log', '-1', '--format=%ad', '--date=iso-strict'])).trim()).toBe('2024-02-03T04:05:06+02:00');
      const both = await put(alice, repo, 'people/two.txt', '2', {
        author: { name: 'Ada', email: 'ada@example.com' },
        committer: { name: 'Bea', email: 'bea@example.com' },
        signoff: true,
      });
      expect(both.body.commit.committer).toMatchObject({ name: 'Bea', email: 'bea@example.com' });
      expect(both.body.commit.message).toBe('Add people/two.txt\n\nSigned-off-by: Bea <bea@example.com>');
    });

    it('should commit to a new branch, refuse an existing one without force_push', async () => {
      const res = await put(alice, repo, 'feature.txt', 'f', { new_branch: 'feature/one' });
      expect(res.status).toBe(201);
      expect(res.body.content!.url).toContain('?ref=feature%2Fone');
      expect((await alice.api.get(`/repos/${repo.full_name}/contents/feature.txt`)).status).toBe(404);
      expect((await alice.api.get(`/repos/${repo.full_name}/contents/feature.txt?ref=feature/one`)).status).toBe(200);
      const again = await put(alice, repo, 'other.txt', 'o', { new_branch: 'feature/one' });
      expect(again.status).toBe(422);
      expect(again.body).toEqual(giteaError('branch already exists [name: feature/one]'));
      const forced = await put(alice, repo, 'other.txt', 'o', { new_branch: 'feature/one', force_push: true });
      expect(forced.status).toBe(201);
      expect((await alice.api.get(`/repos/${repo.full_name}/contents/feature.txt?ref=feature/one`)).status).toBe(404);
      const noBase = await put(alice, repo, 'x.txt', 'x', { branch: 'no-such' });
      expect(noBase.status).toBe(404);
    });

    it('should record push events (and ref creation) in the outbox', async () => {
      const before = (await gitOnDisk(layout, repo.id, ['rev-parse', 'main'])).trim();
      const res = await put(alice, repo, 'events.txt', 'e');
      const branch = await put(alice, repo, 'events2.txt', 'e', { new_branch: 'events-branch' });
      const events = await repoEvents(layout, repo.id);
      const pushed = events.filter((e) => e.name === 'repo.pushed').map((e) => e.payload as { ref: string; before: string; after: string; total_commits: number; commits: Array<{ id: string; added: string[] }>; pusher: { login: string } });
      expect(pushed).toContainEqual(
        expect.objectContaining({
          ref: 'refs/heads/main',
          before,
          after: res.body.commit.sha,
          total_commits: 1,
          commits: [expect.objectContaining({ id: res.body.commit.sha, added: ['events.txt'] })],
          pusher: expect.objectContaining({ login: alice.username }),
        }),
      );
      expect(pushed).toContainEqual(expect.objectContaining({ ref: 'refs/heads/events-branch', before: '0'.repeat(40), after: branch.body.commit.sha }));
      expect(events.map((e) => [e.name, (e.payload as { ref?: string }).ref])).toContainEqual(['repo.ref_created', 'events-branch']);
    });

    it('should keep concurrent writers from losing each other’s commits', async () => {
      const results = await Promise.all([1, 2, 3, 4, 5].map((i) => put(alice, repo, `parallel/${i}.txt`, `${i}`)));
      expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
      const listing = await alice.api.get<ContentsResponse[]>(`/repos/${repo.full_name}/contents/parallel`);
      expect(listing.body.map((e) => e.name)).toEqual(['1.txt', '2.txt', '3.txt', '4.txt', '5.txt']);
      expect(Number((await gitOnDisk(layout, repo.id, ['rev-list', '--count', 'main', '--', 'parallel'])).trim())).toBe(5);
    });

    it('should refuse bad paths and content with 422', async () => {
      for (const path of ['..%2Fescape.txt', '.git%2Fhooks%2Fx', '%2Fabs.txt']) {
        const res = await put(alice, repo, path, 'x');
        expect(res.status).toBe(422);
      }
      const bad = await alice.api.post(`/repos/${repo.full_name}/contents/bad.txt`, { content: 'not base64!' } satisfies CreateFileOptions);
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual(giteaError(/illegal base64 data/));
    });

    it("should take what Go clients send for fields they leave unset: empty branches and Go's zero dates", async () => {
      const zero = { author: '0001-01-01T00:00:00Z', committer: '0001-01-01T00:00:00Z' };
      const before = Math.floor(Date.now() / 1000) - 5;
      const made = await alice.api.post<FileResponse>(`/repos/${repo.full_name}/contents/go/sdk.txt`, { content: b64('sdk\n'), branch: '', new_branch: '', dates: zero });
      expect(made.status).toBe(201);
      expect((await gitOnDisk(layout, repo.id, ['rev-parse', 'main'])).trim()).toBe(made.body.commit.sha);
      // The zero dates are "now", as Gitea's ReqChangeRepoFileOptionsAndCheck makes them.
      const stamps = (await gitOnDisk(layout, repo.id, ['log', '-1', '--format=%at %ct', 'main'])).trim().split(' ').map(Number);
      expect(stamps.every((t) => t >= before)).toBe(true);
      const deleted = await alice.api.delete(`/repos/${repo.full_name}/contents/go/sdk.txt`, { sha: made.body.content!.sha, branch: '', new_branch: '', dates: zero });
      expect(deleted.status).toBe(200);
      const branched = await alice.api.post(`/repos/${repo.full_name}/branches`, { new_branch_name: 'go-sdk', old_branch_name: '', old_ref_name: '' });
      expect(branched.status).toBe(201);
    });

    it('should let only writers change files: 401 anonymous, 403 readers, 404 hidden', async () => {
      expect((await api.anonymous.post(`/repos/${repo.full_name}/contents/x.txt`, { content: b64('x') })).status).toBe(401);
      const denied = await put(bob, repo, 'x.txt', 'x');
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(giteaError('user should have a permission to write to the target branch'));
      const priv = await createRepo(alice, { private: true });
      expect((await put(bob, priv, 'x.txt', 'x')).status).toBe(404);
      expect((await api.anonymous.post(`/repos/${priv.full_name}/contents/x.txt`, { content: b64('x') })).status).toBe(404);
    });

    it('should refuse changes to archived and mirror repositories with 423', async () => {
      const archived = await createRepo(alice);
      expect((await alice.api.patch(`/repos/${archived.full_name}`, { archived: true })).status).toBe(200);
      const res = await put(alice, archived, 'x.txt', 'x');
      expect(res.status).toBe(423);
      expect(res.body).toEqual(giteaError('repo is not allowed to edit'));
      const mirror = await createRepo(alice);
      await markMirror(layout, mirror.id);
      expect((await put(alice, mirror, 'x.txt', 'x')).status).toBe(423);
    });

    it('should fill an empty repository and make the branch its default', async () => {
      const empty = await createRepo(alice, { auto_init: false });
      expect(empty.empty).toBe(true);
      expect((await alice.api.get(`/repos/${empty.full_name}/contents`)).status).toBe(404);
      const res = await put(alice, empty, 'first.txt', 'first\n', { new_branch: 'trunk' });
      expect(res.status).toBe(201);
      expect(res.body.commit.parents).toEqual([]);
      const after = await alice.api.get<Repository>(`/repos/${empty.full_name}`);
      expect(after.body).toMatchObject({ empty: false, default_branch: 'trunk' });
      expect((await gitOnDisk(layout, empty.id, ['symbolic-ref', 'HEAD'])).trim()).toBe('refs/heads/trunk');
      expect((await alice.api.get<ContentsResponse[]>(`/repos/${empty.full_name}/contents`)).body.map((e) => e.name)).toEqual(['first.txt']);
    });
  });
});
