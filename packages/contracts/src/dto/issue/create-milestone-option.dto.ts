import { IsIn, IsISO8601, IsOptional, IsString } from 'class-validator';

/** `POST /repos/{owner}/{repo}/milestones` (Gitea binds nothing as required). */
export class CreateMilestoneOption {
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
