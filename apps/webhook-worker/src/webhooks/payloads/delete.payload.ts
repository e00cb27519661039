import type { EventEnvelope } from '@gitforge/contracts';
import type { BuiltHookPayload } from './webhook-payloads.js';
import type { DeletePayload } from '@gitforge/contracts';

export function deletePayload(e: EventEnvelope<'repo.ref_deleted'>): BuiltHookPayload {
  const p = e.payload;
  const payload: DeletePayload = { ref: p.ref, ref_type: p.ref_type, pusher_type: 'user', repository: p.repository, sender: p.sender };
  return {
    event: 'delete',
    payload,
    repoId: p.repository.id,
    ownerId: p.repository.owner.id,
    ref: p.ref_type === 'branch' ? `refs/heads/${p.ref}` : `refs/tags/${p.ref}`,
  };
}
