import { IsArray, IsBoolean, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength } from 'class-validator';
import { MAX_ROW_ID, RFC3339Date } from '../common/validators.js';

/** `POST /repos/{owner}/{repo}/issues`. */
export class CreateIssueOption {
  @IsNotEmpty({ message: 'Required' })
  @IsString()
  @MaxLength(255)
  title!: string;

  @IsOptional()
  @IsString()
  body?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  ref?: string;

  /** Deprecated: one assignee by name. */
  @IsOptional()
  @IsString()
  assignee?: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  assignees?: string[];

  @IsOptional()
  @RFC3339Date()
  due_date?: string;

  /** Milestone id (0: none). */
  @IsOptional()
  @IsInt()
  @Max(MAX_ROW_ID)
  milestone?: number;

  /** Label ids. */
  @IsOptional()
  @IsArray()
  @IsInt({ each: true })
  @Max(MAX_ROW_ID, { each: true })
  labels?: number[];

  /** Project ids the new issue is added to. */
  @IsOptional()
  @IsArray()
  @IsInt({ each: true })
  @Max(MAX_ROW_ID, { each: true })
  projects?: number[];

  @IsOptional()
  @IsBoolean()
  closed?: boolean;
}
