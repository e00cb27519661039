import { forbidden, isPublicOnly, type Actor } from '@gitforge/contracts';

/** Gitea's rejectPublicOnly: private account data (e-mails, settings, teams) is not for public-only tokens. */
export function rejectPublicOnly(actor: Actor): void {
  if (isPublicOnly(actor.scopes)) throw forbidden('token scope is limited to public resources');
}
