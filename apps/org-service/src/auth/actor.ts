import { ContractError, forbidden, isPublicOnly, type Actor } from '@gitforge/contracts';

/** Gitea's reqToken, for the routes it guards after looking up what they name (so 404 comes first). */
export function requireActor(actor: Actor | null): Actor {
  if (!actor) throw new ContractError('unauthenticated', 'token is required');
  return actor;
}

/** Gitea's rejectPublicOnly: private account data (e-mails, settings, teams) is not for public-only tokens. */
export function rejectPublicOnly(actor: Actor): void {
  if (isPublicOnly(actor.scopes)) throw forbidden('token scope is limited to public resources');
}
