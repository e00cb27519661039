export type Visibility = 'public' | 'limited' | 'private';
export const Visibilities: readonly Visibility[] = ['public', 'limited', 'private'];

/** Gitea's `User` (structs/user.go). Private fields are zero-valued unless the viewer is the user or an admin. */
export class User {
  id!: number;
  login!: string;
  login_name!: string;
  source_id!: number;
  full_name!: string;
  email!: string;
  avatar_url!: string;
  html_url!: string;
  language!: string;
  is_admin!: boolean;
  last_login!: string;
  created!: string;
  restricted!: boolean;
  active!: boolean;
  prohibit_login!: boolean;
  location!: string;
  website!: string;
  description!: string;
  visibility!: Visibility;
  followers_count!: number;
  following_count!: number;
  starred_repos_count!: number;
  /** Same as `login`; Gitea still sends it for older clients. */
  username!: string;
}

/** A user whose actions appear in activity feeds, and whether they hide them (Gitea's `keep_activity_private`). */
export interface ActivityActor {
  user: User;
  hideActivity: boolean;
}

/** Gitea's `AccessToken`; `sha1` (the secret) is only set in the creation response. */
export class AccessToken {
  id!: number;
  name!: string;
  sha1!: string;
  token_last_eight!: string;
  scopes!: string[];
  created_at!: string;
  last_used_at!: string;
}

/** Gitea's `CurrentAccessToken` (`GET /token`): the token the request authenticated with. */
export class CurrentAccessToken {
  id!: number;
  name!: string;
  scopes!: string[];
  created_at!: string;
  last_used_at!: string;
  /** Gitea's `UserMeta`. */
  user!: { id: number; login: string };
}

/** Gitea's `UserHeatmapData`: actions in the 15 minutes from `timestamp` (Unix seconds). */
export class UserHeatmapData {
  timestamp!: number;
  contributions!: number;
}

export class ServerVersion {
  version!: string;
}

/** Gitea's `UserSettings` (`GET/PATCH /user/settings`). */
export class UserSettings {
  full_name!: string;
  website!: string;
  description!: string;
  location!: string;
  language!: string;
  theme!: string;
  diff_view_style!: string;
  hide_email!: boolean;
  hide_activity!: boolean;
}

/** Gitea's `Email`; `user_id` and `username` are only filled in the admin listing. */
export class Email {
  email!: string;
  verified!: boolean;
  primary!: boolean;
  user_id!: number;
  username!: string;
}

/** The envelope of Gitea's search endpoints (users, teams, repositories). */
export interface SearchResults<T> {
  ok: boolean;
  data: T[];
}
