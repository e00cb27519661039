import type { EventEnvelope } from '@gitforge/contracts';
import type { BuiltHookPayload } from './webhook-payloads.js';
import type { ReleasePayload } from '@gitforge/contracts';

/** Gitea's release payload (`published`, `updated`, `deleted`), sent as repo-service wrote it. */
export function releasePayload(e: EventEnvelope<'release.published' | 'release.updated' | 'release.deleted'>): BuiltHookPayload {
  const p = e.payload;
  const payload: ReleasePayload = { action: p.action, release: p.release, repository: p.repository, sender: p.sender };
  return { event: 'release', payload, repoId: p.repository.id, ownerId: p.repository.owner.id, ref: null };
}
