import type { PayloadCommit } from './payload.js';
import type { RepoUnitKey } from '../access.js';
import type { Permission, Repository } from './repo.js';

/**
 * A repository and the caller's permission on it, for services that guard their own resources
 * by repository access (hooks, deliveries, feeds). Answered by repo-service.
 */
export interface RepoAccess {
  id: number;
  name: string;
  ownerId: number;
  ownerLogin: string;
  isPrivate: boolean;
  isEmpty: boolean;
  defaultBranch: string;
  permission: Permission;
  /** The repository as the caller sees it. */
  repository: Repository;
  isArchived: boolean;
  isMirror: boolean;
  ownerKind: 'user' | 'organization';
  /** The caller's AccessMode per unit (team grants restrict units); site admins and owners have all. */
  units: Record<RepoUnitKey, number>;
  /** The caller may manage the repository (Gitea's IsAdmin, also site admins). */
  isAdmin: boolean;
  /** The caller owns the repository (Gitea's IsOwner: its user, an owner of its organization, a site admin). */
  isOwner: boolean;
  /**
   * The caller owns it, collaborates on it, is in a team of its organization that reaches its code,
   * or is a site admin (Gitea's IsOwnerMemberCollaborator, and IsAdmin): who may open pulls on it
   * from any head. Absent from an older repo-service during an upgrade: not checked.
   */
  isMember?: boolean;
  /** Units switched on, and the issue tracker's settings (Gitea's InternalTracker). */
  settings: RepoUnitSettings;
}

export interface RepoUnitSettings {
  has_issues: boolean;
  has_pull_requests: boolean;
  has_projects: boolean;
  has_actions: boolean;
  enable_time_tracker: boolean;
  allow_only_contributors_to_track_time: boolean;
  enable_issue_dependencies: boolean;
}

/** What one user may do in one repository, unit by unit (assignee and reviewer checks). */
export interface UserRepoAccess {
  userId: number;
  /** Inactive and login-prohibited users can be given nothing. */
  active: boolean;
  units: Record<RepoUnitKey, number>;
}

/**
 * issue-service's counters of one repository, computed by counting. `version` grows with each
 * change, so a late write of an older count never replaces a newer one.
 */
export interface RepoIssueCounters {
  repoId: number;
  numIssues: number;
  numClosedIssues: number;
  numPulls: number;
  numClosedPulls: number;
  version: number;
}

/** `repos.hookCommit`: the commit a test delivery carries, or null for an empty repository. */
export interface HookCommit {
  repository: Repository;
  /** The full ref the commit was taken from (`refs/heads/main`). */
  ref: string;
  commit: PayloadCommit | null;
}

/** What a team reaches and how the caller relates to it (team activity feeds). Answered by org-service. */
export interface TeamFeedScope {
  teamId: number;
  orgId: number;
  orgLogin: string;
  includesAllRepositories: boolean;
  /** Linked repositories (ignored when the team includes all of them). */
  repoIds: number[];
  isOrgOwner: boolean;
  isOrgMember: boolean;
  isTeamMember: boolean;
}
