import { IsArray, IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { GlobPattern, IsStringMap } from '../common/validators.js';

/**
 * `PATCH …/hooks/{id}`. As in Gitea, `events` is recomputed on every edit (absent means
 * `push`), and `branch_filter` and `authorization_header` are overwritten (absent clears them);
 * `active` and `name` change only when present; `config` keys change only when present.
 */
export class EditHookOption {
  @IsOptional()
  @IsStringMap()
  config?: Record<string, string>;

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
