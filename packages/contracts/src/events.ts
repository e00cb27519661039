import type { Actor } from './actor.js';
import type {
  Comment,
  CommitStatusPayload,
  CreatePayload,
  DeletePayload,
  ForkPayload,
  Issue,
  Label,
  Organization,
  PackagePayload,
  PullRequest,
  PushPayload,
  ReleasePayload,
  Repository,
  Team,
  User,
} from './api/index.js';

/**
 * A domain event as written to a service's outbox and carried by the queues.
 * Consumers are idempotent by `id`.
 */
export interface EventEnvelope<N extends EventName = EventName> {
  id: string;
  name: N;
  version: number;
  occurredAt: string;
  actor: Pick<Actor, 'id' | 'login'> | null;
  repoId: number | null;
  payload: EventPayloads[N];
}

/** Event names: `<aggregate>.<past-tense>`. */
export const EventNames = {
  userCreated: 'user.created',
  /** A user or an organization took a new name (its repositories follow it by id). */
  accountRenamed: 'account.renamed',
  orgCreated: 'org.created',
  repoCreated: 'repo.created',
  repoDeleted: 'repo.deleted',
  repoRenamed: 'repo.renamed',
  /** A repository changed owner (a transfer completed); `oldOwner` is the previous owner's login. */
  repoTransferred: 'repo.transferred',
  /** A transfer waits for its recipient to accept or reject it (Gitea's RepoPendingTransfer notification). */
  repoTransferPending: 'repo.transfer_pending',
  /** A repository was forked: `forkee` is the new fork, `repository` the one forked. */
  repoForked: 'repo.forked',
  /** Commits pushed to (or a ref moved on) an existing or new ref; one per updated ref. */
  repoPushed: 'repo.pushed',
  /** A branch or tag came into existence (by push or API). */
  refCreated: 'repo.ref_created',
  /** A branch or tag was deleted (by push or API). */
  refDeleted: 'repo.ref_deleted',
  /** A commit status was reported (`POST /repos/{o}/{r}/statuses/{sha}`). */
  statusCreated: 'commit_status.created',
  /** An issue (or pull request) was opened. */
  issueOpened: 'issue.opened',
  /** Its title, body or ref changed (`changes` says what it was). */
  issueEdited: 'issue.edited',
  issueClosed: 'issue.closed',
  issueReopened: 'issue.reopened',
  issueDeleted: 'issue.deleted',
  /** Assignees changed: action `assigned` or `unassigned`, one event per user. */
  issueAssigned: 'issue.assigned',
  /** Labels changed: action `label_updated` or `label_cleared`. */
  issueLabeled: 'issue.labeled',
  /** Milestone changed: action `milestoned` or `demilestoned`. */
  issueMilestoned: 'issue.milestoned',
  /** The head of a pull request moved (a push to its head branch, or an update from its base). */
  pullSynchronized: 'pull.synchronized',
  /**
   * A pull request was merged (Gitea's pull_request `closed` with `merged: true`); emitted instead
   * of `issue.closed`, as Gitea's merge notifies only the merge.
   */
  pullMerged: 'pull.merged',
  /** Review requested or its request removed: action `review_requested` or `review_request_removed`. */
  pullReviewRequested: 'pull.review_requested',
  /**
   * A review was submitted (action `reviewed`) or dismissed (action `review_dismissed`). Gitea
   * sends no webhook and records no feed entry for a dismissal (its feed notifier's dismissal
   * method is misnamed and never called); the event is there for consumers that want it.
   */
  pullReviewed: 'pull.reviewed',
  /** A release was published (created as a non-draft, or a draft made public). */
  releasePublished: 'release.published',
  /** A published release changed. */
  releaseUpdated: 'release.updated',
  /** A published release was deleted (its tag stays). */
  releaseDeleted: 'release.deleted',
  /** A package version was published (Gitea's package `created`). */
  packageCreated: 'package.created',
  /** A package version was deleted (Gitea's package `deleted`). */
  packageDeleted: 'package.deleted',
  commentCreated: 'comment.created',
  commentEdited: 'comment.edited',
  commentDeleted: 'comment.deleted',
} as const;
export type EventName = (typeof EventNames)[keyof typeof EventNames];

/** Payloads carry what consumers need as it was at the moment of the event. */
export interface EventPayloads {
  'user.created': { user: User };
  /** `ownerId`'s login was `oldName` and is `newName`; consumers that keep the name ask for the current one. */
  'account.renamed': { ownerId: number; oldName: string; newName: string };
  'org.created': { organization: Organization; sender: User };
  'repo.created': { repository: Repository; organization: Organization | null; sender: User };
  'repo.deleted': { repository: Repository; organization: Organization | null; sender: User };
  'repo.renamed': { repository: Repository; oldName: string; sender: User };
  /** `repository` as it is now (its new owner); `oldOwner` and `oldOwnerId` name the owner it left. */
  'repo.transferred': { repository: Repository; oldOwner: string; oldOwnerId: number; oldOwnerIsOrg: boolean; sender: User };
  /** `repository` where it still is; `recipientId` is the user or organization it would go to. */
  'repo.transfer_pending': { repository: Repository; recipientId: number; recipientIsOrg: boolean; sender: User };
  /**
   * `repository` is the repository forked, `forkee` the new fork. Gitea's ForkPayload on the wire
   * has them the other way round; the webhook worker sends Gitea's order. A fork also writes
   * `repo.created` for the new repository (Gitea's feed and organization hooks see a creation).
   */
  'repo.forked': ForkPayload;
  /**
   * Shaped so the webhook worker can send Gitea's push payload as is: `ref` is the full ref name,
   * `commits` newest first (at most the newest 20, as Gitea's webhook limit), `total_commits` all of them.
   */
  'repo.pushed': PushPayload & {
    /**
     * The index of this repository's pull request whose merge the push is (not in Gitea's payload:
     * webhooks and workflows leave it out). The merge records the pull itself, so consumers that
     * recompute the base's open pulls leave that one out.
     */
    merged_pull?: number;
  };
  /** `ref` is the short name (`main`, `v1.0`), as Gitea's create payload. */
  'repo.ref_created': CreatePayload & { ref_type: 'branch' | 'tag' };
  /** `renamed_to`: the deletion is a rename's, to that name (not in Gitea's payload: webhooks leave it out). */
  'repo.ref_deleted': DeletePayload & { ref_type: 'branch' | 'tag'; renamed_to?: string };
  /**
   * Gitea's CommitStatusPayload as is: `id` is the status row's id (not the per-commit index the
   * API shows), `commit` the commit as a push payload shows it, times in UTC.
   */
  'commit_status.created': CommitStatusPayload;
  'issue.opened': IssueEventPayload;
  'issue.edited': IssueEventPayload;
  'issue.closed': IssueEventPayload;
  'issue.reopened': IssueEventPayload;
  'issue.deleted': IssueEventPayload;
  'issue.assigned': IssueEventPayload;
  'issue.labeled': IssueEventPayload;
  'issue.milestoned': IssueEventPayload;
  'pull.synchronized': IssueEventPayload;
  'pull.merged': IssueEventPayload;
  'pull.review_requested': IssueEventPayload;
  'pull.reviewed': IssueEventPayload;
  /** Gitea's ReleasePayload as is: the release as the API shows it, the repository as the sender sees it. */
  'release.published': ReleaseEventPayload;
  'release.updated': ReleaseEventPayload;
  'release.deleted': ReleaseEventPayload;
  'package.created': PackageEventPayload;
  'package.deleted': PackageEventPayload;
  'comment.created': CommentEventPayload;
  'comment.edited': CommentEventPayload;
  'comment.deleted': CommentEventPayload;
}

/** What an issue changed from (Gitea's ChangesPayload). */
export interface IssueChanges {
  title?: { from: string };
  body?: { from: string };
  ref?: { from: string };
  added_labels?: Label[] | null;
  removed_labels?: Label[] | null;
}

/**
 * An issue event as Gitea's IssuePayload carries it: the issue as it is after the change, the
 * repository as its owner sees it, the sender as anyone does. `is_pull` selects the
 * pull_request_* webhook twins.
 */
export interface IssueEventPayload {
  action: string;
  index: number;
  issue: Issue;
  repository: Repository;
  sender: User;
  changes?: IssueChanges;
  /** For `assigned`/`unassigned`: the user concerned. */
  assignee?: User;
  is_pull: boolean;
  /** For pull requests: the pull request as it is after the change (Gitea's PullRequestPayload). */
  pull_request?: PullRequest;
  /** For `review_requested`/`review_request_removed`: the user or team asked. */
  requested_reviewer?: User | null;
  requested_team?: Team | null;
  /** For `reviewed`: Gitea's ReviewPayload (`type` is the hook event type, e.g. pull_request_review_approved). */
  review?: { type: string; content: string };
  /** For `synchronized`: the head before and after. */
  before?: string;
  after?: string;
  /**
   * For `reviewed`: the review's own comment (Gitea's review comment, whose body is the review's
   * content), null when the review has none; a feed entry links to it.
   */
  review_comment?: Comment | null;
  /** For `reviewed`: the code comments the review submitted (each makes a comment_pull feed entry). */
  review_code_comments?: Comment[];
  /** For `pull.merged`: the merge was the scheduled auto-merge (feed op auto_merge_pull_request). */
  auto_merged?: boolean;
}

/** A comment event (Gitea's IssueCommentPayload). */
export interface CommentEventPayload {
  action: 'created' | 'edited' | 'deleted';
  issue: Issue;
  comment: Comment;
  repository: Repository;
  sender: User;
  changes?: { body: { from: string } };
  is_pull: boolean;
}

export const CURRENT_EVENT_VERSION = 1;

/**
 * Gitea's PackagePayload as is (the package version as the API shows it to anyone, its linked
 * repository or null) plus the owner's id, which picks the owner's hooks.
 */
export interface PackageEventPayload extends PackagePayload {
  ownerId: number;
  /**
   * The linked repository's id (0 when none), whose hooks get the event even when `repository`
   * is null because it is private (Gitea's EventSource.Repository). Absent in events written before.
   */
  repoId?: number;
}

export type ReleaseEventPayload = ReleasePayload;
