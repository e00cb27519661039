import { formatTime, isGlobPattern, type BranchProtection, type TagProtection } from '@gitforge/contracts';
import type { BranchProtectionEntity } from './branch-protection.entity.js';
import type { TagProtectionEntity } from './tag-protection.entity.js';

/** Names of the accounts and teams a protection lists, resolved once for a whole response. */
export interface NameLookup {
  users: Map<number, string>;
  teams: Map<number, string>;
}

/** The listed accounts' or teams' names, ordered by name as Gitea reads them back. */
const names = (ids: number[], byId: Map<number, string>): string[] =>
  ids
    .map((id) => byId.get(id))
    .filter((n): n is string => n !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

export function toTagProtection(p: TagProtectionEntity, lookup: NameLookup): TagProtection {
  return {
    id: p.id,
    name_pattern: p.namePattern,
    whitelist_usernames: names(p.allowlistUserIds, lookup.users),
    whitelist_teams: names(p.allowlistTeamIds, lookup.teams),
    created_at: formatTime(p.createdAt),
    updated_at: formatTime(p.updatedAt),
  };
}

export function toBranchProtection(p: BranchProtectionEntity, lookup: NameLookup): BranchProtection {
  const u = (ids: number[]) => names(ids, lookup.users);
  const t = (ids: number[]) => names(ids, lookup.teams);
  return {
    branch_name: isGlobPattern(p.ruleName) ? '' : p.ruleName,
    rule_name: p.ruleName,
    priority: p.priority,
    enable_push: p.canPush,
    enable_push_whitelist: p.enableWhitelist,
    push_whitelist_usernames: u(p.whitelistUserIds),
    push_whitelist_teams: t(p.whitelistTeamIds),
    push_whitelist_deploy_keys: p.whitelistDeployKeys,
    enable_force_push: p.canForcePush,
    enable_force_push_allowlist: p.enableForcePushAllowlist,
    force_push_allowlist_usernames: u(p.forcePushAllowlistUserIds),
    force_push_allowlist_teams: t(p.forcePushAllowlistTeamIds),
    force_push_allowlist_deploy_keys: p.forcePushAllowlistDeployKeys,
    enable_merge_whitelist: p.enableMergeWhitelist,
    merge_whitelist_usernames: u(p.mergeWhitelistUserIds),
    merge_whitelist_teams: t(p.mergeWhitelistTeamIds),
    enable_bypass_allowlist: p.enableBypassAllowlist,
    bypass_allowlist_usernames: u(p.bypassAllowlistUserIds),
    bypass_allowlist_teams: t(p.bypassAllowlistTeamIds),
    enable_status_check: p.enableStatusCheck,
    status_check_contexts: p.statusCheckContexts,
    required_approvals: p.requiredApprovals,
    enable_approvals_whitelist: p.enableApprovalsWhitelist,
    approvals_whitelist_username: u(p.approvalsWhitelistUserIds),
    approvals_whitelist_teams: t(p.approvalsWhitelistTeamIds),
    block_on_rejected_reviews: p.blockOnRejectedReviews,
    block_on_official_review_requests: p.blockOnOfficialReviewRequests,
    block_on_outdated_branch: p.blockOnOutdatedBranch,
    dismiss_stale_approvals: p.dismissStaleApprovals,
    ignore_stale_approvals: p.ignoreStaleApprovals,
    require_signed_commits: p.requireSignedCommits,
    protected_file_patterns: p.protectedFilePatterns,
    unprotected_file_patterns: p.unprotectedFilePatterns,
    block_admin_merge_override: p.blockAdminMergeOverride,
    created_at: formatTime(p.createdAt),
    updated_at: formatTime(p.updatedAt),
  };
}

/** Every account and team id a list of protections mentions. */
export function mentionedIds(rows: Array<TagProtectionEntity | BranchProtectionEntity>): { users: number[]; teams: number[] } {
  const users = new Set<number>();
  const teams = new Set<number>();
  for (const r of rows) {
    if ('allowlistUserIds' in r) {
      r.allowlistUserIds.forEach((id) => users.add(id));
      r.allowlistTeamIds.forEach((id) => teams.add(id));
    } else {
      for (const id of [
        ...r.whitelistUserIds,
        ...r.forcePushAllowlistUserIds,
        ...r.mergeWhitelistUserIds,
        ...r.bypassAllowlistUserIds,
        ...r.approvalsWhitelistUserIds,
      ])
        users.add(id);
      for (const id of [
        ...r.whitelistTeamIds,
        ...r.forcePushAllowlistTeamIds,
        ...r.mergeWhitelistTeamIds,
        ...r.bypassAllowlistTeamIds,
        ...r.approvalsWhitelistTeamIds,
      ])
        teams.add(id);
    }
  }
  return { users: [...users], teams: [...teams] };
}
