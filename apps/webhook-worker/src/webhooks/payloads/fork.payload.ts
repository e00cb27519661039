import type { EventEnvelope } from '@gitforge/contracts';
import type { ForkPayload } from '@gitforge/contracts';
import type { BuiltHookPayload } from './webhook-payloads.js';

/**
 * Gitea's fork payload, delivered to the hooks of the repository that was forked. Gitea's
 * notifier fills it the other way round from the event: its `forkee` is the forked repository and
 * its `repository` the new fork (its chat formats read "{forkee} is forked to {repository}"), so
 * clients written against Gitea get exactly that.
 */
export const forkPayload = (e: EventEnvelope<'repo.forked'>): BuiltHookPayload => {
  const source = e.payload.repository;
  const payload: ForkPayload = { forkee: source, repository: e.payload.forkee, sender: e.payload.sender };
  return { event: 'fork', payload, repoId: source.id, ownerId: source.owner.id, ref: null };
};
