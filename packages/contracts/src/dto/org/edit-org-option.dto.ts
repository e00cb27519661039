import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ValidUrl } from '../common/validators.js';
import { Visibilities, type Visibility } from '../../api/user.js';

/**
 * `PATCH /orgs/{org}`. As in Gitea, `full_name`, `description`, `website` and `location` are
 * always written (an absent one is cleared); `email`, `visibility` and
 * `repo_admin_change_team_access` only change when present.
 */
export class EditOrgOption {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  full_name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  email?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  description?: string;

  @IsOptional()
  @ValidUrl()
  @MaxLength(255)
  website?: string;

  @IsOptional()
  @IsString()
  @MaxLength(50)
  location?: string;

  @IsOptional()
  @IsIn(['', ...Visibilities])
  visibility?: Visibility | '';

  @IsOptional()
  @IsBoolean()
  repo_admin_change_team_access?: boolean;
}
