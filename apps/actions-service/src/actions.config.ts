import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { PlatformConfig } from '@gitforge/platform';

export class ActionsServiceConfig extends PlatformConfig {
  /**
   * How long a runner registration token stays valid, in minutes; 0, the default, is for good, as
   * Gitea's tokens (a token registers any number of runners until it is replaced).
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(60 * 24 * 365)
  GITFORGE_ACTIONS_REGISTRATION_TOKEN_TTL_MINUTES = 0;

  /** Days a finished task's log is kept (Gitea's `[actions] LOG_RETENTION_DAYS`); cleanup_actions drops older ones. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  GITFORGE_ACTIONS_LOG_RETENTION_DAYS = 365;
}
