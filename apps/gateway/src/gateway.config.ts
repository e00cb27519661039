import { Type } from 'class-transformer';
import { IsInt, IsString, Min } from 'class-validator';
import { PlatformConfig } from '@gitforge/platform';

export class GatewayConfig extends PlatformConfig {
  /** Interface the HTTP server binds. */
  @IsString()
  GITFORGE_HOST = '0.0.0.0';

  /**
   * How long verified credentials are reused without asking org-service again (so Basic auth
   * does not pay the password hash on every request). A revoked token or removed user keeps
   * working at most this long.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  GITFORGE_AUTH_CACHE_TTL_MS = 5_000;

  /** Largest JSON request body the API accepts. */
  @Type(() => Number)
  @IsInt()
  @Min(1024)
  GITFORGE_API_BODY_LIMIT_BYTES = 50 * 1024 * 1024;
}
