import { IsOptional, IsString, MaxLength } from 'class-validator';

/** `PUT /repos/{owner}/{repo}/issues/{index}/lock`. */
export class LockIssueOption {
  @IsOptional()
  @IsString()
  @MaxLength(255)
  lock_reason?: string;
}
