import type { Comment, CommentEventPayload, EventEnvelope, FeedEvents, IssueEventPayload, PayloadCommit, RepoUnitKey, Repository } from '@gitforge/contracts';

/** One feed entry an event produces (before it is copied to each receiver). */
export interface ActionSpec {
  opType: string;
  actUserId: number;
  repo: Repository;
  refName: string;
  content: string;
  commentId: number;
  /** A comment entry's comment, as the event shows it. */
  comment?: Comment;
}

/** Gitea's UI.FEED_MAX_COMMIT_NUM: commits kept in a push entry's content. */
const FEED_MAX_COMMITS = 5;
const ZERO_SHA = /^0+$/;

/** Gitea's PushCommit as stored in a commit_repo entry's content (Go field names). */
function pushCommit(c: PayloadCommit): Record<string, string> {
  return {
    Sha1: c.id,
    Message: c.message,
    AuthorEmail: c.author.email,
    AuthorName: c.author.name,
    CommitterEmail: c.committer.email,
    CommitterName: c.committer.name,
    Timestamp: c.timestamp,
  };
}

/**
 * The content Gitea writes for a branch push: the newest commits, the head, and the compare link
 * (relative to the site root) whenever the branch existed before, one commit or many
 * (services/repository/push.go). A new branch's link, which Gitea derives from the oldest
 * listed commit's parent, is left out.
 */
function pushContent(commits: PayloadCommit[], head: PayloadCommit | null, total: number, before: string, compareUrl: string, rootUrl: string): string {
  return JSON.stringify({
    Commits: commits.slice(0, FEED_MAX_COMMITS).map(pushCommit),
    HeadCommit: head ? pushCommit(head) : null,
    CompareURL: !ZERO_SHA.test(before) && compareUrl.startsWith(rootUrl) ? compareUrl.slice(rootUrl.length) : '',
    Len: total,
  });
}

/**
 * A pushed tag's content (new or moved alike): no commit list, its commit as head, and a compare
 * link from the empty id, as Gitea's pushUpdates writes for every tag it did not delete.
 */
function tagContent(repo: Repository, head: PayloadCommit | null, after: string): string {
  return JSON.stringify({
    Commits: null,
    HeadCommit: head ? pushCommit(head) : null,
    CompareURL: `${encodeURIComponent(repo.owner.login)}/${encodeURIComponent(repo.name)}/compare/${'0'.repeat(after.length)}...${after}`,
    Len: 0,
  });
}

/** Gitea's NewPushCommits() as JSON: a deleted tag's content. */
const EMPTY_PUSH = JSON.stringify({ Commits: null, HeadCommit: null, CompareURL: '', Len: 0 });

/** One builder for each event of the feeds queue's list (FeedEvents), and none for another. */
type Builders = { [N in (typeof FeedEvents)[number]]: (e: EventEnvelope<N>, rootUrl: string) => ActionSpec[] };

/** An issue or pull request entry: content `<index>|<text>` (services/feed/notifier.go). */
function issueAction(opType: string, p: IssueEventPayload | CommentEventPayload, text: string): ActionSpec {
  return { opType, actUserId: p.sender.id, repo: p.repository, refName: '', content: `${p.issue.number}|${text}`, commentId: 0 };
}

/** A text's first line, as Gitea cuts comment and review contents for the feed. */
const firstLine = (text: string): string => text.split('\n')[0]!.replace(/\r$/, '');

/** A comment's entry: its first line, its id, and the comment as the event shows it. */
function commentAction(opType: string, p: IssueEventPayload | CommentEventPayload, c: Comment): ActionSpec {
  return { ...issueAction(opType, p, firstLine(c.body)), commentId: c.id, comment: c };
}

/** The feed op of a submitted review's own entry, by its hook event type. */
const REVIEW_OPS: Record<string, string> = {
  pull_request_review_approved: 'approve_pull_request',
  pull_request_review_rejected: 'reject_pull_request',
  pull_request_review_comment: 'comment_pull',
};

/**
 * A submitted review's entries (Gitea's feed PullRequestReview), all by the reviewer: a
 * comment_pull for each code comment, then the verdict (approve/reject/comment_pull, content the
 * review's first line) unless it is a comment review with an empty body. A dismissal records
 * nothing: Gitea's feed dismissal handler is never called.
 */
function reviewActions(p: IssueEventPayload): ActionSpec[] {
  const review = p.review;
  const op = review ? REVIEW_OPS[review.type] : undefined;
  if (p.action !== 'reviewed' || !review || !op) return [];
  const specs = (p.review_code_comments ?? []).map((c) => commentAction('comment_pull', p, c));
  if (op !== 'comment_pull' || review.content.trim() !== '') {
    const c = p.review_comment ?? null;
    specs.push({ ...issueAction(op, p, firstLine(review.content)), ...(c ? { commentId: c.id, comment: c } : {}) });
  }
  return specs;
}

/**
 * The one table from domain events to feed entries, with Gitea's op_type names and contents
 * (services/feed/notifier.go). Issue events of pull requests make their pull request entries.
 * Stars, watches and transfers add one entry each when their events exist
 * (star_repo, watch_repo, transfer_repo).
 */
export const FeedActions: Builders = {
  // A fork writes repo.created too: Gitea's feed records a fork as create_repo, and repo.forked adds nothing.
  'repo.created': (e) => [
    { opType: 'create_repo', actUserId: e.payload.sender.id, repo: e.payload.repository, refName: '', content: '', commentId: 0 },
  ],
  'repo.renamed': (e) => [
    { opType: 'rename_repo', actUserId: e.payload.sender.id, repo: e.payload.repository, refName: '', content: e.payload.oldName, commentId: 0 },
  ],
  // Gitea's feed TransferRepository: the content is the old full name.
  'repo.transferred': (e) => [
    {
      opType: 'transfer_repo',
      actUserId: e.payload.sender.id,
      repo: e.payload.repository,
      refName: '',
      content: `${e.payload.oldOwner}/${e.payload.repository.name}`,
      commentId: 0,
    },
  ],
  'repo.pushed': (e, rootUrl) => {
    const p = e.payload;
    if (ZERO_SHA.test(p.after)) return [];
    const isTag = p.ref.startsWith('refs/tags/');
    return [
      {
        opType: isTag ? 'push_tag' : 'commit_repo',
        actUserId: p.pusher.id,
        repo: p.repository,
        refName: p.ref,
        content: isTag ? tagContent(p.repository, p.head_commit, p.after) : pushContent(p.commits, p.head_commit, p.total_commits, p.before, p.compare_url, rootUrl),
        commentId: 0,
      },
    ];
  },
  // A new tag's push_tag comes from its repo.pushed (Gitea's feed CreateRef skips tags too).
  'repo.ref_created': (e) => {
    const p = e.payload;
    return p.ref_type === 'tag' ? [] : [{ opType: 'commit_repo', actUserId: p.sender.id, repo: p.repository, refName: `refs/heads/${p.ref}`, content: '', commentId: 0 }];
  },
  'repo.ref_deleted': (e) => {
    const p = e.payload;
    return p.ref_type === 'tag'
      ? [{ opType: 'delete_tag', actUserId: p.sender.id, repo: p.repository, refName: `refs/tags/${p.ref}`, content: EMPTY_PUSH, commentId: 0 }]
      : [{ opType: 'delete_branch', actUserId: p.sender.id, repo: p.repository, refName: `refs/heads/${p.ref}`, content: '', commentId: 0 }];
  },
  'issue.opened': (e) => [issueAction(e.payload.is_pull ? 'create_pull_request' : 'create_issue', e.payload, e.payload.issue.title)],
  'issue.closed': (e) => [issueAction(e.payload.is_pull ? 'close_pull_request' : 'close_issue', e.payload, '')],
  'issue.reopened': (e) => [issueAction(e.payload.is_pull ? 'reopen_pull_request' : 'reopen_issue', e.payload, '')],
  'pull.merged': (e) => [issueAction(e.payload.auto_merged ? 'auto_merge_pull_request' : 'merge_pull_request', e.payload, e.payload.issue.title)],
  'pull.reviewed': (e) => reviewActions(e.payload),
  // Gitea's feed NewRelease: by the publisher, the tag as ref name, the title as content.
  'release.published': (e) => [
    { opType: 'publish_release', actUserId: e.payload.release.author.id, repo: e.payload.repository, refName: e.payload.release.tag_name, content: e.payload.release.name, commentId: 0 },
  ],
  'comment.created': (e) => [commentAction(e.payload.is_pull ? 'comment_pull' : 'comment_issue', e.payload, e.payload.comment)],
};

/**
 * What a comment's later events do to its entries: an edit shows the comment anew (Gitea shows
 * the live comment), a deletion takes the entries away (Gitea flags them deleted and hides them).
 */
export type CommentEntryChange = { commentId: number; comment: Comment } | { commentId: number; comment: null };

export function commentEntryChangeOf(envelope: EventEnvelope): CommentEntryChange | null {
  if (envelope.name === 'comment.edited') {
    const { comment } = (envelope as EventEnvelope<'comment.edited'>).payload;
    return { commentId: comment.id, comment };
  }
  if (envelope.name === 'comment.deleted') return { commentId: (envelope as EventEnvelope<'comment.deleted'>).payload.comment.id, comment: null };
  return null;
}

/**
 * Whether `incoming` may replace the comment an entry stores: events can be handled out of
 * order, and an older edit must not hide a newer one.
 */
export function supersedes(stored: Comment | null, incoming: Comment): boolean {
  return stored === null || Date.parse(stored.updated_at) <= Date.parse(incoming.updated_at);
}

export function feedActionsOf(envelope: EventEnvelope, rootUrl: string): ActionSpec[] {
  const builder = (FeedActions as Partial<Record<string, (e: EventEnvelope, rootUrl: string) => ActionSpec[]>>)[envelope.name];
  return builder ? builder(envelope, rootUrl) : [];
}

const CODE_OPS = new Set(['commit_repo', 'push_tag', 'delete_tag', 'publish_release', 'delete_branch']);
const ISSUE_OPS = new Set(['create_issue', 'comment_issue', 'close_issue', 'reopen_issue']);
const PULL_OPS = new Set(['create_pull_request', 'comment_pull', 'merge_pull_request', 'close_pull_request', 'reopen_pull_request', 'auto_merge_pull_request']);

/**
 * The unit a watcher must be able to read to get an entry in their feed (Gitea's notifyWatchers):
 * code for pushes, tags, branches and releases, issues and pulls for theirs; null for the rest
 * (repository changes, reviews), which every watcher gets.
 */
export function watcherUnitOf(opType: string): RepoUnitKey | null {
  if (CODE_OPS.has(opType)) return 'repo.code';
  if (ISSUE_OPS.has(opType)) return 'repo.issues';
  if (PULL_OPS.has(opType)) return 'repo.pulls';
  return null;
}

/**
 * Whose feeds an entry goes to (Gitea's notifyWatchers): the actor's, the repository owner's (the
 * organization's feed, or the owning user's), and those of the repository's watchers who may read
 * what it is about (`watchers`, see {@link watcherUnitOf}).
 */
export function receiversOf(spec: ActionSpec, watchers: number[] = []): number[] {
  return [...new Set([spec.actUserId, spec.repo.owner.id, ...watchers])];
}
