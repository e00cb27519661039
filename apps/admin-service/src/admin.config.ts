import { IsOptional, IsString } from 'class-validator';
import { PlatformConfig } from '@gitforge/platform';

export class AdminServiceConfig extends PlatformConfig {
  /**
   * Scheduled tasks to turn on or off, as `task=schedule` pairs separated by `;`, Gitea's
   * `[cron.<task>] ENABLED`/`SCHEDULE`: a schedule (`@every 24h`, `@midnight`, `0 3 * * *`)
   * schedules the task, `-` leaves it unscheduled (it still runs from `POST /admin/cron/{task}`).
   * Example: `git_gc_repos=@every 24h; update_checker=-`. Tasks not named keep Gitea's defaults.
   */
  @IsOptional()
  @IsString()
  GITFORGE_CRON?: string;

  /**
   * Gitea's `[cron.<task>] OLDER_THAN` for the tasks that remove old things, as `task=duration`
   * pairs separated by `;` (Go durations: `168h`, `30m`). Example: `cleanup_hook_task_table=72h`.
   */
  @IsOptional()
  @IsString()
  GITFORGE_CRON_OLDER_THAN?: string;
}

/** `a=x; b=y` as a map; a pair without `=` is an error naming it. */
export function parsePairs(variable: string, text: string | undefined): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const part of (text ?? '').split(';')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) throw new Error(`${variable}: "${part.trim()}" is not task=value`);
    pairs.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return pairs;
}
