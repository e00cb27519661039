import type { UserEntity } from './user.entity.js';

export interface ViewerRelations {
  /** The viewer shares an organization with the user (or is a member of it, for an organization). */
  sharesOrg: boolean;
  follows: boolean;
}

/**
 * Gitea's IsUserVisibleToViewer: public to all; limited to signed-in, unrestricted users;
 * private to the user, site admins, and those who follow it or share an organization with it.
 */
export function isUserVisible(
  user: UserEntity,
  viewer: UserEntity | null,
  relations: () => Promise<ViewerRelations>,
): Promise<boolean> | boolean {
  if (viewer && (viewer.isAdmin || viewer.id === user.id)) return true;
  switch (user.visibility) {
    case 'public':
      return true;
    case 'limited':
      return viewer !== null && !viewer.isRestricted;
    case 'private':
      if (!viewer || viewer.isRestricted) return false;
      return relations().then((r) => r.follows || r.sharesOrg);
    default:
      return false;
  }
}
