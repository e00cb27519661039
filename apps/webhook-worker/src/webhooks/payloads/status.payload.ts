import type { EventEnvelope } from '@gitforge/contracts';
import type { BuiltHookPayload } from './webhook-payloads.js';
import type { CommitStatusPayload } from '@gitforge/contracts';

/** Gitea's status payload (webhookNotifier.CreateCommitStatus); branch filters do not apply to it. */
export function statusPayload(e: EventEnvelope<'commit_status.created'>): BuiltHookPayload {
  const p = e.payload;
  const payload: CommitStatusPayload = {
    commit: p.commit,
    context: p.context,
    created_at: p.created_at,
    description: p.description,
    id: p.id,
    repository: p.repository,
    sender: p.sender,
    sha: p.sha,
    state: p.state,
    target_url: p.target_url,
    updated_at: p.updated_at,
  };
  return { event: 'status', payload, repoId: p.repository.id, ownerId: p.repository.owner.id, ref: null };
}
