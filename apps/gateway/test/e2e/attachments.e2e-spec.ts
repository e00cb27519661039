import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Attachment, Comment, CreateIssueCommentOption, CreateIssueOption, EditAttachmentOptions, Issue, Repository } from '@gitforge/contracts';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { basicAuth } from './support/http.js';
import { Layout, layoutsUnderTest } from './support/layout.js';

const MAX_MB = 1;

describe.each(layoutsUnderTest())('issue attachments (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let repo: Repository;
  let issue: Issue;

  beforeAll(async () => {
    layout = await Layout.start(kind, { env: { GITFORGE_ATTACHMENT_MAX_SIZE_MB: String(MAX_MB) } });
    api = new Api(layout);
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
    repo = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('assets') })).body;
    issue = await openIssue(alice, repo, 'with files');
  });

  afterAll(async () => {
    await layout?.stop();
  });

  async function openIssue(as: TestUser, where: Repository, title: string): Promise<Issue> {
    const res = await as.api.post<Issue>(`/repos/${where.full_name}/issues`, { title } satisfies CreateIssueOption);
    expect(res.status).toBe(201);
    return res.body;
  }

  /** A multipart upload as clients send it (field `attachment`), through node's FormData. */
  async function upload(as: TestUser | null, path: string, name: string, content: Buffer | string, query = '') {
    const form = new FormData();
    form.append('attachment', new Blob([content]), name);
    const res = await fetch(`${layout.apiUrl}${path}${query}`, {
      method: 'POST',
      body: form,
      headers: as ? { authorization: basicAuth(as.username, as.password) } : {},
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Attachment & { message?: string } };
  }

  const assetsOf = (where: Repository, index: number) => `/repos/${where.full_name}/issues/${index}/assets`;

  async function download(url: string, as: TestUser | null = null) {
    const res = await fetch(url, { headers: as ? { authorization: basicAuth(as.username, as.password) } : {} });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  }

  it('should upload a file (201), list it, get it and show it in the issue', async () => {
    const created = await upload(alice, assetsOf(repo, issue.number), 'notes.txt', 'hello attachments');
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'notes.txt',
      size: 17,
      download_count: 0,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      browser_download_url: `${layout.rootUrl}attachments/${created.body.uuid}`,
    });
    const list = await bob.api.get<Attachment[]>(assetsOf(repo, issue.number));
    expect(list.status).toBe(200);
    expect(list.body).toEqual([created.body]);
    const one = await api.anonymous.get<Attachment>(`${assetsOf(repo, issue.number)}/${created.body.id}`);
    expect(one.body).toEqual(created.body);
    expect((await alice.api.get<Issue>(`/repos/${repo.full_name}/issues/${issue.number}`)).body.assets).toEqual([created.body]);
    const listed = await alice.api.get<Issue[]>(`/repos/${repo.full_name}/issues?state=all`);
    expect(listed.body.find((i) => i.number === issue.number)?.assets).toEqual([created.body]);
  });

  it('should take the name from ?name= over the file name', async () => {
    const created = await upload(alice, assetsOf(repo, issue.number), 'ignored.txt', 'x', '?name=chosen.md');
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('chosen.md');
  });

  it('should serve the bytes at browser_download_url with their name, and count each download', async () => {
    const created = await upload(alice, assetsOf(repo, issue.number), 'report 1.txt', 'line one\nline two\n');
    const first = await download(created.body.browser_download_url);
    expect(first.status).toBe(200);
    expect(first.body.toString()).toBe('line one\nline two\n');
    expect(first.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(first.headers.get('content-disposition')).toBe('inline; filename="report 1.txt"');
    expect(first.headers.get('content-length')).toBe('18');
    expect((await download(created.body.browser_download_url, bob)).status).toBe(200);
    const counted = await alice.api.get<Attachment>(`${assetsOf(repo, issue.number)}/${created.body.id}`);
    expect(counted.body.download_count).toBe(2);
    // A range of it (the type still that of the whole file), and 304 for a current copy.
    const part = await fetch(created.body.browser_download_url, { headers: { range: 'bytes=5-7' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 5-7/18');
    expect(part.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await part.text()).toBe('one');
    const current = await fetch(created.body.browser_download_url, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(current.status).toBe(304);
    const zip = await upload(alice, assetsOf(repo, issue.number), 'a.zip', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]));
    const zipped = await download(zip.body.browser_download_url);
    expect(zipped.headers.get('content-type')).toBe('application/zip');
    expect(zipped.headers.get('content-disposition')).toBe('attachment; filename=a.zip');
    expect((await download(`${layout.rootUrl}attachments/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it('should rename an attachment (201) and refuse a disallowed new name (422)', async () => {
    const created = await upload(alice, assetsOf(repo, issue.number), 'old.txt', 'x');
    const path = `${assetsOf(repo, issue.number)}/${created.body.id}`;
    const renamed = await alice.api.patch<Attachment>(path, { name: 'new.log' } satisfies EditAttachmentOptions);
    expect(renamed.status).toBe(201);
    expect(renamed.body).toMatchObject({ id: created.body.id, name: 'new.log', uuid: created.body.uuid });
    expect((await alice.api.get<Attachment>(path)).body.name).toBe('new.log');
    const kept = await alice.api.patch<Attachment>(path, {});
    expect(kept.body.name).toBe('new.log');
    const refused = await alice.api.patch(path, { name: 'run.exe' } satisfies EditAttachmentOptions);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(giteaError('This file cannot be uploaded or modified due to a forbidden file extension or type.'));
  });

  it('should delete an attachment (204) with its file; then it is 404', async () => {
    const created = await upload(alice, assetsOf(repo, issue.number), 'gone.txt', 'bye');
    const path = `${assetsOf(repo, issue.number)}/${created.body.id}`;
    expect((await alice.api.delete(path)).status).toBe(204);
    expect((await alice.api.get(path)).status).toBe(404);
    expect((await alice.api.delete(path)).status).toBe(404);
    expect((await download(created.body.browser_download_url)).status).toBe(404);
    expect(existsSync(join(layout.dataDir, 'attachments', created.body.uuid[0]!, created.body.uuid[1]!, created.body.uuid))).toBe(false);
  });

  it('should refuse a disallowed type (422) and a file over the limit (413), keeping nothing', async () => {
    const before = (await alice.api.get<Attachment[]>(assetsOf(repo, issue.number))).body.length;
    const exe = await upload(alice, assetsOf(repo, issue.number), 'run.exe', 'MZ binary');
    expect(exe.status).toBe(422);
    expect(exe.body).toEqual(giteaError('This file cannot be uploaded or modified due to a forbidden file extension or type.'));
    const big = await upload(alice, assetsOf(repo, issue.number), 'big.txt', Buffer.alloc(MAX_MB * 1024 * 1024 + 1, 'a'));
    expect(big.status).toBe(413);
    expect(big.body).toEqual(giteaError(`attachment exceeds limit ${MAX_MB * 1024 * 1024}`));
    const exact = await upload(alice, assetsOf(repo, issue.number), 'exact.txt', Buffer.alloc(MAX_MB * 1024 * 1024, 'a'));
    expect(exact.status).toBe(201);
    expect(exact.body.size).toBe(MAX_MB * 1024 * 1024);
    expect((await download(exact.body.browser_download_url)).body.equals(Buffer.alloc(MAX_MB * 1024 * 1024, 'a'))).toBe(true);
    expect((await alice.api.get<Attachment[]>(assetsOf(repo, issue.number))).body).toHaveLength(before + 1);
  });

  it('should answer 400 for a form without the attachment field and 404 for a missing issue or attachment', async () => {
    const form = new FormData();
    form.append('other', new Blob(['x']), 'x.txt');
    const res = await fetch(`${layout.apiUrl}${assetsOf(repo, issue.number)}`, {
      method: 'POST',
      body: form,
      headers: { authorization: basicAuth(alice.username, alice.password) },
    });
    expect(res.status).toBe(400);
    expect((await upload(alice, assetsOf(repo, 9999), 'a.txt', 'x')).status).toBe(404);
    expect((await alice.api.get(assetsOf(repo, 9999))).status).toBe(404);
    expect((await alice.api.get(`${assetsOf(repo, issue.number)}/999999`)).status).toBe(404);
    // An attachment of another issue is not this issue's.
    const other = await openIssue(alice, repo, 'other');
    const elsewhere = await upload(alice, assetsOf(repo, other.number), 'b.txt', 'y');
    const wrong = await alice.api.get(`${assetsOf(repo, issue.number)}/${elsewhere.body.id}`);
    expect(wrong.status).toBe(404);
    expect(wrong.body).toEqual(giteaError('no such attachment in issue'));
  });

  it('should let the poster and writers manage attachments; other readers get 403, anonymous 401', async () => {
    const denied = await upload(bob, assetsOf(repo, issue.number), 'b.txt', 'x');
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual(giteaError('user should have permission to write issue'));
    const mine = (await alice.api.get<Attachment[]>(assetsOf(repo, issue.number))).body[0]!;
    expect((await bob.api.patch(`${assetsOf(repo, issue.number)}/${mine.id}`, { name: 'z.txt' })).status).toBe(403);
    expect((await bob.api.delete(`${assetsOf(repo, issue.number)}/${mine.id}`)).status).toBe(403);
    expect((await upload(null, assetsOf(repo, issue.number), 'a.txt', 'x')).status).toBe(401);
    // Bob posted this one: he may attach to it.
    const bobs = await openIssue(bob, repo, 'from bob');
    expect((await upload(bob, assetsOf(repo, bobs.number), 'b.txt', 'x')).status).toBe(201);
  });

  it('should hide a private repository: its assets and downloads are 404 to outsiders', async () => {
    const secret = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('secret'), private: true })).body;
    const hidden = await openIssue(alice, secret, 'hidden');
    const created = await upload(alice, assetsOf(secret, hidden.number), 'secret.txt', 'classified');
    expect(created.status).toBe(201);
    expect((await bob.api.get(assetsOf(secret, hidden.number))).status).toBe(404);
    expect((await bob.api.get(`${assetsOf(secret, hidden.number)}/${created.body.id}`)).status).toBe(404);
    expect((await upload(bob, assetsOf(secret, hidden.number), 'b.txt', 'x')).status).toBe(404);
    expect((await download(created.body.browser_download_url, bob)).status).toBe(404);
    expect((await download(created.body.browser_download_url)).status).toBe(404);
    const own = await download(created.body.browser_download_url, alice);
    expect(own.status).toBe(200);
    expect(own.body.toString()).toBe('classified');
  });

  it('should refuse every change in an archived repository (423)', async () => {
    const old = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('old') })).body;
    const oldIssue = await openIssue(alice, old, 'kept');
    const created = await upload(alice, assetsOf(old, oldIssue.number), 'kept.txt', 'x');
    expect((await alice.api.patch(`/repos/${old.full_name}`, { archived: true })).status).toBe(200);
    const refused = await upload(alice, assetsOf(old, oldIssue.number), 'new.txt', 'x');
    expect(refused.status).toBe(423);
    expect(refused.body).toEqual(giteaError('repo is archived'));
    expect((await alice.api.patch(`${assetsOf(old, oldIssue.number)}/${created.body.id}`, { name: 'n.txt' })).status).toBe(423);
    expect((await alice.api.delete(`${assetsOf(old, oldIssue.number)}/${created.body.id}`)).status).toBe(423);
    expect((await alice.api.get(assetsOf(old, oldIssue.number))).status).toBe(200);
    expect((await download(created.body.browser_download_url)).status).toBe(200);
  });

  it('should delete the attachments and their files with their issue', async () => {
    const doomed = await openIssue(alice, repo, 'doomed');
    const created = await upload(alice, assetsOf(repo, doomed.number), 'doomed.txt', 'x');
    const file = join(layout.dataDir, 'attachments', created.body.uuid[0]!, created.body.uuid[1]!, created.body.uuid);
    expect(existsSync(file)).toBe(true);
    expect((await alice.api.delete(`/repos/${repo.full_name}/issues/${doomed.number}`)).status).toBe(204);
    expect((await download(created.body.browser_download_url, alice)).status).toBe(404);
    expect(existsSync(file)).toBe(false);
  });

  describe('comment assets', () => {
    let carol: TestUser;
    let comment: Comment;

    const commentAssets = (where: Repository, id: number) => `/repos/${where.full_name}/issues/comments/${id}/assets`;
    const fileOf = (a: Attachment) => join(layout.dataDir, 'attachments', a.uuid[0]!, a.uuid[1]!, a.uuid);

    async function commentOn(as: TestUser, where: Repository, index: number, body: string): Promise<Comment> {
      const res = await as.api.post<Comment>(`/repos/${where.full_name}/issues/${index}/comments`, { body } satisfies CreateIssueCommentOption);
      expect(res.status).toBe(201);
      return res.body;
    }

    beforeAll(async () => {
      carol = await createUser(api, 'carol');
      expect((await alice.api.put(`/repos/${repo.full_name}/collaborators/${carol.username}`, { permission: 'write' })).status).toBe(204);
      comment = await commentOn(alice, repo, issue.number, 'see the attached log');
    });

    it("should upload to a comment (201), list and get it, and show it in the comment's assets only", async () => {
      const created = await upload(alice, commentAssets(repo, comment.id), 'build.log', 'error: x', '?name=build-1.log');
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(Number),
        name: 'build-1.log',
        size: 8,
        download_count: 0,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        browser_download_url: `${layout.rootUrl}attachments/${created.body.uuid}`,
      });
      const list = await bob.api.get<Attachment[]>(commentAssets(repo, comment.id));
      expect(list.status).toBe(200);
      expect(list.body).toEqual([created.body]);
      expect((await api.anonymous.get<Attachment>(`${commentAssets(repo, comment.id)}/${created.body.id}`)).body).toEqual(created.body);
      const shown = await alice.api.get<Comment>(`/repos/${repo.full_name}/issues/comments/${comment.id}`);
      expect(shown.body.assets).toEqual([created.body]);
      const listed = await alice.api.get<Comment[]>(`/repos/${repo.full_name}/issues/${issue.number}/comments`);
      expect(listed.body.find((c) => c.id === comment.id)?.assets).toEqual([created.body]);
      const inRepo = await alice.api.get<Comment[]>(`/repos/${repo.full_name}/issues/comments`);
      expect(inRepo.body.find((c) => c.id === comment.id)?.assets).toEqual([created.body]);
      const own = (await alice.api.get<Issue>(`/repos/${repo.full_name}/issues/${issue.number}`)).body.assets;
      expect(own.map((a) => a.id)).not.toContain(created.body.id);
      const got = await download(created.body.browser_download_url, bob);
      expect(got.status).toBe(200);
      expect(got.body.toString()).toBe('error: x');
    });

    it('should rename (201) and delete (204) a comment attachment, its file with it', async () => {
      const created = await upload(alice, commentAssets(repo, comment.id), 'old.txt', 'x');
      const path = `${commentAssets(repo, comment.id)}/${created.body.id}`;
      const renamed = await alice.api.patch<Attachment>(path, { name: 'new.md' } satisfies EditAttachmentOptions);
      expect(renamed.status).toBe(201);
      expect(renamed.body).toMatchObject({ id: created.body.id, name: 'new.md' });
      const refused = await alice.api.patch(path, { name: 'run.exe' } satisfies EditAttachmentOptions);
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(giteaError('This file cannot be uploaded or modified due to a forbidden file extension or type.'));
      expect(existsSync(fileOf(created.body))).toBe(true);
      expect((await alice.api.delete(path)).status).toBe(204);
      expect((await alice.api.get(path)).status).toBe(404);
      expect(existsSync(fileOf(created.body))).toBe(false);
    });

    it('should answer 404 for an unknown comment and for attachments of the issue or of another comment', async () => {
      expect((await alice.api.get(commentAssets(repo, 999999))).status).toBe(404);
      expect((await upload(alice, commentAssets(repo, 999999), 'a.txt', 'x')).status).toBe(404);
      const issueFile = await upload(alice, assetsOf(repo, issue.number), 'issue.txt', 'x');
      const notInComment = await alice.api.get(`${commentAssets(repo, comment.id)}/${issueFile.body.id}`);
      expect(notInComment.status).toBe(404);
      expect(notInComment.body).toEqual(giteaError('no such attachment in comment'));
      const other = await commentOn(alice, repo, issue.number, 'another');
      const elsewhere = await upload(alice, commentAssets(repo, other.id), 'b.txt', 'y');
      expect((await alice.api.delete(`${commentAssets(repo, comment.id)}/${elsewhere.body.id}`)).status).toBe(404);
      const otherIssue = await openIssue(alice, repo, 'another issue');
      const farther = await commentOn(alice, repo, otherIssue.number, 'on another issue');
      const fartherFile = await upload(alice, commentAssets(repo, farther.id), 'c.txt', 'z');
      const wrong = await alice.api.get(`${commentAssets(repo, comment.id)}/${fartherFile.body.id}`);
      expect(wrong.status).toBe(404);
      expect(wrong.body).toEqual(giteaError('no such attachment in comment'));
      // As in Gitea, the issue's routes reach the files of its comments (they belong to the issue).
      expect((await alice.api.get(`${assetsOf(repo, issue.number)}/${elsewhere.body.id}`)).status).toBe(200);
      const refused = await upload(alice, commentAssets(repo, comment.id), 'run.exe', 'MZ');
      expect(refused.status).toBe(422);
    });

    it("should follow Gitea's rule: writers who posted the comment or administer the repository; others 403, anonymous 401", async () => {
      const forbiddenBody = giteaError('user should have permission to edit comment');
      // Bob only reads: not even his own comment takes files.
      const bobs = await commentOn(bob, repo, issue.number, 'from a reader');
      const denied = await upload(bob, commentAssets(repo, bobs.id), 'b.txt', 'x');
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(forbiddenBody);
      // Carol writes, but the comment is Alice's.
      expect((await upload(carol, commentAssets(repo, comment.id), 'c.txt', 'x')).status).toBe(403);
      const alices = (await alice.api.get<Attachment[]>(commentAssets(repo, comment.id))).body[0]!;
      const renamed = await carol.api.patch(`${commentAssets(repo, comment.id)}/${alices.id}`, { name: 'z.txt' });
      expect(renamed.status).toBe(403);
      expect(renamed.body).toEqual(forbiddenBody);
      expect((await bob.api.delete(`${commentAssets(repo, comment.id)}/${alices.id}`)).status).toBe(403);
      expect((await upload(null, commentAssets(repo, comment.id), 'a.txt', 'x')).status).toBe(401);
      // Carol's own comment, and Alice (the owner) on Bob's.
      const carols = await commentOn(carol, repo, issue.number, 'from a writer');
      expect((await upload(carol, commentAssets(repo, carols.id), 'c.txt', 'x')).status).toBe(201);
      expect((await upload(alice, commentAssets(repo, bobs.id), 'a.txt', 'x')).status).toBe(201);
    });

    it('should hide a private repository and refuse changes in an archived one (423)', async () => {
      const secret = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('csecret'), private: true })).body;
      const hidden = await commentOn(alice, secret, (await openIssue(alice, secret, 'hidden')).number, 'hidden comment');
      const file = await upload(alice, commentAssets(secret, hidden.id), 'secret.txt', 'classified');
      expect(file.status).toBe(201);
      expect((await bob.api.get(commentAssets(secret, hidden.id))).status).toBe(404);
      expect((await bob.api.get(`${commentAssets(secret, hidden.id)}/${file.body.id}`)).status).toBe(404);
      expect((await upload(bob, commentAssets(secret, hidden.id), 'b.txt', 'x')).status).toBe(404);
      expect((await download(file.body.browser_download_url, bob)).status).toBe(404);

      const old = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('cold') })).body;
      const kept = await commentOn(alice, old, (await openIssue(alice, old, 'kept')).number, 'kept');
      const keptFile = await upload(alice, commentAssets(old, kept.id), 'kept.txt', 'x');
      expect((await alice.api.patch(`/repos/${old.full_name}`, { archived: true })).status).toBe(200);
      const refused = await upload(alice, commentAssets(old, kept.id), 'new.txt', 'x');
      expect(refused.status).toBe(423);
      expect(refused.body).toEqual(giteaError('repo is archived'));
      expect((await alice.api.patch(`${commentAssets(old, kept.id)}/${keptFile.body.id}`, { name: 'n.txt' })).status).toBe(423);
      expect((await alice.api.delete(`${commentAssets(old, kept.id)}/${keptFile.body.id}`)).status).toBe(423);
      expect((await alice.api.get(commentAssets(old, kept.id))).body).toHaveLength(1);
    });

    it('should delete the attachments and their files with their comment, and with their issue', async () => {
      const doomed = await commentOn(alice, repo, issue.number, 'doomed');
      const file = await upload(alice, commentAssets(repo, doomed.id), 'doomed.txt', 'x');
      expect(existsSync(fileOf(file.body))).toBe(true);
      expect((await alice.api.delete(`/repos/${repo.full_name}/issues/comments/${doomed.id}`)).status).toBe(204);
      expect((await download(file.body.browser_download_url, alice)).status).toBe(404);
      expect(existsSync(fileOf(file.body))).toBe(false);

      const gone = await openIssue(alice, repo, 'gone with its comments');
      const onIt = await commentOn(alice, repo, gone.number, 'on it');
      const inIssue = await upload(alice, commentAssets(repo, onIt.id), 'in-issue.txt', 'x');
      expect((await alice.api.delete(`/repos/${repo.full_name}/issues/${gone.number}`)).status).toBe(204);
      expect((await download(inIssue.body.browser_download_url, alice)).status).toBe(404);
      expect(existsSync(fileOf(inIssue.body))).toBe(false);
    });
  });
});
