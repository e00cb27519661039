import type { EventEnvelope } from '@gitforge/contracts';
import type { BuiltHookPayload } from './webhook-payloads.js';
import type { CreatePayload } from '@gitforge/contracts';

/** Gitea's create payload: `ref` is the short name, as Gitea sends it. */
export function createPayload(e: EventEnvelope<'repo.ref_created'>): BuiltHookPayload {
  const p = e.payload;
  const payload: CreatePayload = { sha: p.sha, ref: p.ref, ref_type: p.ref_type, repository: p.repository, sender: p.sender };
  return {
    event: 'create',
    payload,
    repoId: p.repository.id,
    ownerId: p.repository.owner.id,
    ref: p.ref_type === 'branch' ? `refs/heads/${p.ref}` : `refs/tags/${p.ref}`,
  };
}
