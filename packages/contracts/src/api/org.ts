import type { User, Visibility } from './user.js';

/** Gitea's `Organization` (structs/org.go). */
export class Organization {
  id!: number;
  name!: string;
  full_name!: string;
  email!: string;
  avatar_url!: string;
  description!: string;
  website!: string;
  location!: string;
  visibility!: Visibility;
  repo_admin_change_team_access!: boolean;
  /** Deprecated alias of `name`. */
  username!: string;
}

/** Gitea's `Team` (structs/org_team.go). `organization` is null where Gitea does not load it (lists of one organization, create, edit). */
export class Team {
  id!: number;
  name!: string;
  description!: string;
  organization!: Organization | null;
  includes_all_repositories!: boolean;
  /** `none`, `read`, `write`, `admin` or `owner`. */
  permission!: string;
  /** Deprecated by Gitea in favour of `units_map`, still sent. */
  units!: string[];
  units_map!: Record<string, string>;
  can_create_org_repo!: boolean;
  visibility!: Visibility;
}

/** Gitea's `OrganizationPermissions` (`GET /users/{username}/orgs/{org}/permissions`). */
export class OrganizationPermissions {
  can_create_repository!: boolean;
  can_read!: boolean;
  can_write!: boolean;
  is_admin!: boolean;
  is_owner!: boolean;
}

/** Where `GET /orgs/{org}/members/{username}` sends a caller who may only see public members. */
export interface MemberCheck {
  /** Null: the user is a member (204). Otherwise the absolute path to redirect to (303). */
  redirect: string | null;
}

/** A repository owner as other services need it (answered by org-service, not on the wire). */
export interface OwnerRef {
  id: number;
  login: string;
  kind: 'user' | 'organization';
  visibility: Visibility;
}

/**
 * How the calling actor relates to one owner and, for an organization, to some of its repositories.
 * Answered by `orgs.access`; repo-service's permission resolver combines it with collaborations.
 */
export interface OwnerAccess {
  owner: OwnerRef;
  /** The owner as a User, as Gitea renders Repository.owner for callers with access (ToUserWithAccessMode). */
  ownerUser: User;
  /** The actor may see the owner at all (visibility rules). */
  visible: boolean;
  /** Organization only: the actor is in its Owners team. */
  isOrgOwner: boolean;
  isOrgMember: boolean;
  /** Organization only: the actor may create repositories in it. */
  canCreateRepo: boolean;
  /** Organization only: the actor's team access, to every repository and to linked ones. */
  teamAccess: TeamAccess;
  /** Organization only: the owner as an Organization (webhook payloads). */
  organization: Organization | null;
}

export interface TeamAccess {
  /** From the actor's teams that include all repositories; null when none does. */
  all: TeamRepoAccess | null;
  /** From the actor's teams linked to specific repositories, by repository id. */
  repos: Record<string, TeamRepoAccess>;
}

/** Where the actor reaches repositories of organizations through teams (for `/user/repos`). */
export interface ReachableRepos {
  /** Organizations where one of the actor's teams includes all repositories. */
  orgIds: number[];
  /** Repositories linked to one of the actor's teams. */
  repoIds: number[];
  /** Private organizations the user belongs to (their public repositories count as the user's collaborations in search). */
  privateOrgIds?: number[];
  /** Organizations whose membership the user keeps private (search leaves them out unless private results are asked for). */
  concealedOrgIds?: number[];
}

export interface TeamRepoAccess {
  /** Highest AccessMode over the actor's teams that reach the repository. */
  mode: number;
  /** Unit name → AccessMode over those teams. */
  units: Record<string, number>;
}

/**
 * Which owners' repositories the actor may see at all (Gitea's HasOrgOrUserVisible over every
 * owner at once), for repository search: everyone's, all but some, or only some.
 */
export type OwnerFilter = { all: true } | { hidden: number[] } | { only: number[] };

/** The repositories one team reaches (answered to repo-service, not on the wire). */
export interface TeamRepoScope {
  orgId: number;
  includesAllRepositories: boolean;
  /** Linked repositories when the team does not include all of them. */
  repoIds: number[];
}
