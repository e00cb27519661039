import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { PlatformConfig } from '@gitforge/platform';

export class ActionsServiceConfig extends PlatformConfig {
  /** How long a runner registration token stays valid, in minutes (each token registers one runner). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(60 * 24 * 365)
  GITFORGE_ACTIONS_REGISTRATION_TOKEN_TTL_MINUTES = 60 * 24;

  /** Days a finished task's log is kept (Gitea's `[actions] LOG_RETENTION_DAYS`); cleanup_actions drops older ones. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  GITFORGE_ACTIONS_LOG_RETENTION_DAYS = 365;
}
