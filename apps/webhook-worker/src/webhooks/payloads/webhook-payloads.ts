import type { EventEnvelope, EventName, HookEventType } from '@gitforge/contracts';
import { createPayload } from './create.payload.js';
import { deletePayload } from './delete.payload.js';
import { forkPayload } from './fork.payload.js';
import { issueCommentPayload } from './issue-comment.payload.js';
import { issuePayload } from './issue.payload.js';
import { packagePayload } from './package.payload.js';
import { pullMergedPayload, pullReviewedPayload, pullReviewRequestedPayload, pullSynchronizedPayload } from './pull.payload.js';
import { pushPayload } from './push.payload.js';
import { releasePayload } from './release.payload.js';
import { repositoryCreatedPayload, repositoryDeletedPayload } from './repository.payload.js';
import { statusPayload } from './status.payload.js';

/** What one domain event becomes for webhooks. */
export interface BuiltHookPayload {
  /** Gitea's hook event type (`X-Gitea-Event-Type`); hooks subscribe by it. */
  event: HookEventType;
  /** The Gitea payload, sent as is to gitea/gogs hooks and converted for the others. */
  payload: object;
  repoId: number;
  ownerId: number;
  /** The full ref a push/create/delete concerns, for branch filters (Gitea's getPayloadRef); null otherwise. */
  ref: string | null;
  /** Not sent to slack/discord/msteams hooks (a push without commits). */
  chatTypesSkip?: boolean;
  /** JSON indent Gitea uses for this payload (2 unless said otherwise). */
  indent?: number;
}

type Builders = { [N in EventName]?: (envelope: EventEnvelope<N>) => BuiltHookPayload | null };

/**
 * The one table from domain events to webhook payloads. Events without an entry (user and
 * organization creation, repository renames: Gitea's webhook notifier has no rename handler)
 * reach no hook; a rename still makes a rename_repo feed entry. Issue events of pull requests
 * become their pull_request_* twins. Package events reach hooks only: Gitea writes no feed
 * entry for packages (its action types have none).
 */
export const WebhookPayloads: Builders = {
  'repo.created': repositoryCreatedPayload,
  'repo.deleted': repositoryDeletedPayload,
  'repo.forked': forkPayload,
  'repo.pushed': pushPayload,
  'repo.ref_created': createPayload,
  'repo.ref_deleted': deletePayload,
  'commit_status.created': statusPayload,
  'issue.opened': issuePayload,
  'issue.edited': issuePayload,
  'issue.closed': issuePayload,
  'issue.reopened': issuePayload,
  'issue.deleted': issuePayload,
  'issue.assigned': issuePayload,
  'issue.labeled': issuePayload,
  'issue.milestoned': issuePayload,
  'pull.synchronized': pullSynchronizedPayload,
  'pull.merged': pullMergedPayload,
  'pull.review_requested': pullReviewRequestedPayload,
  'pull.reviewed': pullReviewedPayload,
  'release.published': releasePayload,
  'release.updated': releasePayload,
  'release.deleted': releasePayload,
  'package.created': packagePayload,
  'package.deleted': packagePayload,
  'comment.created': issueCommentPayload,
  'comment.edited': issueCommentPayload,
  'comment.deleted': issueCommentPayload,
};

export function buildHookPayload(envelope: EventEnvelope): BuiltHookPayload | null {
  const builder = WebhookPayloads[envelope.name] as ((e: EventEnvelope) => BuiltHookPayload | null) | undefined;
  return builder ? builder(envelope) : null;
}

/** The coarse event of `X-Gitea-Event` (Gitea's HookEventType.Event). */
export function coarseEvent(event: string): string {
  switch (event) {
    case 'issues':
    case 'issue_assign':
    case 'issue_label':
    case 'issue_milestone':
      return 'issues';
    case 'pull_request':
    case 'pull_request_assign':
    case 'pull_request_label':
    case 'pull_request_milestone':
    case 'pull_request_sync':
    case 'pull_request_review_request':
      return 'pull_request';
    case 'issue_comment':
    case 'pull_request_comment':
      return 'issue_comment';
    case 'pull_request_review_approved':
      return 'pull_request_approved';
    case 'pull_request_review_rejected':
      return 'pull_request_rejected';
    case 'pull_request_review_comment':
      return 'pull_request_comment';
    default:
      return event;
  }
}
