import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { ValidUrl } from '../common/validators.js';
import { Visibilities, type Visibility } from '../../api/user.js';

/**
 * `PATCH /admin/users/{username}`. Only the fields present change; `login_name` is required by
 * Gitea's binding (an empty one answers `[LoginName]: Required`).
 */
export class EditUserOption {
  @IsInt()
  @IsOptional()
  source_id?: number;

  @IsString()
  @IsNotEmpty({ message: 'Required' })
  login_name!: string;

  /** Validated as an address by the service, which answers Gitea's 400 `e-mail invalid`. */
  @IsOptional()
  @IsString()
  @MaxLength(254)
  email?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  full_name?: string;

  /** Ignored when empty, as Gitea does. */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  password?: string;

  @IsOptional()
  @IsBoolean()
  must_change_password?: boolean;

  @IsOptional()
  @ValidUrl()
  @MaxLength(255)
  website?: string;

  @IsOptional()
  @IsString()
  @MaxLength(50)
  location?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  description?: string;

  @IsOptional()
  @IsBoolean()
  active?: boolean;

  /** Site administrator flag (`is_admin` in the User shape). */
  @IsOptional()
  @IsBoolean()
  admin?: boolean;

  @IsOptional()
  @IsBoolean()
  prohibit_login?: boolean;

  @IsOptional()
  @IsBoolean()
  allow_create_organization?: boolean;

  @IsOptional()
  @IsBoolean()
  restricted?: boolean;

  @IsOptional()
  @IsIn(['', ...Visibilities])
  visibility?: Visibility | '';
}
