import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { ValidUrl } from '../common/validators.js';

/** `PATCH /user/settings`: only the fields present change. */
export class UserSettingsOptions {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  full_name?: string;

  @IsOptional()
  @ValidUrl()
  @MaxLength(255)
  website?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  description?: string;

  @IsOptional()
  @IsString()
  @MaxLength(50)
  location?: string;

  @IsOptional()
  @IsString()
  @MaxLength(5)
  language?: string;

  @IsOptional()
  @IsString()
  @MaxLength(30)
  theme?: string;

  @IsOptional()
  @IsString()
  @MaxLength(8)
  diff_view_style?: string;

  /** Keeps the e-mail address from other users (`email` shows a no-reply placeholder). */
  @IsOptional()
  @IsBoolean()
  hide_email?: boolean;

  @IsOptional()
  @IsBoolean()
  hide_activity?: boolean;
}
