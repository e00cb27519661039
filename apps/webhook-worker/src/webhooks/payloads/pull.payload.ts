import type { EventEnvelope, HookEventType, IssueEventPayload } from '@gitforge/contracts';
import type { BuiltHookPayload } from './webhook-payloads.js';
import type { PullRequestPayload } from '@gitforge/contracts';
import { pullRequestPayload } from './issue.payload.js';

/** The hook payload of a pull event, sent where its repository is; nothing without its pull request. */
const built = (event: HookEventType, p: IssueEventPayload, payload: PullRequestPayload | null): BuiltHookPayload | null =>
  payload && { event, payload, repoId: p.repository.id, ownerId: p.repository.owner.id, ref: null };

/**
 * A pull request's head moved: `pull_request_sync` with action `synchronized`, and the head
 * before and after when the event has them (Gitea's PullRequestSynchronized).
 */
export function pullSynchronizedPayload(e: EventEnvelope<'pull.synchronized'>): BuiltHookPayload | null {
  return built('pull_request_sync', e.payload, pullRequestPayload(e.payload, 'synchronized'));
}

/**
 * A merge reads as Gitea's MergePullRequest (and AutoMergePullRequest, which forwards to it):
 * `pull_request` with action `closed`, the pull request carrying `merged: true`.
 */
export function pullMergedPayload(e: EventEnvelope<'pull.merged'>): BuiltHookPayload | null {
  return built('pull_request', e.payload, pullRequestPayload(e.payload, 'closed'));
}

/**
 * A review request made or removed for one user: `pull_request_review_request` with the user as
 * `requested_reviewer`. Gitea notifies a team request once per member (the pull request's poster
 * left out) and a team removal not at all, so an event naming no user sends nothing.
 */
export function pullReviewRequestedPayload(e: EventEnvelope<'pull.review_requested'>): BuiltHookPayload | null {
  const p = e.payload;
  if (!p.requested_reviewer) return null;
  if (p.action !== 'review_requested' && p.action !== 'review_request_removed') return null;
  return built('pull_request_review_request', p, pullRequestPayload(p, p.action, { requested_reviewer: p.requested_reviewer }));
}

/** The review types Gitea sends hooks for; pending reviews and review requests have none. */
const REVIEW_EVENTS: ReadonlySet<string> = new Set<HookEventType>([
  'pull_request_review_approved',
  'pull_request_review_rejected',
  'pull_request_review_comment',
]);

/**
 * A submitted review: its hook event type (approved, rejected or comment) with action `reviewed`,
 * the reviewer as sender and `review {type, content}` (Gitea's PullRequestReview notifier). A
 * dismissal sends nothing: Gitea's webhook notifier has no dismissal handler.
 */
export function pullReviewedPayload(e: EventEnvelope<'pull.reviewed'>): BuiltHookPayload | null {
  const p = e.payload;
  const review = p.review;
  if (p.action !== 'reviewed' || !review || !REVIEW_EVENTS.has(review.type)) return null;
  return built(review.type as HookEventType, p, pullRequestPayload(p, 'reviewed', { review: { type: review.type, content: review.content } }));
}
