import type { Comment, CreatePullReviewOptions, Issue, PullReviewRequestOptions, Repository } from '@gitforge/contracts';
import { Api, createUser, giteaError, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
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
});
