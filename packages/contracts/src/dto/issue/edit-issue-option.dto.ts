import { IsArray, IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength } from 'class-validator';
import { MAX_ROW_ID, RFC3339Date } from '../common/validators.js';

/** `PATCH /repos/{owner}/{repo}/issues/{index}`: only the fields present change. */
export class EditIssueOption {
  @IsOptional()
  @IsString()
  @MaxLength(255)
  title?: string;

  @IsOptional()
  @IsString()
  body?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  ref?: string;

  /** Deprecated: one assignee by name (empty: none). */
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

  /** `open` or `closed`; another value is Gitea's 412 "unknown state" (checked by the service, as Gitea binds no rule). */
  @IsOptional()
  @IsString()
  state?: string;

  @IsOptional()
  @RFC3339Date()
  due_date?: string;

  @IsOptional()
  @IsBoolean()
  unset_due_date?: boolean;

  /** The content_version the editor saw: a different current one answers 409. */
  @IsOptional()
  @IsInt()
  @Max(MAX_ROW_ID)
  content_version?: number;

  @IsOptional()
  @IsArray()
  @IsInt({ each: true })
  @Max(MAX_ROW_ID, { each: true })
  projects?: number[];
}
