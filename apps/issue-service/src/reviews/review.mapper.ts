import { formatTime, type PullReview, type PullReviewComment, type Repository, type Team, type User } from '@gitforge/contracts';
import type { CommentEntity } from '../comments/comment.entity.js';
import type { IssueEntity } from '../issues/issue.entity.js';
import { issueHtmlUrl } from '../issues/issue.mapper.js';
import { diffHunkOf } from './diff-hunk.js';
import { reviewState } from './review-rules.js';
import { ReviewType, type ReviewEntity } from './review.entity.js';

/** What a review shows from other rows and services, gathered once per page. */
export interface ReviewParts {
  /** Null for a team's review request (Gitea's nil reviewer). */
  reviewer: User | null;
  team: Team | null;
  commentsCount: number;
  /** The id of its `review` row in the history; 0 while pending or for a request. */
  historyRowId: number;
}

type PullIssue = Pick<IssueEntity, 'idx' | 'isPull'>;

/** Gitea's ToPullReview. */
export function toPullReview(r: ReviewEntity, repository: Repository, issue: PullIssue, parts: ReviewParts): PullReview {
  const page = issueHtmlUrl(repository, issue);
  return {
    id: r.id,
    user: parts.reviewer,
    team: parts.team,
    state: reviewState(r.type),
    body: r.content,
    commit_id: r.commitId,
    stale: r.stale,
    official: r.official,
    dismissed: r.dismissed,
    comments_count: parts.commentsCount,
    submitted_at: formatTime(r.createdAt),
    updated_at: formatTime(r.updatedAt),
    html_url: parts.historyRowId > 0 ? `${page}#issuecomment-${parts.historyRowId}` : '',
    pull_request_url: page,
  };
}

/**
 * Gitea's ToPullReviewCommentList entry. The page of a line comment is the pull's files while
 * its review is pending (Gitea's Comment.HTMLURL), its conversation once submitted.
 */
export function toPullReviewComment(
  c: CommentEntity,
  review: ReviewEntity,
  repository: Repository,
  issue: PullIssue,
  parts: { poster: User; resolver: User | null },
): PullReviewComment {
  const page = issueHtmlUrl(repository, issue);
  const anchor = `issuecomment-${c.id}`;
  const line = Math.abs(c.line);
  return {
    id: c.id,
    body: c.content,
    user: parts.poster,
    resolver: parts.resolver,
    pull_request_review_id: review.id,
    created_at: formatTime(c.createdAt),
    updated_at: formatTime(c.updatedAt),
    path: c.treePath,
    commit_id: c.commitSha,
    original_commit_id: c.oldRef,
    diff_hunk: diffHunkOf(c.patch),
    position: c.line >= 0 ? line : 0,
    original_position: c.line < 0 ? line : 0,
    html_url: review.type === ReviewType.pending ? `${page}/files#${anchor}` : `${page}#${anchor}`,
    pull_request_url: page,
  };
}
