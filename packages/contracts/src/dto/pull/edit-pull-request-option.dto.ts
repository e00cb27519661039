import { IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength } from 'class-validator';
import { MAX_ROW_ID, RFC3339Date } from '../common/validators.js';

/** `PATCH /repos/{owner}/{repo}/pulls/{index}`: only the fields present change. */
export class EditPullRequestOption {
  @IsOptional()
  @IsString()
  @MaxLength(255)
  title?: string;

  @IsOptional()
  @IsString()
  body?: string;

  /** A new base branch (of the base repository). */
  @IsOptional()
  @IsString()
  base?: string;

  @IsOptional()
  @IsString()
  assignee?: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  assignees?: string[];

  /** Milestone id; 0 removes it. */
  @IsOptional()
  @IsInt()
  @Max(MAX_ROW_ID)
  milestone?: number;

  /** Replaces the labels. */
  @IsOptional()
  @IsArray()
  @IsInt({ each: true })
  @Max(MAX_ROW_ID, { each: true })
  labels?: number[];

  @IsOptional()
  @IsIn(['open', 'closed'])
  state?: string;

  @IsOptional()
  @RFC3339Date()
  due_date?: string;

  @IsOptional()
  @IsBoolean()
  unset_due_date?: boolean;

  @IsOptional()
  @IsBoolean()
  allow_maintainer_edit?: boolean;

  @IsOptional()
  @IsInt()
  content_version?: number;
}
