import { AccessMode, type Actor, type OwnerAccess, type RepoAccess } from '@gitforge/contracts';
import { canRead, canWrite } from '../access/repo-gate.js';

/** What the actor may do with a repository's or an organization's projects. */
export interface ProjectRights {
  read: boolean;
  write: boolean;
}

/** Repository projects: the projects unit, read for lists and boards, write for changes. */
export function repoProjectRights(repo: RepoAccess): ProjectRights {
  return { read: canRead(repo, 'repo.projects'), write: canWrite(repo, 'repo.projects') };
}

/** The highest projects access over the actor's teams of the organization. */
function teamProjectsMode(owner: OwnerAccess): number {
  const grants = [owner.teamAccess.all, ...Object.values(owner.teamAccess.repos)];
  return Math.max(AccessMode.none, ...grants.map((g) => g?.units['repo.projects'] ?? AccessMode.none));
}

/**
 * Organization projects, as Gitea's organization unit permission: anyone who may see the
 * organization reads them (public ones: everybody; limited: signed-in users; private: members);
 * its owners, site administrators and members of a team with write access to projects change them.
 */
export function orgProjectRights(actor: Actor | null, owner: OwnerAccess): ProjectRights {
  const read = owner.visible || (actor?.isAdmin ?? false);
  if (!actor) return { read, write: false };
  const write =
    actor.isAdmin || owner.isOrgOwner || (owner.isOrgMember && teamProjectsMode(owner) >= AccessMode.write);
  return { read, write };
}
