import type { PayloadCommit } from './payload.js';
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
