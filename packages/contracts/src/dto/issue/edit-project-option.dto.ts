import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { ProjectCardTypes } from './create-project-option.dto.js';

/** `PATCH /projects/{id}`: only the fields present change; `state` closes or reopens it. */
export class EditProjectOption {
  @IsOptional()
  @IsNotEmpty()
  @IsString()
  @MaxLength(100)
  title?: string;

  @IsOptional()
  @IsString()
  description?: string;

  @IsOptional()
  @IsIn(ProjectCardTypes)
  card_type?: (typeof ProjectCardTypes)[number];

  @IsOptional()
  @IsIn(['open', 'closed'])
  state?: 'open' | 'closed';
}
