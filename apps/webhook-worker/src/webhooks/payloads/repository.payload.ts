import type { EventEnvelope, Repository, User } from '@gitforge/contracts';
import type { BuiltHookPayload } from './webhook-payloads.js';
import type { RepositoryPayload } from '@gitforge/contracts';

/**
 * Gitea's repository payload. `organization` is the repository's owner as a User, also for a
 * user's repository (Gitea passes the owner there); Gitea writes this payload with a one-space indent.
 */
function repositoryPayload(action: RepositoryPayload['action'], repository: Repository, sender: User): BuiltHookPayload {
  const payload: RepositoryPayload = { action, repository, organization: repository.owner, sender };
  return { event: 'repository', payload, repoId: repository.id, ownerId: repository.owner.id, ref: null, indent: 1 };
}

/** Gitea announces a fork's creation with this payload only when an organization owns the fork. */
export const repositoryCreatedPayload = (e: EventEnvelope<'repo.created'>): BuiltHookPayload | null =>
  e.payload.repository.fork && !e.payload.organization ? null : repositoryPayload('created', e.payload.repository, e.payload.sender);

export const repositoryDeletedPayload = (e: EventEnvelope<'repo.deleted'>): BuiltHookPayload =>
  repositoryPayload('deleted', e.payload.repository, e.payload.sender);
