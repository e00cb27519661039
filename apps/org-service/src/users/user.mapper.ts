import { createHash } from 'node:crypto';
import { formatTime, ZERO_TIME, type Actor, type Organization, type User } from '@gitforge/contracts';
import type { UserEntity } from './user.entity.js';

export function avatarUrl(u: UserEntity, rootUrl: string): string {
  const seed = u.email ? u.email.toLowerCase() : `${u.type}-${u.id}`;
  return `${rootUrl}avatars/${createHash('md5').update(seed).digest('hex')}`;
}

/**
 * Gitea's convert.ToUser: the e-mail only for signed-in viewers (unless kept private),
 * admin flag, login name, last login, language and state only for the user or a site admin.
 */
export function toUser(u: UserEntity, viewer: Actor | null, rootUrl: string): User {
  const signed = viewer !== null;
  const authed = viewer !== null && (viewer.id === u.id || viewer.isAdmin);
  return {
    id: u.id,
    login: u.name,
    login_name: authed ? u.loginName : '',
    source_id: u.loginSource,
    full_name: u.fullName,
    email: signed && (!u.keepEmailPrivate || authed) ? u.email : placeholderEmail(u, rootUrl),
    avatar_url: avatarUrl(u, rootUrl),
    html_url: `${rootUrl}${encodeURIComponent(u.name)}`,
    language: authed ? u.language : '',
    is_admin: authed ? u.isAdmin : false,
    last_login: authed ? formatTime(u.lastLoginAt) : ZERO_TIME,
    created: formatTime(u.createdAt),
    restricted: u.isRestricted,
    active: authed ? u.isActive : false,
    prohibit_login: authed ? u.prohibitLogin : false,
    location: u.location,
    website: u.website,
    description: u.description,
    visibility: u.visibility,
    followers_count: u.numFollowers,
    following_count: u.numFollowing,
    starred_repos_count: u.numStars,
    username: u.name,
  };
}

/** Gitea shows `<name>@noreply.<host>` where the real address is hidden. */
function placeholderEmail(u: UserEntity, rootUrl: string): string {
  return `${u.lowerName}@noreply.${new URL(rootUrl).hostname}`;
}

export function toOrganization(u: UserEntity, rootUrl: string): Organization {
  return {
    id: u.id,
    name: u.name,
    full_name: u.fullName,
    email: u.email,
    avatar_url: avatarUrl(u, rootUrl),
    description: u.description,
    website: u.website,
    location: u.location,
    visibility: u.visibility,
    repo_admin_change_team_access: u.repoAdminChangeTeamAccess,
    username: u.name,
  };
}
