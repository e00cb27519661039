import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';

/**
 * Most line comments one review carries. Gitea has no limit; each costs a row and a cut of the
 * pull's diff, so a body of tens of thousands (a few megabytes) held issue-service for seconds.
 */
export const MAX_REVIEW_COMMENTS = 1000;

/** A comment on a line of a new review: `new_position` on the head side, `old_position` on the base side. */
export class CreatePullReviewComment {
  @IsOptional()
  @IsString()
  path?: string;

  @IsOptional()
  @IsString()
  body?: string;

  @IsOptional()
  @IsInt()
  old_position?: number;

  @IsOptional()
  @IsInt()
  new_position?: number;
}

/** `POST /pulls/{index}/reviews`: `event` APPROVED, REQUEST_CHANGES, COMMENT, or none (PENDING). */
export class CreatePullReviewOptions {
  @IsOptional()
  @IsString()
  event?: string;

  @IsOptional()
  @IsString()
  body?: string;

  @IsOptional()
  @IsString()
  commit_id?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_REVIEW_COMMENTS)
  @ValidateNested({ each: true })
  @Type(() => CreatePullReviewComment)
  comments?: CreatePullReviewComment[];
}

/** `POST /pulls/{index}/reviews/{id}`: submits a pending review. */
export class SubmitPullReviewOptions {
  @IsOptional()
  @IsString()
  event?: string;

  @IsOptional()
  @IsString()
  body?: string;
}

/** `POST /pulls/{index}/reviews/{id}/dismissals`. */
export class DismissPullReviewOptions {
  @IsOptional()
  @IsString()
  message?: string;

  @IsOptional()
  @IsBoolean()
  priors?: boolean;
}

/** `POST|DELETE /pulls/{index}/requested_reviewers`. */
export class PullReviewRequestOptions {
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  reviewers?: string[];

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  team_reviewers?: string[];
}

/** `POST /pulls/{index}/comments/{id}/replies`: a reply in a line comment's conversation. */
export class CreatePullReviewCommentReplyOptions {
  @IsOptional()
  @IsString()
  body?: string;
}
