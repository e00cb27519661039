import type { UserEntity } from './user.entity.js';

/** The signed-in caller as visibility rules need it; null for anonymous callers. */
export type Viewer = Pick<UserEntity, 'id' | 'isAdmin' | 'isRestricted'> | null;

type Owner = Pick<UserEntity, 'id' | 'visibility'>;

/**
 * Gitea's HasOrgOrUserVisible, which decides who sees an owner and what it owns: anonymous
 * callers see public owners; site admins and the owner itself see everything; a private owner,
 * or any owner for a restricted viewer, is seen only by its members (an organization's members;
 * nobody for a user); limited owners by every signed-in user.
 */
export async function hasOrgOrUserVisible(owner: Owner, viewer: Viewer, isMember: () => Promise<boolean>): Promise<boolean> {
  if (!viewer) return owner.visibility === 'public';
  if (viewer.isAdmin || viewer.id === owner.id) return true;
  if (owner.visibility === 'private' || viewer.isRestricted) return isMember();
  return true;
}

export interface ViewerRelations {
  /** The account follows the viewer. */
  followsViewer: boolean;
  /** The viewer is in a team of the organization, or shares one with the user. */
  sharesTeam: boolean;
}

/**
 * `GET /users/{username}`: Gitea's individualPermsChecker (a private user is shown to itself and
 * site admins only, a limited one to signed-in callers) followed by IsUserVisibleToViewer
 * (limited: unrestricted signed-in callers; private: those it follows or shares a team with).
 */
export async function canSeeProfile(
  user: Owner & Pick<UserEntity, 'isOrganization'>,
  viewer: Viewer,
  relations: () => Promise<ViewerRelations>,
): Promise<boolean> {
  if (viewer && (viewer.isAdmin || viewer.id === user.id)) return true;
  if (!individualVisible(user, viewer)) return false;
  switch (user.visibility) {
    case 'public':
      return true;
    case 'limited':
      return viewer !== null && !viewer.isRestricted;
    case 'private': {
      if (!viewer || viewer.isRestricted) return false;
      const r = await relations();
      return r.followsViewer || r.sharesTeam;
    }
    default:
      return false;
  }
}

/**
 * Gitea's individualPermsChecker on `/users/{username}/…` routes: a private user is seen by itself
 * and site admins, a limited one by signed-in callers; organizations are checked elsewhere.
 */
export function individualVisible(user: Owner & Pick<UserEntity, 'isOrganization'>, actor: { id: number; isAdmin: boolean } | null): boolean {
  if (user.isOrganization) return true;
  if (user.visibility === 'private') return actor !== null && (actor.id === user.id || actor.isAdmin);
  if (user.visibility === 'limited') return actor !== null;
  return true;
}
