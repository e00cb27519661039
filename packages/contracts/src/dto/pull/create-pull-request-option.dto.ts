import { IsArray, IsBoolean, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength } from 'class-validator';
import { MAX_ROW_ID, RFC3339Date } from '../common/validators.js';

/** `POST /repos/{owner}/{repo}/pulls`: `head`, `base` and `title` are required, as Gitea's binding has them. */
export class CreatePullRequestOption {
  /** A branch of the base repository, `owner:branch` or `owner/repo:branch` of a fork. */
  @IsNotEmpty({ message: 'Required' })
  @IsString()
  head!: string;

  @IsNotEmpty({ message: 'Required' })
  @IsString()
  base!: string;

  @IsNotEmpty({ message: 'Required' })
  @IsString()
  @MaxLength(255)
  title!: string;

  @IsOptional()
  @IsString()
  body?: string;

  @IsOptional()
  @IsString()
  assignee?: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  assignees?: string[];

  @IsOptional()
  @IsInt()
  @Max(MAX_ROW_ID)
  milestone?: number;

  @IsOptional()
  @IsArray()
  @IsInt({ each: true })
  @Max(MAX_ROW_ID, { each: true })
  labels?: number[];

  @IsOptional()
  @RFC3339Date()
  due_date?: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  reviewers?: string[];

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  team_reviewers?: string[];

  @IsOptional()
  @IsBoolean()
  allow_maintainer_edit?: boolean;
}
