import { IsIn, IsISO8601, IsOptional, IsString } from 'class-validator';

/**
 * `PATCH /repos/{owner}/{repo}/milestones/{id}`: an empty title and an absent due date leave
 * them as they are (Gitea cannot remove a due date here).
 */
export class EditMilestoneOption {
  @IsOptional()
  @IsString()
  title?: string;

  @IsOptional()
  @IsString()
  description?: string;

  @IsOptional()
  @IsISO8601()
  due_on?: string;

  @IsOptional()
  @IsIn(['open', 'closed'])
  state?: 'open' | 'closed';
}
