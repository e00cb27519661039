import { IsOptional, IsString, MaxLength } from 'class-validator';

/** `POST /repos/{owner}/{repo}/forks`: to the caller, or to an organization; optionally renamed. */
export class CreateForkOption {
  @IsOptional()
  @IsString()
  organization?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;
}
