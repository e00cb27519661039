import { Type } from 'class-transformer';
import { IsInt, IsString, Matches, Min } from 'class-validator';
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

  /**
   * Largest push or fetch request body. repo-service enforces it on the decoded stream; the
   * gateway refuses a declared Content-Length over it at once, so git reads a 413 instead of a
   * connection reset while it is still sending.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1024)
  GITFORGE_GIT_MAX_BODY_BYTES = 2 * 1024 * 1024 * 1024;

  /**
   * repo-service's smart-HTTP listener (its GITFORGE_GIT_HTTP_PORT), where clones and pushes are
   * streamed to. A load balancer in front of several repo-service replicas works. The all-in-one
   * process finds its own listener and ignores this.
   */
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'must be an http(s) URL' })
  GITFORGE_REPO_GIT_URL = 'http://127.0.0.1:3100';

  /**
   * issue-service's attachment listener (its GITFORGE_ISSUE_HTTP_PORT), where attachment uploads
   * and downloads are streamed to. The all-in-one process finds its own listener and ignores this.
   */
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'must be an http(s) URL' })
  GITFORGE_ISSUE_HTTP_URL = 'http://127.0.0.1:3200';
}
