import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { MAX_ROW_ID } from '../common/validators.js';

/** Gitea's IssueMeta: an issue by number, in the route's repository unless `owner`/`repo` name another. */
export class IssueMeta {
  @IsInt()
  @Min(1)
  @Max(MAX_ROW_ID)
  index!: number;

  @IsOptional()
  @IsString()
  owner?: string;

  @IsOptional()
  @IsString()
  repo?: string;
}
