import { IsInt, IsOptional, IsString, Min } from 'class-validator';

/** Gitea's IssueMeta: an issue by number, in the route's repository unless `owner`/`repo` name another. */
export class IssueMeta {
  @IsInt()
  @Min(1)
  index!: number;

  @IsOptional()
  @IsString()
  owner?: string;

  @IsOptional()
  @IsString()
  repo?: string;
}
