import { IsArray, IsBoolean, IsInt, IsISO8601, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

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
  @IsISO8601()
  due_date?: string;

  /** Milestone id (0: none). */
  @IsOptional()
  @IsInt()
  milestone?: number;

  /** Label ids. */
  @IsOptional()
  @IsArray()
  @IsInt({ each: true })
  labels?: number[];

  /** Project ids the new issue is added to. */
  @IsOptional()
  @IsArray()
  @IsInt({ each: true })
  projects?: number[];

  @IsOptional()
  @IsBoolean()
  closed?: boolean;
}
