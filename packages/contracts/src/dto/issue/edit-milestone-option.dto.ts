import { IsOptional, IsString, MaxLength } from 'class-validator';
import { RFC3339Date } from '../common/validators.js';

/**
 * `PATCH /repos/{owner}/{repo}/milestones/{id}`: an empty title and an absent due date leave
 * them as they are (Gitea cannot remove a due date here).
 */
export class EditMilestoneOption {
  @IsOptional()
  @IsString()
  @MaxLength(255)
  title?: string;

  @IsOptional()
  @IsString()
  description?: string;

  @IsOptional()
  @RFC3339Date()
  due_on?: string;

  /** `closed` closes it; any other value opens it, as Gitea binds no rule. */
  @IsOptional()
  @IsString()
  state?: string;
}
