import { IsArray, IsBoolean, IsDefined, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { GlobPattern, IsStringMap } from '../common/validators.js';

/**
 * `POST …/hooks`. `config` holds `url`, `content_type` (`json` | `form`), `secret`, and for
 * slack `channel`, `username`, `icon_url`, `color`; on `/admin/hooks`, `is_system_webhook`
 * (`"true"` makes a system hook, otherwise a default hook copied to new repositories).
 * Empty `events` means `push`. A hook is created inactive unless `active` is true.
 */
export class CreateHookOption {
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  type!: string;

  @IsDefined({ message: 'Required' })
  @IsStringMap()
  config!: Record<string, string>;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  events?: string[];

  @IsOptional()
  @IsString()
  @GlobPattern()
  branch_filter?: string;

  @IsOptional()
  @IsString()
  authorization_header?: string;

  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;
}
