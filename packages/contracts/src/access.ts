import type { Actor } from './actor.js';
import type { UserRepoAccess } from './api/facts.js';
import { ContractError, forbidden } from './errors.js';

/** Gitea's perm.AccessMode: ordered, so a higher mode includes the lower ones. */
export const AccessMode = {
  none: 0,
  read: 1,
  write: 2,
  admin: 3,
  owner: 4,
} as const;
export type AccessModeValue = (typeof AccessMode)[keyof typeof AccessMode];

export type AccessModeName = keyof typeof AccessMode;

export function accessModeName(mode: number): AccessModeName {
  const names: AccessModeName[] = ['none', 'read', 'write', 'admin', 'owner'];
  return names[Math.max(0, Math.min(4, mode))] ?? 'none';
}

export function parseAccessMode(name: string): AccessModeValue | undefined {
  return (AccessMode as Record<string, AccessModeValue>)[name];
}

/**
 * Repository unit names as Gitea spells them (unit.Units NameKey), in Gitea's order
 * (unit.AllRepoUnitTypes). Teams grant access unit by unit under these names.
 */
export const RepoUnitKeys = [
  'repo.code',
  'repo.issues',
  'repo.pulls',
  'repo.releases',
  'repo.wiki',
  'repo.ext_wiki',
  'repo.ext_issues',
  'repo.projects',
  'repo.packages',
  'repo.actions',
] as const;
export type RepoUnitKey = (typeof RepoUnitKeys)[number];

/** The caller, who must be signed in: 401 "token is required" otherwise (Gitea's reqToken). */
export function requireActor(actor: Actor | null): Actor {
  if (!actor) throw new ContractError('unauthenticated', 'token is required');
  return actor;
}

/** The caller, who must be a site administrator: 401 when not signed in, 403 otherwise (Gitea's reqSiteAdmin). */
export function requireSiteAdmin(actor: Actor | null): Actor {
  const signedIn = requireActor(actor);
  if (!signedIn.isAdmin) throw forbidden('user should be the site admin');
  return signedIn;
}

/**
 * Gitea's CanBeAssigned (since 1.21): an active user with write access to any unit, or with
 * read access to pull requests, which on a public repository with pull requests on is every
 * signed-in user. The units are those the repository has on (a unit switched off gives no
 * access). Assigning anyone else is refused.
 */
export function canBeAssigned(access: UserRepoAccess | undefined): boolean {
  if (!access?.active) return false;
  return Object.values(access.units).some((mode) => mode >= AccessMode.write) || access.units['repo.pulls'] >= AccessMode.read;
}

/** Gitea's answer to an organization named as an assignee (an invalid argument: 400). */
export function organizationNotAssignable(orgId: number, repoId: number): ContractError {
  return new ContractError('invalid_argument', `organization can't be added as assignee [user_id: ${orgId}, repo_id: ${repoId}]`);
}

/**
 * Whom Gitea's GetRepoAssignees lists, of the collaborators with write access and the members of
 * the teams reaching the repository: active users who write to a unit or read issues or pull requests.
 */
export function isListedAssignee(access: UserRepoAccess | undefined): boolean {
  if (!access?.active) return false;
  return Object.values(access.units).some((mode) => mode >= AccessMode.write) || access.units['repo.issues'] >= AccessMode.read || access.units['repo.pulls'] >= AccessMode.read;
}

/**
 * Who may be asked for a review (Gitea's GetReviewers): an active user who reads pull requests
 * as a collaborator, a member of a team reaching the repository, or its owner.
 */
export function canBeRequestedToReview(access: UserRepoAccess | undefined): boolean {
  return !!access?.active && access.units['repo.pulls'] >= AccessMode.read;
}
