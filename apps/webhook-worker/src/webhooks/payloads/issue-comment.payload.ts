import type { EventEnvelope } from '@gitforge/contracts';
import type { BuiltHookPayload } from './webhook-payloads.js';
import type { IssueCommentPayload } from '@gitforge/contracts';
import { changesPayload } from './issue.payload.js';

/**
 * Gitea's IssueCommentPayload: `issue_comment` for an issue, `pull_request_comment` for a pull
 * request (both sent as `X-Gitea-Event: issue_comment`); an edit carries the old body.
 */
export function issueCommentPayload(
  e: EventEnvelope<'comment.created' | 'comment.edited' | 'comment.deleted'>,
): BuiltHookPayload {
  const p = e.payload;
  const payload: IssueCommentPayload = {
    action: p.action,
    issue: p.issue,
    comment: p.comment,
    ...(p.changes ? { changes: changesPayload(p.changes) } : {}),
    repository: p.repository,
    sender: p.sender,
    is_pull: p.is_pull,
  };
  return {
    event: p.is_pull ? 'pull_request_comment' : 'issue_comment',
    payload,
    repoId: p.repository.id,
    ownerId: p.repository.owner.id,
    ref: null,
  };
}
