import type { EventEnvelope } from '@gitforge/contracts';
import type { BuiltHookPayload } from './webhook-payloads.js';
import type { PushPayload } from '@gitforge/contracts';


/** Gitea's push payload; chat hooks skip pushes without commits (Gitea's "0 new commits" rule). */
export function pushPayload(e: EventEnvelope<'repo.pushed'>): BuiltHookPayload {
  const p = e.payload;
  const payload: PushPayload = {
    ref: p.ref,
    before: p.before,
    after: p.after,
    compare_url: p.compare_url,
    commits: p.commits,
    total_commits: p.total_commits,
    head_commit: p.head_commit,
    repository: p.repository,
    pusher: p.pusher,
    sender: p.sender,
  };
  return {
    event: 'push',
    payload,
    repoId: p.repository.id,
    ownerId: p.repository.owner.id,
    ref: p.ref,
    chatTypesSkip: p.commits.length === 0,
  };
}
