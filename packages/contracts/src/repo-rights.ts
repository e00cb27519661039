import type { RepoAccess } from './api/facts.js';
import { AccessMode, type RepoUnitKey } from './access.js';
import { ContractError, forbidden, notFound } from './errors.js';

/**
 * Gitea's route rights over a caller's access to a repository (its Permission and the router's
 * reqOwner, reqAdmin, reqRepoWriter, mustNotBeArchived), once, for every service and the gateway.
 * `RepoAccess` is computed for the caller: site administrators and owners have every right in it.
 */

/** Whether a unit is switched on (units without a switch are). */
function enabled(repo: RepoAccess, unit: RepoUnitKey): boolean {
  if (unit === 'repo.issues') return repo.settings.has_issues;
  if (unit === 'repo.pulls') return repo.settings.has_pull_requests;
  if (unit === 'repo.projects') return repo.settings.has_projects;
  return true;
}

/** Gitea's Permission.CanRead(unit): the unit is on and the actor reaches it. */
export function canRead(repo: RepoAccess, unit: RepoUnitKey): boolean {
  return enabled(repo, unit) && repo.units[unit] >= AccessMode.read;
}

/** Gitea's Permission.CanWrite(unit). */
export function canWrite(repo: RepoAccess, unit: RepoUnitKey): boolean {
  return enabled(repo, unit) && repo.units[unit] >= AccessMode.write;
}

/** Gitea's mustEnableIssuesOrPulls: neither unit readable is a 404. */
export function requireIssuesOrPulls(repo: RepoAccess): void {
  if (!canRead(repo, 'repo.issues') && !canRead(repo, 'repo.pulls')) throw notFound();
}

/** Gitea's mustNotBeArchived: every write to an archived repository is 423. */
export function requireNotArchived(repo: RepoAccess): void {
  if (repo.isArchived) throw new ContractError('locked', 'repo is archived');
}

/** Gitea's reqOwner: the repository's owners (and site administrators). */
export function requireRepoOwner(repo: RepoAccess): void {
  if (!repo.isOwner) throw forbidden('user should be the owner of the repo');
}

/** Gitea's reqAdmin: repository administrators (and site administrators). */
export function requireRepoAdmin(repo: RepoAccess): void {
  if (!repo.isAdmin) throw forbidden('user should be an owner or a collaborator with admin write of a repository');
}

/** Gitea's reqRepoWriter(units...): writers of any of the units, and repository administrators. */
export function requireRepoWriter(repo: RepoAccess, units: RepoUnitKey[]): void {
  if (!repo.isAdmin && !units.some((unit) => canWrite(repo, unit))) throw forbidden('user should have a permission to write to a repo');
}

/**
 * A route's right in its repository, as Gitea's router declares it: its owner, its admin, or
 * write access to any of some units, then not archived where mustNotBeArchived comes next.
 */
export type RepoRight = 'owner' | 'admin' | { write: RepoUnitKey[]; unarchived?: boolean };

export function requireRepoRight(repo: RepoAccess, right: RepoRight): void {
  if (right === 'owner') return requireRepoOwner(repo);
  if (right === 'admin') return requireRepoAdmin(repo);
  requireRepoWriter(repo, right.write);
  if (right.unarchived) requireNotArchived(repo);
}
