import { createHash } from 'node:crypto';
import { formatTime, formatTimestamp, ZERO_TIME, type Actor, type Organization, type User, type UserSettings } from '@gitforge/contracts';
import { UserType, type UserEntity } from './user.entity.js';

export function avatarUrl(u: Pick<UserEntity, 'email' | 'type' | 'id'>, rootUrl: string): string {
  const seed = u.email ? u.email.toLowerCase() : `${u.type}-${u.id}`;
  return `${rootUrl}avatars/${createHash('md5').update(seed).digest('hex')}`;
}

/**
 * Gitea's convert.ToUser: the e-mail only for signed-in viewers (unless kept private),
 * admin flag, login name and source, last login, language and state only for the user or a site admin.
 */
export function toUser(u: UserEntity, viewer: Actor | null, rootUrl: string): User {
  const signed = viewer !== null;
  const authed = viewer !== null && (viewer.id === u.id || viewer.isAdmin);
  return {
    id: u.id,
    login: u.name,
    login_name: authed ? u.loginName : '',
    source_id: authed ? u.loginSource : 0,
    full_name: u.fullName,
    email: signed && (!u.keepEmailPrivate || authed) ? u.email : placeholderEmail(u, rootUrl),
    avatar_url: avatarUrl(u, rootUrl),
    html_url: `${rootUrl}${encodeURIComponent(u.name)}`,
    language: authed ? u.language : '',
    is_admin: authed ? u.isAdmin : false,
    last_login: authed ? formatTimestamp(u.lastLoginAt) : ZERO_TIME,
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

/**
 * Gitea's ToUserWithAccessMode for a caller with access to something the user owns (a repository's
 * `owner`): the e-mail unless kept private, never the fields reserved for the user and site admins.
 */
export function toUserWithAccess(u: UserEntity, rootUrl: string): User {
  return {
    ...toUser(u, null, rootUrl),
    email: u.keepEmailPrivate ? placeholderEmail(u, rootUrl) : u.email,
  };
}

/** Gitea's GetPlaceholderEmail where the real address is hidden: `<id>+<name>@noreply.<host>` (since 1.26). */
function placeholderEmail(u: UserEntity, rootUrl: string): string {
  return `${u.id}+${u.lowerName}@noreply.${new URL(rootUrl).hostname}`;
}

/** Gitea's convert.ToOrganization; `GET /orgs/{org}` leaves the e-mail out for anonymous callers (`showEmail`). */
export function toOrganization(u: UserEntity, rootUrl: string, showEmail = true): Organization {
  return {
    id: u.id,
    name: u.name,
    full_name: u.fullName,
    email: showEmail ? u.email : '',
    avatar_url: avatarUrl(u, rootUrl),
    description: u.description,
    website: u.website,
    location: u.location,
    visibility: u.visibility,
    repo_admin_change_team_access: u.repoAdminChangeTeamAccess,
    username: u.name,
  };
}

export function toUserSettings(u: UserEntity): UserSettings {
  return {
    full_name: u.fullName,
    website: u.website,
    description: u.description,
    location: u.location,
    language: u.language,
    theme: u.theme,
    diff_view_style: u.diffViewStyle,
    hide_email: u.keepEmailPrivate,
    hide_activity: u.keepActivityPrivate,
  };
}

/**
 * The accounts Gitea synthesises for `GET /users/search?uid=`: -1 the ghost that owns content of
 * deleted users, -2 the user Gitea Actions act as. They exist in no table.
 */
export function pseudoUser(uid: number): UserEntity | undefined {
  const base = {
    type: UserType.individual,
    email: '',
    fullName: '',
    keepEmailPrivate: false,
    loginName: '',
    loginSource: 0,
    language: '',
    isAdmin: false,
    isRestricted: false,
    isActive: false,
    prohibitLogin: false,
    location: '',
    website: '',
    description: '',
    visibility: 'public' as const,
    numFollowers: 0,
    numFollowing: 0,
    numStars: 0,
    createdAt: new Date(0),
    lastLoginAt: null,
  };
  if (uid === -1) return { ...base, id: -1, name: 'Ghost', lowerName: 'ghost' } as UserEntity;
  if (uid === -2) {
    return {
      ...base,
      id: -2,
      name: 'gitea-actions',
      lowerName: 'gitea-actions',
      fullName: 'Gitea Actions',
      email: 'teabot@gitea.io',
      keepEmailPrivate: true,
      loginName: 'gitea-actions',
      isActive: true,
    } as UserEntity;
  }
  return undefined;
}
