import { unprocessable, type ReviewState } from '@gitforge/contracts';
import { ReviewType } from './review.entity.js';

/**
 * Gitea's preparePullReviewType: the review an `event` asks for. The poster may neither
 * approve nor reject their own pull; a rejection needs a body; a comment needs a body or a
 * line comment; anything else (an empty or unknown event) leaves the review pending.
 */
export function reviewTypeFor(event: string | undefined, body: string | undefined, hasComments: boolean, isPoster: boolean): ReviewType {
  const hasBody = (body ?? '').trim().length > 0;
  switch (event) {
    case 'APPROVED':
      if (isPoster) throw unprocessable('approve your own pull is not allowed');
      return ReviewType.approve;
    case 'REQUEST_CHANGES':
      if (isPoster) throw unprocessable('reject your own pull is not allowed');
      if (!hasBody) throw unprocessable(`review event ${event} requires a body`);
      return ReviewType.reject;
    case 'COMMENT':
      if (!hasBody && !hasComments) throw unprocessable(`review event ${event} requires a body or a comment`);
      return ReviewType.comment;
    default:
      // A pending review needs a body too (Gitea's needsBody for the default case).
      if (!hasBody) throw unprocessable(`review event ${event ?? ''} requires a body`);
      return ReviewType.pending;
  }
}

/** Gitea's ReviewStateType of a stored review type. */
export function reviewState(type: number): ReviewState {
  switch (type) {
    case ReviewType.approve:
      return 'APPROVED';
    case ReviewType.reject:
      return 'REQUEST_CHANGES';
    case ReviewType.comment:
      return 'COMMENT';
    case ReviewType.pending:
      return 'PENDING';
    case ReviewType.request:
      return 'REQUEST_REVIEW';
    default:
      return '';
  }
}

/** The webhook review type of a submitted review (Gitea's reviewHookType). */
export function reviewHookType(type: number): string | null {
  switch (type) {
    case ReviewType.approve:
      return 'pull_request_review_approved';
    case ReviewType.reject:
      return 'pull_request_review_rejected';
    case ReviewType.comment:
      return 'pull_request_review_comment';
    default:
      return null;
  }
}

/** A review counts toward branch protection: an approval or a rejection. */
export const isVerdict = (type: number): boolean => type === ReviewType.approve || type === ReviewType.reject;

/**
 * The line a review comment is stored at (Gitea's convention): positive on the head side,
 * negative on the base side; `old_position` wins when both are given.
 */
export function storedLine(newPosition: number | undefined, oldPosition: number | undefined): number {
  if ((oldPosition ?? 0) > 0) return -oldPosition!;
  return newPosition ?? 0;
}
