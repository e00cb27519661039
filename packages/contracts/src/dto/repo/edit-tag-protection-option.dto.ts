import { IsArray, IsOptional, IsString } from 'class-validator';

/** `PATCH /repos/{owner}/{repo}/tag_protections/{id}`: only the fields present change. */
export class EditTagProtectionOption {
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
