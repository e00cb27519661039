import { IsArray, IsOptional, IsString, MaxLength } from 'class-validator';

/** `POST /repos/{owner}/{repo}/tag_protections`. */
export class CreateTagProtectionOption {
  /** A glob, or a regular expression between slashes. */
  /** Stored in a 255-character column, as Gitea's. */
  @IsOptional()
  @IsString()
  @MaxLength(255)
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
