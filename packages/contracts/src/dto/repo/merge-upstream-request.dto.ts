import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * `POST /repos/{owner}/{repo}/merge-upstream`: bring a fork's branch up to date with its parent
 * (the branch of the same name there, else the parent's default branch).
 */
export class MergeUpstreamRequest {
  /** The fork's branch; Gitea binds no rule, so an empty or unknown one is its 404. */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  branch?: string;

  /** Refuse (400) instead of making a merge commit when the branch has diverged. */
  @IsOptional()
  @IsBoolean()
  ff_only?: boolean;
}
