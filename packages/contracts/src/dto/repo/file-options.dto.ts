import { Type } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { GitRefName } from '../common/validators.js';
import { CommitDateOptions } from './commit-date-options.dto.js';
import { Identity } from './identity.dto.js';

/**
 * Gitea's `FileOptions`, shared by every file change: when only one of `author`/`committer`
 * is given it is used for both; when neither is, the signed-in user is.
 */
export class FileOptions {
  @IsOptional()
  @IsString()
  message?: string;

  /** The base branch; the default branch when absent. */
  @IsOptional()
  @GitRefName()
  @MaxLength(100)
  branch?: string;

  /** Commit to a new branch made from `branch`. */
  @IsOptional()
  @GitRefName()
  @MaxLength(100)
  new_branch?: string;

  /** Overwrite `new_branch` when it already exists. */
  @IsOptional()
  @IsBoolean()
  force_push?: boolean;

  @IsOptional()
  @ValidateNested()
  @Type(() => Identity)
  author?: Identity;

  @IsOptional()
  @ValidateNested()
  @Type(() => Identity)
  committer?: Identity;

  @IsOptional()
  @ValidateNested()
  @Type(() => CommitDateOptions)
  dates?: CommitDateOptions;

  /** Adds a `Signed-off-by` trailer by the committer. */
  @IsOptional()
  @IsBoolean()
  signoff?: boolean;
}
