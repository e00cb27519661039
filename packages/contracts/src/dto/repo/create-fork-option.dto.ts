import { IsOptional, IsString, MaxLength } from 'class-validator';
import { AlphaDashDot } from '../common/validators.js';

/** `POST /repos/{owner}/{repo}/forks`: to the caller, or to an organization; optionally renamed. */
export class CreateForkOption {
  @IsOptional()
  @IsString()
  organization?: string;

  /** Checked as a new repository's name is (Gitea refuses the same names when it creates the fork). */
  @IsOptional()
  @IsString()
  @AlphaDashDot()
  @MaxLength(100)
  name?: string;
}
