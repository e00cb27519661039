import { forbidden, isPublicOnly, requireActor, type Actor } from '@gitforge/contracts';
import type { UserEntity } from '../users/user.entity.js';

/** Gitea's reqToken, for the routes it guards after looking up what they name (so 404 comes first); defined once, in contracts. */
export { requireActor };

/** Gitea's rejectPublicOnly: private account data (e-mails, settings, teams) is not for public-only tokens. */
export function rejectPublicOnly(actor: Actor): void {
  if (isPublicOnly(actor.scopes)) throw forbidden('this endpoint is not available for public-only tokens');
}

type Account = Pick<UserEntity, 'visibility' | 'type'> & { isOrganization: boolean };

/**
 * Gitea's checkTokenPublicOnly for routes of the user scope that name an individual
 * (`/users/{username}/…`): a public-only token reaches public users only.
 */
export function rejectPublicOnlyUser(actor: Actor | null, user: Account): void {
  if (actor && isPublicOnly(actor.scopes) && !user.isOrganization && user.visibility !== 'public') {
    throw forbidden('token scope is limited to public users');
  }
}

/**
 * Gitea's checkTokenPublicOnly for routes of the organization scope: a public-only token reaches
 * public organizations only (limited ones are not public either).
 */
export function rejectPublicOnlyOrg(actor: Actor | null, org: Account): void {
  if (actor && isPublicOnly(actor.scopes) && org.isOrganization && org.visibility !== 'public') {
    throw forbidden('token scope is limited to public orgs');
  }
}
