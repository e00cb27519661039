import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { Username, ValidUrl } from '../common/validators.js';
import { Visibilities, type Visibility } from '../../api/user.js';
import { MAX_OWNER_NAME_LENGTH } from '../../names.js';

/** `POST /orgs`. */
export class CreateOrgOption {
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @Username()
  @MaxLength(MAX_OWNER_NAME_LENGTH)
  username!: string;

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
