import { definePatterns } from './patterns.js';

/**
 * User badges (org-service). The catalogue routes are gitforge's own (Gitea creates badges in its
 * web UI); the user routes are Gitea's `/admin/users/{username}/badges`. Site administrators only.
 */
export const BadgePatterns = definePatterns('org', {
  /** `GET /admin/badges`: the catalogue, oldest first, paged. */
  list: 'badges.list',
  /** `POST /admin/badges`: body CreateBadgeOption; a slug in use is a conflict. */
  create: 'badges.create',
  /** `PATCH /admin/badges/{slug}`: body EditBadgeOption. */
  edit: 'badges.edit',
  /** `DELETE /admin/badges/{slug}`: the badge and every user's holding of it. */
  delete: 'badges.delete',
  /** `GET /admin/users/{username}/badges`: every badge of the user, in the order given (no paging, as Gitea). */
  listForUser: 'users.badges.list',
  /** `POST /admin/users/{username}/badges`: body UserBadgeOption; all or nothing. */
  addToUser: 'users.badges.add',
  /** `DELETE /admin/users/{username}/badges`: body UserBadgeOption; slugs the user lacks are ignored. */
  removeFromUser: 'users.badges.remove',
});
