import { EventConsumers, FeedEvents, FeedUpkeepEvents, QueueNames, type IssueEventPayload } from '@gitforge/contracts';
import { comment, commit, envelope, issue, pull, repo, ROOT, user } from '../../test/fixtures.js';
import { commentEntryChangeOf, FeedActions, feedActionsOf, receiversOf, supersedes } from './feed-actions.js';

const ann = user(1, 'ann');
const acme = user(9, 'acme');
const proj = repo(5, acme, 'proj', { private: true });
const ZERO = '0'.repeat(40);

function pushed(ref: string, before: string, commits = [commit('a'.repeat(40), 'one'), commit('b'.repeat(40), 'two')]) {
  return envelope('repo.pushed', {
    ref,
    before,
    after: 'a'.repeat(40),
    compare_url: `${ROOT}acme/proj/compare/x...y`,
    commits,
    total_commits: commits.length,
    head_commit: commits[0] ?? null,
    repository: proj,
    pusher: ann,
    sender: ann,
  });
}

describe('feed actions', () => {
  it('should have a builder for exactly the events the feeds queue is given, and be given the upkeep events too', () => {
    expect(Object.keys(FeedActions).sort()).toEqual([...FeedEvents].sort());
    const feeds = EventConsumers.find((c) => c.queue === QueueNames.feeds)!;
    expect([...(feeds.events ?? [])].sort()).toEqual([...FeedEvents, ...FeedUpkeepEvents].sort());
    expect(feeds.events).not.toContain('package.created');
    expect(feeds.events).not.toContain('status.created');
  });


  it('should record create_repo and rename_repo (content: the old name)', () => {
    expect(feedActionsOf(envelope('repo.created', { repository: proj, organization: null, sender: ann }), ROOT)).toEqual([
      { opType: 'create_repo', actUserId: 1, repo: proj, refName: '', content: '', commentId: 0 },
    ]);
    expect(feedActionsOf(envelope('repo.renamed', { repository: proj, oldName: 'old', sender: ann }), ROOT)).toMatchObject([
      { opType: 'rename_repo', content: 'old' },
    ]);
  });

  it('should record transfer_repo with the old full name as content', () => {
    expect(feedActionsOf(envelope('repo.transferred', { repository: proj, oldOwner: 'bea', oldOwnerId: 9, oldOwnerIsOrg: false, sender: ann }), ROOT)).toEqual([
      { opType: 'transfer_repo', actUserId: 1, repo: proj, refName: '', content: `bea/${proj.name}`, commentId: 0 },
    ]);
  });

  it("should record a branch push as commit_repo with Gitea's commit list content", () => {
    const [a] = feedActionsOf(pushed('refs/heads/main', 'c'.repeat(40)), ROOT);
    expect(a).toMatchObject({ opType: 'commit_repo', refName: 'refs/heads/main' });
    expect(JSON.parse(a!.content)).toEqual({
      Commits: [
        expect.objectContaining({ Sha1: 'a'.repeat(40), Message: 'one', AuthorName: 'Ann', AuthorEmail: 'ann@example.com' }),
        expect.objectContaining({ Sha1: 'b'.repeat(40), Message: 'two' }),
      ],
      HeadCommit: expect.objectContaining({ Sha1: 'a'.repeat(40) }),
      CompareURL: 'acme/proj/compare/x...y',
      Len: 2,
    });
  });

  it('should keep at most five commits in a push entry', () => {
    const commits = Array.from({ length: 8 }, (_, i) => commit(String(i).repeat(40), `c${i}`));
    const [a] = feedActionsOf(pushed('refs/heads/main', 'c'.repeat(40), commits), ROOT);
    expect(JSON.parse(a!.content)).toMatchObject({ Len: 8 });
    expect((JSON.parse(a!.content) as { Commits: unknown[] }).Commits).toHaveLength(5);
  });

  it('should link a single-commit branch push to its comparison too, but not a new branch', () => {
    const one = [commit('a'.repeat(40), 'one')];
    expect(JSON.parse(feedActionsOf(pushed('refs/heads/main', 'c'.repeat(40), one), ROOT)[0]!.content)).toMatchObject({ CompareURL: 'acme/proj/compare/x...y', Len: 1 });
    expect(JSON.parse(feedActionsOf(pushed('refs/heads/new', ZERO, one), ROOT)[0]!.content)).toMatchObject({ CompareURL: '' });
  });

  it('should record a pushed tag, new or moved, once, with its commit as head and a compare link from the empty id', () => {
    const head = commit('a'.repeat(40), 'tagged');
    for (const before of [ZERO, 'c'.repeat(40)]) {
      const [a, ...rest] = feedActionsOf(pushed('refs/tags/v1', before, [head]), ROOT);
      expect(rest).toEqual([]);
      expect(a).toMatchObject({ opType: 'push_tag', refName: 'refs/tags/v1' });
      expect(JSON.parse(a!.content)).toEqual({
        Commits: null,
        HeadCommit: expect.objectContaining({ Sha1: 'a'.repeat(40), Message: 'tagged' }),
        CompareURL: `acme/proj/compare/${ZERO}...${'a'.repeat(40)}`,
        Len: 0,
      });
    }
    expect(feedActionsOf(envelope('repo.ref_created', { ref: 'v1', ref_type: 'tag', sha: 'a'.repeat(40), repository: proj, sender: ann }), ROOT)).toEqual([]);
  });

  it('should record branch creation and deletions', () => {
    expect(feedActionsOf(envelope('repo.ref_created', { ref: 'dev', ref_type: 'branch', sha: 'a'.repeat(40), repository: proj, sender: ann }), ROOT)).toMatchObject([
      { opType: 'commit_repo', refName: 'refs/heads/dev', content: '' },
    ]);
    expect(feedActionsOf(envelope('repo.ref_deleted', { ref: 'dev', ref_type: 'branch', pusher_type: 'user', repository: proj, sender: ann }), ROOT)).toMatchObject([
      { opType: 'delete_branch', refName: 'refs/heads/dev' },
    ]);
    const [deleted] = feedActionsOf(envelope('repo.ref_deleted', { ref: 'v1', ref_type: 'tag', pusher_type: 'user', repository: proj, sender: ann }), ROOT);
    expect(deleted).toMatchObject({ opType: 'delete_tag', refName: 'refs/tags/v1' });
    expect(JSON.parse(deleted!.content)).toEqual({ Commits: null, HeadCommit: null, CompareURL: '', Len: 0 });
  });

  it("should give the entry to the actor and the repository's owner, once each", () => {
    const [a] = feedActionsOf(envelope('repo.created', { repository: proj, organization: null, sender: ann }), ROOT);
    expect(receiversOf(a!)).toEqual([1, 9]);
    const own = repo(6, ann, 'mine');
    const [b] = feedActionsOf(envelope('repo.created', { repository: own, organization: null, sender: ann }), ROOT);
    expect(receiversOf(b!)).toEqual([1]);
  });

  it('should record nothing for events without feed entries', () => {
    expect(feedActionsOf(envelope('user.created', { user: ann }), ROOT)).toEqual([]);
    expect(feedActionsOf(envelope('repo.forked', { forkee: repo(6, ann, 'proj', { fork: true }), repository: proj, sender: ann }), ROOT)).toEqual([]);
    const bug = issue(3, proj, ann);
    for (const name of ['issue.edited', 'issue.assigned', 'issue.labeled', 'issue.milestoned', 'issue.deleted'] as const) {
      expect(feedActionsOf(envelope(name, { action: 'x', index: 3, issue: bug, repository: proj, sender: ann, is_pull: false }), ROOT)).toEqual([]);
    }
  });

  it("should record issues opened, closed and reopened with Gitea's '<index>|<title>' contents, flagged private with their repository", () => {
    const bug = issue(3, proj, ann, { title: 'It breaks | badly' });
    const event = (name: 'issue.opened' | 'issue.closed' | 'issue.reopened', action: string, isPull = false) =>
      envelope(name, { action, index: 3, issue: bug, repository: proj, sender: ann, is_pull: isPull });
    expect(feedActionsOf(event('issue.opened', 'opened'), ROOT)).toEqual([
      { opType: 'create_issue', actUserId: 1, repo: proj, refName: '', content: '3|It breaks | badly', commentId: 0 },
    ]);
    expect(feedActionsOf(event('issue.closed', 'closed'), ROOT)).toMatchObject([{ opType: 'close_issue', content: '3|' }]);
    expect(feedActionsOf(event('issue.reopened', 'reopened'), ROOT)).toMatchObject([{ opType: 'reopen_issue', content: '3|' }]);
    expect(feedActionsOf(event('issue.opened', 'opened', true), ROOT)).toMatchObject([{ opType: 'create_pull_request', content: '3|It breaks | badly' }]);
    expect(feedActionsOf(event('issue.closed', 'closed', true), ROOT)).toMatchObject([{ opType: 'close_pull_request' }]);
    expect(feedActionsOf(event('issue.reopened', 'reopened', true), ROOT)).toMatchObject([{ opType: 'reopen_pull_request' }]);
  });

  it('should record a new comment with its first line, its id and the comment itself, and no new entry for edits and deletions', () => {
    const bug = issue(3, proj, ann);
    const c = comment(40, bug, ann, 'First line\r\nsecond line');
    const payload = { action: 'created' as const, issue: bug, comment: c, repository: proj, sender: ann, is_pull: false };
    expect(feedActionsOf(envelope('comment.created', payload), ROOT)).toEqual([
      { opType: 'comment_issue', actUserId: 1, repo: proj, refName: '', content: '3|First line', commentId: 40, comment: c },
    ]);
    expect(feedActionsOf(envelope('comment.created', { ...payload, is_pull: true }), ROOT)).toMatchObject([{ opType: 'comment_pull' }]);
    expect(feedActionsOf(envelope('comment.edited', { ...payload, action: 'edited' }), ROOT)).toEqual([]);
    expect(feedActionsOf(envelope('comment.deleted', { ...payload, action: 'deleted' }), ROOT)).toEqual([]);
  });

  describe('pull requests', () => {
    const bob = user(2, 'bob');
    const pr = issue(7, proj, ann, { title: 'Add the feature', pull_request: { merged: false, merged_at: null, draft: false, html_url: `${proj.html_url}/pulls/7` } });
    const event = (action: string, extra: Partial<IssueEventPayload> = {}): IssueEventPayload => ({
      action,
      index: 7,
      issue: pr,
      repository: proj,
      sender: bob,
      is_pull: true,
      pull_request: pull(pr, proj),
      ...extra,
    });

    it("should record a merge as merge_pull_request by the merger, '<index>|<title>', and a scheduled one as auto_merge_pull_request", () => {
      const merged = event('merged', { pull_request: pull(pr, proj, { merged: true, state: 'closed' }) });
      expect(feedActionsOf(envelope('pull.merged', merged), ROOT)).toEqual([
        { opType: 'merge_pull_request', actUserId: 2, repo: proj, refName: '', content: '7|Add the feature', commentId: 0 },
      ]);
      expect(feedActionsOf(envelope('pull.merged', { ...merged, auto_merged: true }), ROOT)).toMatchObject([
        { opType: 'auto_merge_pull_request', actUserId: 2, content: '7|Add the feature' },
      ]);
    });

    it.each([
      ['pull_request_review_approved', 'approve_pull_request'],
      ['pull_request_review_rejected', 'reject_pull_request'],
      ['pull_request_review_comment', 'comment_pull'],
    ])('should record a %s review as %s by the reviewer, with its first line and its comment', (type, opType) => {
      const verdict = comment(60, pr, bob, 'Looks right\nbut see below');
      const entries = feedActionsOf(envelope('pull.reviewed', event('reviewed', { review: { type, content: verdict.body }, review_comment: verdict })), ROOT);
      expect(entries).toEqual([{ opType, actUserId: 2, repo: proj, refName: '', content: '7|Looks right', commentId: 60, comment: verdict }]);
    });

    it('should record each code comment of a review as comment_pull before the verdict, and no verdict for a comment review without a body', () => {
      const c1 = comment(61, pr, bob, 'Off by one here\nreally');
      const c2 = comment(62, pr, bob, 'Typo');
      const verdict = comment(63, pr, bob, 'Please fix');
      const rejected = event('reviewed', { review: { type: 'pull_request_review_rejected', content: 'Please fix' }, review_comment: verdict, review_code_comments: [c1, c2] });
      expect(feedActionsOf(envelope('pull.reviewed', rejected), ROOT)).toEqual([
        { opType: 'comment_pull', actUserId: 2, repo: proj, refName: '', content: '7|Off by one here', commentId: 61, comment: c1 },
        { opType: 'comment_pull', actUserId: 2, repo: proj, refName: '', content: '7|Typo', commentId: 62, comment: c2 },
        { opType: 'reject_pull_request', actUserId: 2, repo: proj, refName: '', content: '7|Please fix', commentId: 63, comment: verdict },
      ]);
      const silent = event('reviewed', { review: { type: 'pull_request_review_comment', content: '  ' }, review_comment: comment(64, pr, bob, '  '), review_code_comments: [c1] });
      expect(feedActionsOf(envelope('pull.reviewed', silent), ROOT)).toEqual([
        { opType: 'comment_pull', actUserId: 2, repo: proj, refName: '', content: '7|Off by one here', commentId: 61, comment: c1 },
      ]);
      // An approval without a body still records the verdict (Gitea skips only empty comment reviews).
      expect(feedActionsOf(envelope('pull.reviewed', event('reviewed', { review: { type: 'pull_request_review_approved', content: '' } })), ROOT)).toEqual([
        { opType: 'approve_pull_request', actUserId: 2, repo: proj, refName: '', content: '7|', commentId: 0 },
      ]);
    });

    it('should record nothing for a dismissal (Gitea never calls its dismissal entry), a review request or a synchronization', () => {
      const approved = { type: 'pull_request_review_approved', content: 'ok' };
      expect(feedActionsOf(envelope('pull.reviewed', event('review_dismissed', { review: approved })), ROOT)).toEqual([]);
      expect(feedActionsOf(envelope('pull.reviewed', event('reviewed', { review: { type: 'pull_request_review_request', content: '' } })), ROOT)).toEqual([]);
      expect(feedActionsOf(envelope('pull.review_requested', event('review_requested', { requested_reviewer: ann })), ROOT)).toEqual([]);
      expect(feedActionsOf(envelope('pull.synchronized', event('synchronized', { before: 'a'.repeat(40), after: 'b'.repeat(40) })), ROOT)).toEqual([]);
    });

    it('should record opening, closing, reopening and comments of a pull request as its own op types', () => {
      expect(feedActionsOf(envelope('issue.opened', event('opened', { sender: ann })), ROOT)).toEqual([
        { opType: 'create_pull_request', actUserId: 1, repo: proj, refName: '', content: '7|Add the feature', commentId: 0 },
      ]);
      expect(feedActionsOf(envelope('issue.closed', event('closed')), ROOT)).toMatchObject([{ opType: 'close_pull_request', content: '7|' }]);
      expect(feedActionsOf(envelope('issue.reopened', event('reopened')), ROOT)).toMatchObject([{ opType: 'reopen_pull_request', content: '7|' }]);
      const c = comment(70, pr, bob, 'Nice');
      expect(feedActionsOf(envelope('comment.created', { action: 'created', issue: pr, comment: c, repository: proj, sender: bob, is_pull: true }), ROOT)).toEqual([
        { opType: 'comment_pull', actUserId: 2, repo: proj, refName: '', content: '7|Nice', commentId: 70, comment: c },
      ]);
    });
  });

  it("should make an edit show the comment anew and a deletion take the comment's entries away", () => {
    const bug = issue(3, proj, ann);
    const c = comment(40, bug, ann, 'changed');
    const payload = { action: 'edited' as const, issue: bug, comment: c, repository: proj, sender: ann, is_pull: false };
    expect(commentEntryChangeOf(envelope('comment.edited', payload))).toEqual({ commentId: 40, comment: c });
    expect(commentEntryChangeOf(envelope('comment.deleted', { ...payload, action: 'deleted' }))).toEqual({ commentId: 40, comment: null });
    expect(commentEntryChangeOf(envelope('comment.created', { ...payload, action: 'created' }))).toBeNull();
  });

  it('should never let an older edit replace a newer comment', () => {
    const bug = issue(3, proj, ann);
    const at = (updated_at: string) => ({ ...comment(40, bug, ann, updated_at), updated_at });
    expect(supersedes(null, at('2026-01-01T10:00:00Z'))).toBe(true);
    expect(supersedes(at('2026-01-01T10:00:00Z'), at('2026-01-01T10:00:05Z'))).toBe(true);
    expect(supersedes(at('2026-01-01T10:00:05Z'), at('2026-01-01T10:00:05Z'))).toBe(true);
    expect(supersedes(at('2026-01-01T10:00:05Z'), at('2026-01-01T10:00:00Z'))).toBe(false);
  });
});
