import { IsEmail, IsOptional, IsString, MinLength } from 'class-validator';
import { PlatformConfig } from '@gitforge/platform';

export class OrgServiceConfig extends PlatformConfig {
  /** Site administrator ensured at start (created if missing, made admin if not). */
  @IsOptional()
  @IsString()
  GITFORGE_ADMIN_USER?: string;

  /** Password given to that administrator when it is created. */
  @IsOptional()
  @IsString()
  @MinLength(8)
  GITFORGE_ADMIN_PASSWORD?: string;

  @IsOptional()
  @IsEmail()
  GITFORGE_ADMIN_EMAIL?: string;
}
