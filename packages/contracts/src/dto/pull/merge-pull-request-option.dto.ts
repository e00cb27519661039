import { IsBoolean, IsIn, IsOptional, IsString } from 'class-validator';
import { MergeStyles } from '../../api/pull.js';

/** `POST /repos/{owner}/{repo}/pulls/{index}/merge` (Gitea's MergePullRequestForm; `Do` is required). */
export class MergePullRequestOption {
  @IsIn(MergeStyles)
  Do!: (typeof MergeStyles)[number];

  @IsOptional()
  @IsString()
  MergeTitleField?: string;

  @IsOptional()
  @IsString()
  MergeMessageField?: string;

  /** For `manually-merged`: the commit that merged it. */
  @IsOptional()
  @IsString()
  MergeCommitID?: string;

  /** The head the caller saw; a different head answers 409. */
  @IsOptional()
  @IsString()
  head_commit_id?: string;

  @IsOptional()
  @IsBoolean()
  force_merge?: boolean;

  @IsOptional()
  @IsBoolean()
  merge_when_checks_succeed?: boolean;

  @IsOptional()
  @IsBoolean()
  delete_branch_after_merge?: boolean;
}
