import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** `PUT /repos/{owner}/{repo}/branches/{branch}`: move an existing branch to another commit. */
export class UpdateBranchRepoOption {
  /** The commit the branch should point to: a commit id, or a branch or tag naming one. */
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @MaxLength(255)
  new_commit_id!: string;

  /** The branch's expected current head: when given and the branch has moved, nothing changes (409). */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  old_commit_id?: string;

  /** Allow an update that is not a fast-forward. */
  @IsOptional()
  @IsBoolean()
  force?: boolean;
}
