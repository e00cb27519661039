import { IsArray, IsOptional, IsString } from 'class-validator';

/** `POST /repos/{owner}/{repo}/tag_protections`. */
export class CreateTagProtectionOption {
  /** A glob, or a regular expression between slashes. */
  @IsOptional()
  @IsString()
  name_pattern?: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  whitelist_usernames?: string[];

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  whitelist_teams?: string[];
}
