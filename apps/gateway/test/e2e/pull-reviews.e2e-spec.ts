import type { Activity, Comment, CreatePullReviewOptions, Issue, PullRequest, PullReview, PullReviewComment, PullReviewRequestOptions, Repository } from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { Api, createUser, giteaError, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { addToTeam, createOrg, createTeam } from './support/accounts.js';
import { addCollaborator, createIssue, createRepo } from './support/repos.js';

describe.each(layoutsUnderTest())('pull request reviews (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  /** Owner of the repositories. */
  let alice: TestUser;
  /** A writer. */
  let bob: TestUser;
  /** An outsider. */
  let eve: TestUser;
  let repo: Repository;
  let hidden: Repository;
  let issue: Issue;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    [alice, bob, eve] = await Promise.all([createUser(api, 'alice'), createUser(api, 'bob'), createUser(api, 'eve')]);
    [repo, hidden] = await Promise.all([createRepo(alice.api), createRepo(alice.api, { private: true })]);
    await addCollaborator(alice.api, repo, bob, 'write');
    issue = await createIssue(alice.api, repo, { title: 'not a pull' });
  });

  afterAll(async () => {
    await layout?.stop();
  });

  describe('routes of something that is no pull', () => {
    it('should answer 404 for the reviews of an issue, and for a pull of a private repository to outsiders', async () => {
      expect((await bob.api.get(`/repos/${repo.full_name}/pulls/${issue.number}/reviews`)).status).toBe(404);
      expect((await bob.api.get(`/repos/${repo.full_name}/pulls/${issue.number}/reviews/1`)).status).toBe(404);
      expect((await eve.api.get(`/repos/${hidden.full_name}/pulls/1/reviews`)).status).toBe(404);
      const body = { event: 'COMMENT', body: 'hi' } satisfies CreatePullReviewOptions;
      expect((await eve.api.post(`/repos/${hidden.full_name}/pulls/1/reviews`, body)).status).toBe(404);
      expect((await bob.api.post(`/repos/${repo.full_name}/pulls/${issue.number}/reviews`, body)).status).toBe(404);
    });

    it('should need a token to write (401) and validate the body (422)', async () => {
      const anonymous = new Api(layout);
      expect((await anonymous.post(`/repos/${repo.full_name}/pulls/${issue.number}/reviews`, { event: 'COMMENT', body: 'x' })).status).toBe(401);
      const bad = await bob.api.post(`/repos/${repo.full_name}/pulls/${issue.number}/reviews`, { comments: 'not a list' });
      expect(bad.status).toBe(422);
      // A thousand line comments at most: a body of tens of thousands held issue-service for seconds.
      const tooMany = Array.from({ length: 1001 }, () => ({ path: 'README.md', body: 'x', new_position: 1 }));
      const crowded = await bob.api.post(`/repos/${repo.full_name}/pulls/${issue.number}/reviews`, { event: 'COMMENT', comments: tooMany });
      expect(crowded.status).toBe(422);
      expect(crowded.body).toEqual(expect.objectContaining({ message: expect.stringMatching(/Comments/), url: expect.any(String) }));
      const reviewers = await bob.api.post(`/repos/${repo.full_name}/pulls/${issue.number}/requested_reviewers`, { reviewers: [3] });
      expect(reviewers.status).toBe(422);
      const ok = { reviewers: [eve.username] } satisfies PullReviewRequestOptions;
      expect((await bob.api.post(`/repos/${repo.full_name}/pulls/${issue.number}/requested_reviewers`, ok)).status).toBe(404);
    });

    it('should resolve only review comments: 404 for an unknown one, 400 for a plain comment', async () => {
      expect((await bob.api.post(`/repos/${repo.full_name}/pulls/comments/999999/resolve`)).status).toBe(404);
      const comment = (await alice.api.post<Comment>(`/repos/${repo.full_name}/issues/${issue.number}/comments`, { body: 'plain' })).body;
      const res = await bob.api.post(`/repos/${repo.full_name}/pulls/comments/${comment.id}/resolve`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(giteaError('comment is not a review comment'));
      expect((await eve.api.post(`/repos/${hidden.full_name}/pulls/comments/${comment.id}/unresolve`)).status).toBe(404);
    });
  });

  describe('line comments and their replies', () => {
    let code: Repository;
    let pull: PullRequest;

    beforeAll(async () => {
      code = await createRepo(alice.api, { auto_init: true });
      await addCollaborator(alice.api, code, bob, 'write');
      const content = Buffer.from('one\ntwo\nthree\n').toString('base64');
      const file = await bob.api.post(`/repos/${code.full_name}/contents/lines.txt`, { content, branch: 'main', new_branch: 'lines', message: 'lines' });
      expect(file.status).toBe(201);
      const opened = await bob.api.post<PullRequest>(`/repos/${code.full_name}/pulls`, { head: 'lines', base: 'main', title: 'three lines' });
      expect(opened.status).toBe(201);
      pull = opened.body;
    });

    it('should keep a line comment with its hunk, take replies in its conversation, and record both in the feed', async () => {
      const at = `/repos/${code.full_name}/pulls/${pull.number}`;
      const review = await alice.api.post<PullReview>(`${at}/reviews`, {
        event: 'COMMENT',
        body: '',
        comments: [{ path: 'lines.txt', body: 'why two?', new_position: 2 }],
      } satisfies CreatePullReviewOptions);
      expect(review.status).toBe(200);
      expect(review.body).toMatchObject({ state: 'COMMENT', comments_count: 1 });
      // A pull with reviews shows review_comments, in a list of pulls as on its own (Gitea's omitempty).
      expect((await bob.api.get<PullRequest>(at)).body.review_comments).toBe(1);
      const listed = (await bob.api.get<PullRequest[]>(`/repos/${code.full_name}/pulls?state=open`)).body.find((p) => p.number === pull.number);
      expect(listed?.review_comments).toBe(1);
      const [line] = (await bob.api.get<PullReviewComment[]>(`${at}/reviews/${review.body.id}/comments`)).body;
      expect(line).toMatchObject({ path: 'lines.txt', position: 2, body: 'why two?', pull_request_review_id: review.body.id });
      expect(line!.diff_hunk).toContain('+two');
      // Reviewers and line comments' posters are shown as the caller sees them (Gitea's ToPullReview and ToPullReviewComment take the doer).
      expect(review.body.user).toMatchObject({ login: alice.username, email: alice.email, active: true });
      expect(line!.user).toMatchObject({ login: alice.username, email: alice.email, active: false });
      const anonymous = new Api(layout);
      expect((await anonymous.get<PullReview>(`${at}/reviews/${review.body.id}`)).body.user?.email).toBe(`${alice.id}+${alice.username.toLowerCase()}@noreply.localhost`);

      // Gitea counts the conversation (reviews and plain comments) when a comment or a line comment outside a pending review comes, not when a review is submitted.
      expect((await bob.api.get<PullRequest>(at)).body.comments).toBe(0);
      const reply = await bob.api.post<PullReviewComment>(`${at}/comments/${line!.id}/replies`, { body: 'because @' + alice.username + ' asked' });
      expect(reply.status).toBe(201);
      expect((await bob.api.get<PullRequest>(at)).body.comments).toBe(1);
      expect(reply.body).toMatchObject({
        path: 'lines.txt',
        position: 2,
        commit_id: line!.commit_id,
        diff_hunk: line!.diff_hunk,
        pull_request_review_id: review.body.id,
        user: { login: bob.username },
      });
      const thread = (await alice.api.get<PullReviewComment[]>(`${at}/reviews/${review.body.id}/comments`)).body;
      expect(thread.map((c) => c.body)).toEqual(['why two?', `because @${alice.username} asked`]);

      // The review's line comment and the reply are each a comment_pull entry; a comment review without a body has no verdict entry.
      const feed = await expectEventually(async () => {
        const res = await alice.api.get<Activity[]>(`/repos/${code.full_name}/activities/feeds`);
        const comments = res.body.filter((a) => a.op_type === 'comment_pull');
        expect(comments.map((a) => a.comment_id).sort()).toEqual([line!.id, reply.body.id].sort());
        return comments;
      });
      expect(feed.find((a) => a.comment_id === reply.body.id)).toMatchObject({ content: `${pull.number}|because @${alice.username} asked`, act_user: { login: bob.username } });
      expect(feed.find((a) => a.comment_id === line!.id)).toMatchObject({ content: `${pull.number}|why two?`, act_user: { login: alice.username } });
      expect((await bob.api.post(`/repos/${code.full_name}/issues/${pull.number}/comments`, { body: 'and a plain one' })).status).toBe(201);
      expect((await bob.api.get<Issue>(`/repos/${code.full_name}/issues/${pull.number}`)).body.comments).toBe(2);
    });

    it('should answer 404 for replies to what is no line comment of the pull, 401 without a token, 422 without a body', async () => {
      const at = `/repos/${code.full_name}/pulls/${pull.number}`;
      expect((await bob.api.post(`${at}/comments/999999/replies`, { body: 'x' })).status).toBe(404);
      const plain = (await alice.api.post<Comment>(`/repos/${code.full_name}/issues/${pull.number}/comments`, { body: 'plain' })).body;
      expect((await bob.api.post(`${at}/comments/${plain.id}/replies`, { body: 'x' })).status).toBe(404);
      const review = await alice.api.post<PullReview>(`${at}/reviews`, { event: 'PENDING', body: 'draft', comments: [{ path: 'lines.txt', body: 'pending', new_position: 1 }] });
      expect(review.body).toMatchObject({ state: 'PENDING' });
      const [pending] = (await alice.api.get<PullReviewComment[]>(`${at}/reviews/${review.body.id}/comments`)).body;
      // Another reviewer's pending review is invisible, its comments too.
      expect((await bob.api.post(`${at}/comments/${pending!.id}/replies`, { body: 'x' })).status).toBe(404);
      expect((await new Api(layout).post(`${at}/comments/${pending!.id}/replies`, { body: 'x' })).status).toBe(401);
      expect((await alice.api.post(`${at}/comments/${pending!.id}/replies`, { body: '  ' })).status).toBe(422);
      expect((await alice.api.post(`${at}/comments/${pending!.id}/replies`, { body: 5 })).status).toBe(422);
      expect((await eve.api.post(`/repos/${hidden.full_name}/pulls/1/comments/${pending!.id}/replies`, { body: 'x' })).status).toBe(404);
      const own = await alice.api.post<PullReviewComment>(`${at}/comments/${pending!.id}/replies`, { body: 'more' });
      expect(own.status).toBe(201);
      expect(own.body.pull_request_review_id).toBe(review.body.id);
    });

    it('should dismiss a verdict for repository admins, with priors every other undismissed review of its reviewer, and undismiss it', async () => {
      const at = `/repos/${code.full_name}/pulls/${pull.number}`;
      const note = (await alice.api.post<PullReview>(`${at}/reviews`, { event: 'COMMENT', body: 'a note first' })).body;
      const approval = (await alice.api.post<PullReview>(`${at}/reviews`, { event: 'APPROVED', body: 'fine' })).body;
      const dismissals = `${at}/reviews/${approval.id}/dismissals`;
      expect(await bob.api.post(dismissals, { message: 'no' })).toMatchObject({ status: 403, body: giteaError('Must be repo admin') });
      expect(await alice.api.post(`${at}/reviews/${note.id}/dismissals`, {})).toMatchObject({
        status: 403,
        body: giteaError("not need to dismiss this review because it's type is not Approve or change request"),
      });
      const dismissed = await alice.api.post<PullReview>(dismissals, { message: 'stale', priors: true });
      expect(dismissed.status).toBe(200);
      expect(dismissed.body).toMatchObject({ id: approval.id, dismissed: true });
      // Gitea's DismissReview with priors takes every undismissed review of the reviewer, whatever its kind.
      expect((await alice.api.get<PullReview>(`${at}/reviews/${note.id}`)).body.dismissed).toBe(true);
      const undismissed = await alice.api.post<PullReview>(`${at}/reviews/${approval.id}/undismissals`, {});
      expect(undismissed.body).toMatchObject({ id: approval.id, dismissed: false });
    });
  });

  it('should ask teams of the organization for reviews at creation, shown with their organization', async () => {
    const org = await createOrg(alice.api);
    const team = await createTeam(alice.api, org.username, { permission: 'read', units: ['repo.code', 'repo.pulls'] });
    await addToTeam(alice.api, team.id, bob);
    const repo = await createRepo(alice.api, { auto_init: true }, org.username);
    const content = Buffer.from('x\n').toString('base64');
    expect((await alice.api.post(`/repos/${repo.full_name}/contents/x.txt`, { content, branch: 'main', new_branch: 'ask-team', message: 'x' })).status).toBe(201);
    const opened = await alice.api.post<PullRequest>(`/repos/${repo.full_name}/pulls`, { head: 'ask-team', base: 'main', title: 'for the team', team_reviewers: [team.name] });
    expect(opened.status).toBe(201);
    // Gitea's ToAPIPullRequest shows requested teams with their organization (ToTeam with loadOrg).
    expect(opened.body.requested_reviewers_teams).toEqual([expect.objectContaining({ id: team.id, name: team.name, organization: expect.objectContaining({ id: org.id, username: org.username }) })]);
    const got = await bob.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${opened.body.number}`);
    expect(got.body.requested_reviewers_teams?.[0]?.organization?.username).toBe(org.username);
    const unknown = await alice.api.post(`/repos/${repo.full_name}/pulls/${opened.body.number}/requested_reviewers`, { team_reviewers: ['no-such-team'] });
    expect(unknown).toMatchObject({ status: 404, body: giteaError("team doesn't exist: no-such-team") });
    const nobody = await alice.api.post(`/repos/${repo.full_name}/pulls/${opened.body.number}/requested_reviewers`, { reviewers: ['no-such-user'] });
    expect(nobody).toMatchObject({ status: 404, body: giteaError("user doesn't exist: no-such-user") });
  });
});
