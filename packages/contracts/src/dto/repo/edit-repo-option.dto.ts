import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { AlphaDashDot, GitRefName } from '../common/validators.js';

/** Gitea's InternalTracker: the issue tracker's settings (each optional in a PATCH). */
export class InternalTrackerOption {
  @IsOptional() @IsBoolean() enable_time_tracker?: boolean;
  @IsOptional() @IsBoolean() allow_only_contributors_to_track_time?: boolean;
  @IsOptional() @IsBoolean() enable_issue_dependencies?: boolean;
}

/** `PATCH /repos/{owner}/{repo}`: only the fields present change. */
export class EditRepoOption {
  @IsOptional()
  @AlphaDashDot()
  @MaxLength(100)
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  description?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  website?: string;

  @IsOptional()
  @IsBoolean()
  private?: boolean;

  @IsOptional()
  @IsBoolean()
  template?: boolean;

  @IsOptional()
  @IsBoolean()
  archived?: boolean;

  @IsOptional()
  @GitRefName()
  @MaxLength(100)
  default_branch?: string;

  @IsOptional() @IsBoolean() has_issues?: boolean;
  @IsOptional() @IsBoolean() has_wiki?: boolean;
  @IsOptional() @IsBoolean() has_code?: boolean;
  @IsOptional() @IsBoolean() has_pull_requests?: boolean;
  @IsOptional() @IsBoolean() has_projects?: boolean;
  @IsOptional() @IsBoolean() has_releases?: boolean;
  @IsOptional() @IsBoolean() has_packages?: boolean;
  @IsOptional() @IsBoolean() has_actions?: boolean;
  @IsOptional() @IsBoolean() ignore_whitespace_conflicts?: boolean;
  @IsOptional() @IsBoolean() allow_merge_commits?: boolean;
  @IsOptional() @IsBoolean() allow_rebase?: boolean;
  @IsOptional() @IsBoolean() allow_rebase_explicit?: boolean;
  @IsOptional() @IsBoolean() allow_squash_merge?: boolean;
  @IsOptional() @IsBoolean() allow_fast_forward_only_merge?: boolean;
  @IsOptional() @IsBoolean() allow_manual_merge?: boolean;
  @IsOptional() @IsBoolean() autodetect_manual_merge?: boolean;
  @IsOptional() @IsBoolean() allow_rebase_update?: boolean;
  @IsOptional() @IsBoolean() allow_merge_update?: boolean;
  @IsOptional() @IsBoolean() default_delete_branch_after_merge?: boolean;
  @IsOptional() @IsBoolean() default_allow_maintainer_edit?: boolean;

  @IsOptional()
  @IsIn(['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only', 'manually-merged'])
  default_merge_style?: string;

  @IsOptional()
  @IsIn(['merge', 'rebase'])
  default_update_style?: string;

  @IsOptional()
  @IsIn(['repo', 'owner', 'all'])
  projects_mode?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => InternalTrackerOption)
  internal_tracker?: InternalTrackerOption;
}
