import { IsISO8601, IsOptional } from 'class-validator';

/** Author and committer dates of a file change (RFC 3339); now when absent. */
export class CommitDateOptions {
  @IsOptional()
  @IsISO8601()
  author?: string;

  @IsOptional()
  @IsISO8601()
  committer?: string;
}
