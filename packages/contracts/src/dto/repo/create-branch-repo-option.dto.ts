import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { GitRefName } from '../common/validators.js';

/** `POST /repos/{owner}/{repo}/branches`. */
export class CreateBranchRepoOption {
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @GitRefName()
  @MaxLength(100)
  new_branch_name!: string;

  /** Deprecated: the branch to start from (404 when it does not exist). */
  @IsOptional()
  @GitRefName()
  @MaxLength(100)
  old_branch_name?: string;

  /** Branch, tag or commit to start from. */
  @IsOptional()
  @GitRefName()
  @MaxLength(100)
  old_ref_name?: string;
}
