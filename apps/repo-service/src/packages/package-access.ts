import { Injectable } from '@nestjs/common';
import { AccessMode, ContractError, forbidden, isPublicOnly, parseAccessMode, type Actor, type OwnerAccess } from '@gitforge/contracts';
import { DirectoryClient } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';

/** An owner of packages and what the actor may do with its packages (Gitea's perm.AccessMode). */
export interface PackageOwner {
  owner: OwnerAccess;
  mode: number;
}

/**
 * The highest mode an organization's teams give: a team's own level, or for teams below write
 * their `repo.packages` unit (Gitea's GetOrgUserMaxAuthorizeLevel, then each team's unit mode).
 */
export function teamPackageMode(teams: Array<{ permission: string; units_map: Record<string, string> }>): number {
  let mode: number = AccessMode.none;
  for (const team of teams) mode = Math.max(mode, parseAccessMode(team.permission) ?? AccessMode.none);
  if (mode < AccessMode.write) {
    for (const team of teams) mode = Math.max(mode, parseAccessMode(team.units_map['repo.packages'] ?? 'none') ?? AccessMode.none);
  }
  return mode;
}

/**
 * Gitea's package access (`services/context/package.go` determineAccessMode): site admins and a
 * user themselves own; in an organization, its owners own and members get their teams' level;
 * anyone who may see the owner reads. An owner the actor may not see has no access, which its
 * routes refuse with {@link requireRead} once they have found what they name: Gitea finds the
 * owner (and the package) before it judges access.
 */
@Injectable()
export class PackageAccess {
  constructor(
    private readonly access: RepoAccessService,
    private readonly directory: DirectoryClient,
  ) {}

  async owner(actor: Actor | null, name: string): Promise<PackageOwner> {
    const owner = await this.access.ownerInPath(actor, name);
    const mode = await this.modeOf(actor, owner);
    // Gitea's public-only check for the package scope (api v1 and reqPackageAccess): such a token reaches public owners' packages only.
    if (actor && isPublicOnly(actor.scopes) && owner.owner.visibility !== 'public') throw forbidden('token scope is limited to public packages');
    return { owner, mode };
  }

  private async modeOf(actor: Actor | null, owner: OwnerAccess): Promise<number> {
    if (actor?.isAdmin) return AccessMode.owner;
    let mode: number = AccessMode.none;
    if (actor && owner.owner.kind === 'organization') {
      if (owner.isOrgOwner) return AccessMode.owner;
      if (owner.isOrgMember) {
        const ids = await this.directory.teamIdsOfUser(owner.owner.id, actor.id);
        mode = teamPackageMode((await this.directory.teams(owner.owner.id, { ids })).map((t) => t.team));
      }
    } else if (actor && actor.id === owner.owner.id) {
      return AccessMode.owner;
    }
    return mode === AccessMode.none && owner.visible ? AccessMode.read : mode;
  }
}

/** What Gitea's reqPackageAccess answers those without the access a route needs. */
const NO_ACCESS = 'user should have specific permission or be a site admin';

/**
 * Refuses an owner whose packages the actor may not read (Gitea's reqPackageAccess(read)): 403 on
 * the package API, 401 on a registry (its client then sends its credentials).
 */
export function requireRead(owner: PackageOwner, where: 'api' | 'registry'): void {
  if (owner.mode >= AccessMode.read) return;
  throw where === 'api' ? forbidden(NO_ACCESS) : new ContractError('unauthenticated', NO_ACCESS);
}

/**
 * Refuses a write to those who may only read: 401 to anonymous callers (a registry client then
 * sends its credentials), 403 to signed-in ones (Gitea's reqPackageAccess).
 */
export function requireWrite(actor: Actor | null, owner: PackageOwner): Actor {
  if (!actor) throw new ContractError('unauthenticated', 'token is required');
  if (owner.mode < AccessMode.write) throw forbidden(NO_ACCESS);
  return actor;
}

/**
 * The registries' write check (Gitea's reqPackageAccess on `/api/packages`): anyone who may not
 * write, signed in or not, gets 401 with the registry's challenge, so that a package manager
 * offers to log in; the package API answers 403 instead (requireWrite).
 */
export function requireRegistryWrite(actor: Actor | null, owner: PackageOwner): void {
  if (!actor || owner.mode < AccessMode.write) throw new ContractError('unauthenticated', NO_ACCESS);
}
