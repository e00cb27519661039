import { IsBoolean, IsEmail, IsIn, IsInt, IsISO8601, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { Username } from '../common/validators.js';
import { Visibilities, type Visibility } from '../../api/user.js';
import { MAX_OWNER_NAME_LENGTH } from '../../names.js';

/** `POST /admin/users`. */
export class CreateUserOption {
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @Username()
  @MaxLength(MAX_OWNER_NAME_LENGTH)
  username!: string;

  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  full_name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  password?: string;

  /** Gitea defaults this to true when omitted; such a user gets 403 on every API call until it changes its password. */
  @IsOptional()
  @IsBoolean()
  must_change_password?: boolean;

  @IsOptional()
  @IsBoolean()
  send_notify?: boolean;

  @IsOptional()
  @IsBoolean()
  restricted?: boolean;

  @IsOptional()
  @IsIn(Visibilities)
  visibility?: Visibility;

  @IsOptional()
  @IsString()
  login_name?: string;

  @IsOptional()
  @IsInt()
  source_id?: number;

  @IsOptional()
  @IsISO8601()
  created_at?: string;
}
