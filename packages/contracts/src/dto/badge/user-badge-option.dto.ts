import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * `POST` and `DELETE /admin/users/{username}/badges`. Absent or empty changes nothing (204), as
 * Gitea's nil slice does.
 */
export class UserBadgeOption {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(255, { each: true })
  badge_slugs?: string[];
}
