import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsString, Min } from 'class-validator';
import { EnvBoolean, PlatformConfig } from '@gitforge/platform';

export class WebhookWorkerConfig extends PlatformConfig {
  /** How long one delivery may take (connect, redirects, response), as Gitea's DELIVER_TIMEOUT. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  GITFORGE_WEBHOOK_TIMEOUT_MS = 5_000;

  /** Attempts per delivery, the first included; failed ones (non-2xx, timeout, connection error) are retried. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  GITFORGE_WEBHOOK_MAX_ATTEMPTS = 5;

  /** Delay before the first retry; each later retry waits twice as long. */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  GITFORGE_WEBHOOK_BACKOFF_MS = 10_000;

  /** A hook whose deliveries failed this many times in a row is deactivated (0: never). */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  GITFORGE_WEBHOOK_DISABLE_AFTER_FAILURES = 40;

  /**
   * Where hooks may deliver, in Gitea's ALLOWED_HOST_LIST forms, comma-separated: `external`
   * (public addresses; the default), `private`, `loopback`, `*`, host globs, CIDRs.
   */
  @IsString()
  GITFORGE_WEBHOOK_ALLOWED_HOSTS = 'external';

  /** Adds `loopback` to the allowed hosts (tests and single-machine setups). */
  @EnvBoolean()
  @IsBoolean()
  GITFORGE_WEBHOOK_ALLOW_LOOPBACK = false;

  /**
   * Deliveries one worker process sends at once. Their reads and writes share statements (one per
   * batch of concurrent jobs), so more at once costs few connections; a delivery spends most of
   * its time waiting (on the receiver, on commits), so a backlog drains about as fast as this
   * allows, until the process is busy.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  GITFORGE_WEBHOOK_CONCURRENCY = 128;

  /**
   * Connections for the worker's jobs: concurrent deliveries, and concurrent fan-outs, share a
   * statement per stage (a few at once); feed and notification projections (4 each) take one each.
   */
  override GITFORGE_DB_POOL_SIZE = 24;
}
