import type { Actor } from './actor.js';
import type { Organization, Repository, User } from './api/index.js';

/**
 * A domain event as written to a service's outbox and carried by the queues.
 * Consumers are idempotent by `id`.
 */
export interface EventEnvelope<N extends EventName = EventName> {
  id: string;
  name: N;
  version: number;
  occurredAt: string;
  actor: Pick<Actor, 'id' | 'login'> | null;
  repoId: number | null;
  payload: EventPayloads[N];
}

/** Event names: `<aggregate>.<past-tense>`. */
export const EventNames = {
  userCreated: 'user.created',
  orgCreated: 'org.created',
  repoCreated: 'repo.created',
  repoDeleted: 'repo.deleted',
  repoRenamed: 'repo.renamed',
} as const;
export type EventName = (typeof EventNames)[keyof typeof EventNames];

/** Payloads carry what consumers need as it was at the moment of the event. */
export interface EventPayloads {
  'user.created': { user: User };
  'org.created': { organization: Organization; sender: User };
  'repo.created': { repository: Repository; organization: Organization | null; sender: User };
  'repo.deleted': { repository: Repository; organization: Organization | null; sender: User };
  'repo.renamed': { repository: Repository; oldName: string; sender: User };
}

export const CURRENT_EVENT_VERSION = 1;
