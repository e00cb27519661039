import { giteaApi } from 'gitea-js';
import type { AccessToken, Repository } from '@gitforge/contracts';
import { Api, createUser, uniqueName, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { createRepo } from './support/repos.js';

/** The issue tracker driven by gitea-js, the TypeScript client generated from Gitea's OpenAPI, unchanged. */
describe.each(layoutsUnderTest())('gitea-js against the issue tracker (%s layout)', (kind) => {
  let layout: Layout;
  let owner: TestUser;
  let repo: Repository;
  let client: ReturnType<typeof giteaApi>;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    const api = new Api(layout);
    owner = await createUser(api, 'jsowner');
    repo = await createRepo(owner.api, { auto_init: true });
    const token = await owner.api.post<AccessToken>(`/users/${owner.username}/tokens`, { name: uniqueName('js'), scopes: ['write:issue', 'write:repository'] });
    client = giteaApi(layout.rootUrl.replace(/\/$/, ''), { token: token.body.sha1, customFetch: fetch });
  });

  afterAll(async () => {
    await layout?.stop();
  });

  it('should create, list, edit and close an issue with a label, a milestone, an assignee, a comment and an attachment', async () => {
    const [o, r] = [owner.username, repo.name];
    const created = await client.repos.issueCreateIssue(o, r, { title: 'Found by gitea-js', body: 'Steps to reproduce' });
    expect(created.status).toBe(201);
    const index = created.data.number!;

    const listed = await client.repos.issueListIssues(o, r, { state: 'open', type: 'issues' });
    expect(listed.data.map((i) => i.number)).toContain(index);

    const label = await client.repos.issueCreateLabel(o, r, { name: 'bug', color: '#ee0701', description: 'Something is broken' });
    expect(label.status).toBe(201);
    const labels = await client.repos.issueAddLabel(o, r, index, { labels: [label.data.id!] });
    expect(labels.data.map((l) => l.name)).toEqual(['bug']);

    const milestone = await client.repos.issueCreateMilestone(o, r, { title: 'v1.0', description: 'first release' });
    expect(milestone.status).toBe(201);

    const edited = await client.repos.issueEditIssue(o, r, index, {
      title: 'Found by gitea-js (edited)',
      assignees: [owner.username],
      milestone: milestone.data.id!,
    });
    expect(edited.status).toBe(201);
    expect(edited.data).toMatchObject({ title: 'Found by gitea-js (edited)', milestone: { title: 'v1.0' } });
    expect(edited.data.assignees?.map((u) => u.login)).toEqual([owner.username]);

    const comment = await client.repos.issueCreateComment(o, r, index, { body: 'Confirmed.' });
    expect(comment.status).toBe(201);
    const comments = await client.repos.issueGetComments(o, r, index);
    expect(comments.data.map((c) => c.body)).toEqual(['Confirmed.']);

    const file = new File([Buffer.from('a log line\n')], 'crash.log', { type: 'text/plain' });
    const asset = await client.repos.issueCreateIssueAttachment(o, r, index, { attachment: file });
    expect(asset.status).toBe(201);
    expect(asset.data).toMatchObject({ name: 'crash.log', size: 11 });

    const closed = await client.repos.issueEditIssue(o, r, index, { state: 'closed' });
    expect(closed.data.state).toBe('closed');

    const got = await client.repos.issueGetIssue(o, r, index);
    expect(got.data).toMatchObject({
      state: 'closed',
      comments: 1,
      labels: [{ name: 'bug', color: 'ee0701' }],
      milestone: { title: 'v1.0', closed_issues: 1, open_issues: 0 },
      assets: [{ name: 'crash.log' }],
    });
    const download = await fetch(got.data.assets![0]!.browser_download_url!);
    expect(await download.text()).toBe('a log line\n');
  });

  it('should create a release, upload an asset to it and list it', async () => {
    const [o, r] = [owner.username, repo.name];
    const released = await client.repos.repoCreateRelease(o, r, { tag_name: 'v1.0.0', name: 'First', body: 'Notes' });
    expect(released.status).toBe(201);
    expect(released.data).toMatchObject({ tag_name: 'v1.0.0', name: 'First', draft: false, prerelease: false, author: { login: o } });
    const id = released.data.id!;

    const file = new File([Buffer.from('binary bits\n')], 'app.tar', { type: 'application/x-tar' });
    const asset = await client.repos.repoCreateReleaseAttachment(o, r, id, { attachment: file }, { name: 'app-linux.tar' });
    expect(asset.status).toBe(201);
    expect(asset.data).toMatchObject({ name: 'app-linux.tar', size: 12, download_count: 0 });

    // Gitea's forms: the file on its own downloads by uuid, in its release's list through the tag.
    const assets = await client.repos.repoListReleaseAttachments(o, r, id);
    expect(assets.data).toEqual([{ ...asset.data, browser_download_url: `${layout.rootUrl}${o}/${r}/releases/download/v1.0.0/app-linux.tar` }]);
    expect(asset.data.browser_download_url).toBe(`${layout.rootUrl}attachments/${asset.data.uuid}`);
    const listed = await client.repos.repoListReleases(o, r);
    expect(listed.data.map((rel) => [rel.tag_name, rel.assets?.map((a) => a.name)])).toEqual([['v1.0.0', ['app-linux.tar']]]);
    for (const url of [asset.data.browser_download_url!, assets.data[0]!.browser_download_url!]) {
      expect(await (await fetch(url)).text()).toBe('binary bits\n');
    }
    const latest = await client.repos.repoGetLatestRelease(o, r);
    expect(latest.data.assets?.[0]).toMatchObject({ name: 'app-linux.tar', download_count: 2 });
  });

  it('should surface Gitea’s errors as gitea-js reports them', async () => {
    const missing = await client.repos.issueGetIssue(owner.username, repo.name, 999999).catch((res: Response) => res);
    expect(missing.status).toBe(404);
    const invalid = await client.repos.issueCreateIssue(owner.username, repo.name, { title: '' }).catch((res: { status: number; error: { message: string } }) => res);
    expect(invalid.status).toBe(422);
    expect((invalid as { error: { message: string } }).error.message).toBe('[Title]: Required');
  });
});
