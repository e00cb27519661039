/** Gitea's `TagProtection` (structs/repo_tag.go). */
export class TagProtection {
  id!: number;
  /** A glob, or a regular expression between slashes (`/^v\d+$/`). */
  name_pattern!: string;
  whitelist_usernames!: string[];
  whitelist_teams!: string[];
  created_at!: string;
  updated_at!: string;
}

/** Gitea's `BranchProtection` (structs/repo_branch.go). */
export class BranchProtection {
  /** Deprecated: the rule name when it is a plain branch name, else "". */
  branch_name!: string;
  /** A branch name or a glob (`release/*`, `**`). */
  rule_name!: string;
  priority!: number;
  enable_push!: boolean;
  enable_push_whitelist!: boolean;
  push_whitelist_usernames!: string[];
  push_whitelist_teams!: string[];
  push_whitelist_deploy_keys!: boolean;
  enable_force_push!: boolean;
  enable_force_push_allowlist!: boolean;
  force_push_allowlist_usernames!: string[];
  force_push_allowlist_teams!: string[];
  force_push_allowlist_deploy_keys!: boolean;
  enable_merge_whitelist!: boolean;
  merge_whitelist_usernames!: string[];
  merge_whitelist_teams!: string[];
  enable_bypass_allowlist!: boolean;
  bypass_allowlist_usernames!: string[];
  bypass_allowlist_teams!: string[];
  enable_status_check!: boolean;
  status_check_contexts!: string[];
  required_approvals!: number;
  enable_approvals_whitelist!: boolean;
  approvals_whitelist_username!: string[];
  approvals_whitelist_teams!: string[];
  block_on_rejected_reviews!: boolean;
  block_on_official_review_requests!: boolean;
  block_on_outdated_branch!: boolean;
  dismiss_stale_approvals!: boolean;
  ignore_stale_approvals!: boolean;
  require_signed_commits!: boolean;
  protected_file_patterns!: string;
  unprotected_file_patterns!: string;
  block_admin_merge_override!: boolean;
  created_at!: string;
  updated_at!: string;
}
