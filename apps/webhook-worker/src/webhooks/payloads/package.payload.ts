import type { EventEnvelope } from '@gitforge/contracts';
import type { PackagePayload } from '@gitforge/contracts';
import type { BuiltHookPayload } from './webhook-payloads.js';

/**
 * Gitea's package payload (`created`, `deleted`), as repo-service wrote it: it reaches the
 * owner's hooks (user or organization), system hooks, and the linked repository's hooks.
 */
export function packagePayload(e: EventEnvelope<'package.created' | 'package.deleted'>): BuiltHookPayload {
  const p = e.payload;
  const payload: PackagePayload = { action: p.action, repository: p.repository, package: p.package, organization: p.organization, sender: p.sender };
  // The linked repository's hooks, private ones included (their payload's `repository` is null then).
  return { event: 'package', payload, repoId: p.repoId || (p.repository?.id ?? 0), ownerId: p.ownerId, ref: null };
}
