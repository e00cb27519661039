import { IsArray, IsBoolean, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { MAX_ROW_ID } from '../common/validators.js';

/** `PATCH /repos/{owner}/{repo}/branch_protections/{name}`: only the fields present change. */
export class EditBranchProtectionOption {
  @IsOptional() @IsBoolean() enable_push?: boolean;
  @IsOptional() @IsBoolean() enable_push_whitelist?: boolean;
  @IsOptional() @IsBoolean() push_whitelist_deploy_keys?: boolean;
  @IsOptional() @IsBoolean() enable_force_push?: boolean;
  @IsOptional() @IsBoolean() enable_force_push_allowlist?: boolean;
  @IsOptional() @IsBoolean() force_push_allowlist_deploy_keys?: boolean;
  @IsOptional() @IsBoolean() enable_merge_whitelist?: boolean;
  @IsOptional() @IsBoolean() enable_bypass_allowlist?: boolean;
  @IsOptional() @IsBoolean() enable_status_check?: boolean;
  @IsOptional() @IsBoolean() enable_approvals_whitelist?: boolean;
  @IsOptional() @IsBoolean() block_on_rejected_reviews?: boolean;
  @IsOptional() @IsBoolean() block_on_official_review_requests?: boolean;
  @IsOptional() @IsBoolean() block_on_outdated_branch?: boolean;
  @IsOptional() @IsBoolean() dismiss_stale_approvals?: boolean;
  @IsOptional() @IsBoolean() ignore_stale_approvals?: boolean;
  @IsOptional() @IsBoolean() require_signed_commits?: boolean;
  @IsOptional() @IsBoolean() block_admin_merge_override?: boolean;
  @IsOptional() @IsArray() @IsString({ each: true }) push_whitelist_usernames?: string[];
  @IsOptional() @IsArray() @IsString({ each: true }) push_whitelist_teams?: string[];
  @IsOptional() @IsArray() @IsString({ each: true }) force_push_allowlist_usernames?: string[];
  @IsOptional() @IsArray() @IsString({ each: true }) force_push_allowlist_teams?: string[];
  @IsOptional() @IsArray() @IsString({ each: true }) merge_whitelist_usernames?: string[];
  @IsOptional() @IsArray() @IsString({ each: true }) merge_whitelist_teams?: string[];
  @IsOptional() @IsArray() @IsString({ each: true }) bypass_allowlist_usernames?: string[];
  @IsOptional() @IsArray() @IsString({ each: true }) bypass_allowlist_teams?: string[];
  @IsOptional() @IsArray() @IsString({ each: true }) status_check_contexts?: string[];
  @IsOptional() @IsArray() @IsString({ each: true }) approvals_whitelist_username?: string[];
  @IsOptional() @IsArray() @IsString({ each: true }) approvals_whitelist_teams?: string[];
  @IsOptional() @IsString() protected_file_patterns?: string;
  @IsOptional() @IsString() unprotected_file_patterns?: string;
  /** Both are 32-bit integer columns. */
  @IsOptional() @IsInt() @Min(-MAX_ROW_ID) @Max(MAX_ROW_ID) priority?: number;
  @IsOptional() @IsInt() @Min(-MAX_ROW_ID) @Max(MAX_ROW_ID) required_approvals?: number;
}
