import {
  formatTime,
  type Attachment,
  type Comment,
  type Issue,
  type Label,
  type Milestone,
  type RepoAccess,
  type Repository,
  type Team,
  type TimelineComment,
  type TrackedTime,
  type User,
} from '@gitforge/contracts';
import type { IssueEntity } from '../issues/issue.entity.js';
import { issueHtmlUrl } from '../issues/issue.mapper.js';
import { CommentType, commentTypeName, xrefActionName } from './comment-type.js';
import { secToHours } from '../times/time-tracking.js';
import type { CommentEntity } from './comment.entity.js';

/** Everything of a comment that lives in other rows or services, gathered once per page. */
export interface CommentParts {
  poster: User;
  assets: Attachment[];
}

/** The issue a comment belongs to, as its URLs need it. */
export type CommentIssue = Pick<IssueEntity, 'idx' | 'isPull'>;

/** Gitea's Comment.HTMLURL: the issue's page, anchored at the comment. */
export function commentHtmlUrl(repository: Repository, issue: CommentIssue, commentId: number): string {
  return `${issueHtmlUrl(repository, issue)}#issuecomment-${commentId}`;
}

/** Gitea's IssueURL and PRURL: the issue's page in one of them, the other empty. */
function issueLinks(
  repository: Repository,
  issue: CommentIssue,
): { issue_url: string; pull_request_url: string } {
  const page = issueHtmlUrl(repository, issue);
  return issue.isPull ? { issue_url: '', pull_request_url: page } : { issue_url: page, pull_request_url: '' };
}

/** Gitea's ToAPIComment. */
export function toComment(
  c: CommentEntity,
  issue: CommentIssue,
  repo: RepoAccess,
  parts: CommentParts,
): Comment {
  return {
    id: c.id,
    html_url: commentHtmlUrl(repo.repository, issue, c.id),
    ...issueLinks(repo.repository, issue),
    user: parts.poster,
    original_author: c.originalAuthor,
    original_author_id: c.originalAuthorId,
    body: c.content,
    assets: parts.assets,
    created_at: formatTime(c.createdAt),
    updated_at: formatTime(c.updatedAt),
  };
}

/**
 * What an event row refers to, loaded once per page: its label, milestones, assignee and the
 * issue at the other end of a dependency. Missing ones (deleted, or unreadable) are null.
 */
export interface TimelineParts {
  poster: User;
  label?: Label | null;
  milestone?: Milestone | null;
  oldMilestone?: Milestone | null;
  assignee?: User | null;
  /** The team of a review request. */
  assigneeTeam?: Team | null;
  resolveDoer?: User | null;
  dependentIssue?: Issue | null;
  /** A cross reference's issue and comment (see CrossReferences). */
  refIssue?: Issue | null;
  refComment?: Comment | null;
  /** The tracked time a time-tracking row made (add_time_manual, stop_tracking). */
  trackedTime?: TrackedTime | null;
}

/** Time-tracking rows whose content is `|seconds`, shown as Gitea's SecToHours writes them. */
const SECONDS_CONTENT: ReadonlySet<number> = new Set([CommentType.add_time_manual, CommentType.stop_tracking, CommentType.delete_time_manual]);

/** A row's body as Gitea's ToTimelineComment shows it (time-tracking seconds as hours and minutes). */
function timelineBody(c: CommentEntity): string {
  if (!SECONDS_CONTENT.has(c.type) || !c.content.startsWith('|')) return c.content;
  const digits = c.content.slice(1);
  const seconds = /^-?\d{1,16}$/.test(digits) ? Number(digits) : 0;
  return secToHours(Number.isSafeInteger(seconds) ? seconds : 0);
}

/** Gitea's ToTimelineComment for the kinds gitforge records. */
export function toTimelineComment(
  c: CommentEntity,
  issue: CommentIssue,
  repo: RepoAccess,
  parts: TimelineParts,
): TimelineComment {
  return {
    id: c.id,
    type: commentTypeName(c.type),
    html_url: commentHtmlUrl(repo.repository, issue, c.id),
    ...issueLinks(repo.repository, issue),
    user: parts.poster,
    body: timelineBody(c),
    created_at: formatTime(c.createdAt),
    updated_at: formatTime(c.updatedAt),
    old_project_id: 0,
    project_id: 0,
    old_milestone: parts.oldMilestone ?? null,
    milestone: parts.milestone ?? null,
    tracked_time: parts.trackedTime ?? null,
    old_title: c.oldTitle,
    new_title: c.newTitle,
    old_ref: c.oldRef,
    new_ref: c.newRef,
    ref_issue: parts.refIssue ?? null,
    ref_comment: parts.refComment ?? null,
    ref_action: xrefActionName(c.refAction),
    // Gitea's RefCommitSHA is the row's commit: the one a commit_ref names, or that closed the issue.
    ref_commit_sha: c.type === CommentType.commit_ref || c.type === CommentType.close || c.type === CommentType.reopen ? c.commitSha : '',
    review_id: c.reviewId,
    label: parts.label ?? null,
    assignee: parts.assignee ?? null,
    assignee_team: parts.assigneeTeam ?? null,
    resolve_doer: parts.resolveDoer ?? null,
    dependent_issue: parts.dependentIssue ?? null,
    removed_assignee: c.removedAssignee,
  };
}
