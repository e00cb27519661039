import { Injectable } from '@nestjs/common';
import type { createLogger } from '@gitforge/platform';

/**
 * Gitea's task names in its registration order (services/cron/tasks_basic.go, tasks_extended.go,
 * tasks_actions.go). `GET /admin/cron` lists registered tasks in this order whichever module
 * registered them first; a name not in the list comes after, in registration order.
 */
export const GITEA_TASK_ORDER: readonly string[] = [
  'update_mirrors',
  'repo_health_check',
  'check_repo_stats',
  'archive_cleanup',
  'sync_external_users',
  'deleted_branches_cleanup',
  'update_migration_poster_id',
  'cleanup_hook_task_table',
  'cleanup_packages',
  'sync_repo_licenses',
  'delete_inactive_accounts',
  'delete_repo_archives',
  'git_gc_repos',
  'resync_all_sshkeys',
  'resync_all_sshprincipals',
  'resync_all_hooks',
  'reinit_missing_repos',
  'delete_missing_repos',
  'delete_generated_repository_avatars',
  'delete_old_actions',
  'update_checker',
  'delete_old_system_notices',
  'gc_lfs',
  'rebuild_issue_indexer',
  'stop_zombie_tasks',
  'stop_endless_tasks',
  'cancel_abandoned_jobs',
  'start_schedule_tasks',
  'cleanup_actions',
];

/** What a task gets when it runs. */
export interface CronTaskContext {
  /** The task's OLDER_THAN (configured or its default), for tasks that remove old things. */
  olderThanMs: number;
  log: ReturnType<typeof createLogger>;
  /** Records a system notice (and logs it), as Gitea's tasks report what needs an administrator. */
  notice(description: string): Promise<void>;
}

/** One scheduled task: Gitea's name and defaults, and the work (which calls the service owning the data). */
export interface CronTaskDefinition {
  name: string;
  /** Scheduled by default (Gitea's ENABLED); the environment can turn it on or off. */
  enabled: boolean;
  /** Gitea's default SCHEDULE: `@every <duration>`, `@midnight`-style descriptors or a cron line. */
  schedule: string;
  /** Gitea's default OLDER_THAN, for tasks that have one. */
  olderThanMs?: number;
  run(ctx: CronTaskContext): Promise<void>;
}

/**
 * Every scheduled task of the forge. A feature adds one with a single `register` call from an
 * `onModuleInit` of a provider in admin-service (see tasks/basic-tasks.ts); the scheduler starts
 * them all at application bootstrap, after every module has registered.
 */
@Injectable()
export class CronTaskRegistry {
  private readonly tasks = new Map<string, CronTaskDefinition>();

  register(task: CronTaskDefinition): void {
    if (!/^[a-z0-9_]{1,64}$/.test(task.name)) throw new Error(`bad cron task name ${task.name}`);
    if (this.tasks.has(task.name)) throw new Error(`cron task ${task.name} registered twice`);
    this.tasks.set(task.name, task);
  }

  get(name: string): CronTaskDefinition | undefined {
    return this.tasks.get(name);
  }

  /** In Gitea's order. */
  all(): CronTaskDefinition[] {
    const rank = (name: string): number => {
      const i = GITEA_TASK_ORDER.indexOf(name);
      return i === -1 ? GITEA_TASK_ORDER.length : i;
    };
    // Array.prototype.sort is stable: unknown names keep their registration order.
    return [...this.tasks.values()].sort((a, b) => rank(a.name) - rank(b.name));
  }
}
