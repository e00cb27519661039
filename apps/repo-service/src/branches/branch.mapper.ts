import type { Actor, Branch } from '@gitforge/contracts';
import type { RepoPermission } from '../access/repo-permission.js';
import { toBranchCommit, type UsersByEmail } from '../commits/commit.mapper.js';
import type { GitCommit } from '../git/git-objects.js';
import type { RepoUrls } from '../repos/repo.mapper.js';
import type { BranchProtectionView } from './branch-policy.js';

/**
 * Gitea's convert.ToBranch: without a rule, anyone who may write code may push and merge; with
 * one, the rule decides, and only repository admins see the rule's name.
 */
export function toBranch(
  name: string,
  commit: GitCommit,
  protection: BranchProtectionView | null,
  actor: Actor | null,
  permission: RepoPermission,
  urls: RepoUrls,
  users: UsersByEmail,
): Branch {
  const canWrite = actor !== null && permission.canWrite('repo.code');
  return {
    name,
    commit: toBranchCommit(commit, urls, users),
    protected: protection !== null,
    required_approvals: protection?.requiredApprovals ?? 0,
    enable_status_check: protection?.enableStatusCheck ?? false,
    status_check_contexts: protection?.statusCheckContexts ?? [],
    user_can_push: protection ? actor !== null && protection.userCanPush : canWrite,
    user_can_merge: protection ? actor !== null && protection.userCanMerge : canWrite,
    effective_branch_protection_name: protection && permission.isAdmin ? protection.ruleName : '',
  };
}
