import type { Comment, Issue, PullRequest, Repository, TimelineComment } from '@gitforge/contracts';
import { Api, createUser, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { addCollaborator, createIssue, createRepo } from './support/repos.js';

/** Gitea's cross references: issue_ref, comment_ref and pull_ref rows on the issue a text names. */
describe.each(layoutsUnderTest())('cross references (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let owner: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let repo: Repository;
  let secret: Repository;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    [owner, reader, outsider] = await Promise.all([createUser(api, 'owner'), createUser(api, 'reader'), createUser(api, 'outsider')]);
    repo = await createRepo(owner.api, { auto_init: true });
    secret = await createRepo(owner.api, { private: true });
    await addCollaborator(owner.api, secret, reader, 'read');
  });

  afterAll(async () => {
    await layout?.stop();
  });

  async function timeline(as: Api, on: Repository, index: number): Promise<TimelineComment[]> {
    const res = await as.get<TimelineComment[] | null>(`/repos/${on.full_name}/issues/${index}/timeline`);
    expect(res.status).toBe(200);
    return res.body ?? [];
  }
  const refs = (rows: TimelineComment[]) =>
    rows
      .filter((r) => ['issue_ref', 'comment_ref', 'pull_ref'].includes(r.type))
      .map((r) => ({ type: r.type, action: r.ref_action, issue: r.ref_issue?.number, comment: r.ref_comment?.id ?? null, by: r.user?.login }));

  it('should leave an issue_ref row on the issue another issue names, not on itself and not for references in code', async () => {
    const target = await createIssue(owner.api, repo, { title: 'the target' });
    const coded = await createIssue(owner.api, repo, { title: 'coded' });
    const mentioning = await createIssue(reader.api, repo, {
      title: `about #${target.number}`,
      body: `see #${target.number} and ${repo.full_name}#${target.number}, not \`#${coded.number}\`\n\`\`\`\n#${coded.number}\n\`\`\``,
    });
    const rows = await timeline(owner.api, repo, target.number);
    // Named three times, written once.
    expect(refs(rows)).toEqual([{ type: 'issue_ref', action: 'none', issue: mentioning.number, comment: null, by: reader.username }]);
    const row = rows.find((r) => r.type === 'issue_ref')!;
    expect(row.ref_issue).toMatchObject({ number: mentioning.number, title: mentioning.title, repository: { full_name: repo.full_name } });
    expect(row.body).toBe('');
    expect(refs(await timeline(owner.api, repo, coded.number))).toEqual([]);
    expect(refs(await timeline(owner.api, repo, mentioning.number))).toEqual([]);
  });

  it('should write a comment_ref for a comment, neuter it when an edit drops the reference, and leave out the rows of a deleted comment', async () => {
    const [first, second] = [await createIssue(owner.api, repo), await createIssue(owner.api, repo)];
    const home = await createIssue(owner.api, repo);
    const posted = await reader.api.post<Comment>(`/repos/${repo.full_name}/issues/${home.number}/comments`, { body: `related: #${first.number}` });
    expect(posted.status).toBe(201);
    expect(refs(await timeline(owner.api, repo, first.number))).toEqual([{ type: 'comment_ref', action: 'none', issue: home.number, comment: posted.body.id, by: reader.username }]);
    const shown = (await timeline(owner.api, repo, first.number)).find((r) => r.type === 'comment_ref')!;
    expect(shown.ref_comment).toMatchObject({ id: posted.body.id, body: `related: #${first.number}` });

    expect((await reader.api.patch(`/repos/${repo.full_name}/issues/comments/${posted.body.id}`, { body: `no, #${second.number}` })).status).toBe(200);
    expect(refs(await timeline(owner.api, repo, first.number))).toEqual([{ type: 'comment_ref', action: 'neutered', issue: home.number, comment: posted.body.id, by: reader.username }]);
    expect(refs(await timeline(owner.api, repo, second.number))).toEqual([{ type: 'comment_ref', action: 'none', issue: home.number, comment: posted.body.id, by: reader.username }]);

    expect((await reader.api.delete(`/repos/${repo.full_name}/issues/comments/${posted.body.id}`)).status).toBe(204);
    expect(refs(await timeline(owner.api, repo, second.number))).toEqual([]);
  });

  it('should neuter the rows of an issue whose edited text no longer names them, keep those it still names, and drop them all with the issue', async () => {
    const [kept, dropped] = [await createIssue(owner.api, repo), await createIssue(owner.api, repo)];
    const origin = await createIssue(owner.api, repo, { body: `#${kept.number} #${dropped.number}` });
    expect((await owner.api.patch<Issue>(`/repos/${repo.full_name}/issues/${origin.number}`, { body: `only #${kept.number}` })).status).toBe(201);
    expect(refs(await timeline(owner.api, repo, kept.number))).toEqual([{ type: 'issue_ref', action: 'none', issue: origin.number, comment: null, by: owner.username }]);
    expect(refs(await timeline(owner.api, repo, dropped.number)).map((r) => r.action)).toEqual(['neutered']);
    expect((await owner.api.delete(`/repos/${repo.full_name}/issues/${origin.number}`)).status).toBe(204);
    expect(refs(await timeline(owner.api, repo, kept.number))).toEqual([]);
  });

  it("should write a pull's closing keyword as the pull_ref row's action", async () => {
    const bug = await createIssue(owner.api, repo, { title: 'a bug' });
    const branch = `fix-${bug.number}`;
    const file = await owner.api.post(`/repos/${repo.full_name}/contents/fix-${bug.number}.txt`, { content: Buffer.from('fixed\n').toString('base64'), new_branch: branch });
    expect(file.status).toBe(201);
    const pull = await owner.api.post<PullRequest>(`/repos/${repo.full_name}/pulls`, { head: branch, base: 'main', title: 'The fix', body: `Fixes #${bug.number}` });
    expect(pull.status).toBe(201);
    expect(refs(await timeline(owner.api, repo, bug.number))).toEqual([{ type: 'pull_ref', action: 'closes', issue: pull.body.number, comment: null, by: owner.username }]);

    // A review's body refers from the pull as a comment does.
    const noted = await createIssue(owner.api, repo, { title: 'noted in a review' });
    const review = await reader.api.post(`/repos/${repo.full_name}/pulls/${pull.body.number}/reviews`, { event: 'COMMENT', body: `compare #${noted.number}` });
    expect(review.status).toBe(200);
    const rows = refs(await timeline(owner.api, repo, noted.number));
    expect(rows).toEqual([{ type: 'comment_ref', action: 'none', issue: pull.body.number, comment: expect.any(Number), by: reader.username }]);
  });

  it('should show a reference from a private repository only to those who may read it, and write none into a repository its author cannot read', async () => {
    const target = await createIssue(owner.api, repo);
    const hidden = await createIssue(owner.api, secret, { body: `upstream: ${repo.full_name}#${target.number}` });
    const expected = [{ type: 'issue_ref', action: 'none', issue: hidden.number, comment: null, by: owner.username }];
    expect(refs(await timeline(owner.api, repo, target.number))).toEqual(expected);
    expect(refs(await timeline(reader.api, repo, target.number))).toEqual(expected);
    expect(refs(await timeline(outsider.api, repo, target.number))).toEqual([]);
    expect(refs(await timeline(api.anonymous, repo, target.number))).toEqual([]);

    const privateIssue = await createIssue(owner.api, secret);
    await createIssue(outsider.api, repo, { body: `guessing ${secret.full_name}#${privateIssue.number}` });
    expect(refs(await timeline(owner.api, secret, privateIssue.number))).toEqual([]);
  });
});
