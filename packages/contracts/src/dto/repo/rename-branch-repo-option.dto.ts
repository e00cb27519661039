import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { GitRefName } from '../common/validators.js';

/** `PATCH /repos/{owner}/{repo}/branches/{branch}`. */
export class RenameBranchRepoOption {
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @GitRefName()
  @MaxLength(100)
  name!: string;
}
