import { AccessMode, type OrganizationPermissions } from '@gitforge/contracts';
import type { TeamEntity } from './org.entities.js';

/** Gitea's CanCreateOrgRepo: an owner, or a member of a team that may create repositories. */
export function canCreateOrgRepo(teams: TeamEntity[]): boolean {
  return teams.some((t) => t.accessMode >= AccessMode.owner || t.canCreateOrgRepo);
}

/** Gitea's OrganizationPermissions of a user, from the highest access among its teams. */
export function toOrganizationPermissions(teams: TeamEntity[]): OrganizationPermissions {
  const level = Math.max(AccessMode.none, ...teams.map((t) => t.accessMode));
  return {
    can_read: level > AccessMode.none,
    can_write: level > AccessMode.read,
    is_admin: level > AccessMode.write,
    is_owner: level > AccessMode.admin,
    can_create_repository: canCreateOrgRepo(teams),
  };
}
