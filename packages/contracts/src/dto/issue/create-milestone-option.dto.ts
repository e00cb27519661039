import { IsOptional, IsString, MaxLength } from 'class-validator';
import { RFC3339Date } from '../common/validators.js';

/** `POST /repos/{owner}/{repo}/milestones` (Gitea binds nothing as required). */
export class CreateMilestoneOption {
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

  /** `closed` closes it; any other value leaves it open, as Gitea binds no rule. */
  @IsOptional()
  @IsString()
  state?: string;
}
