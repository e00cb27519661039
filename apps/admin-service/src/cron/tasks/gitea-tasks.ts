import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  AccountMaintenancePatterns,
  PackagePatterns,
  RepoMaintenancePatterns,
  WebhookMaintenancePatterns,
  type RepoSweepRequest,
  type RepoSweepResult,
  type RepoSweepTask,
  type RetentionRequest,
  type RetentionResult,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { NoticesService } from '../../notices/notices.service.js';
import { CronTaskRegistry, type CronTaskContext } from '../cron-task.registry.js';

const HOUR = 60 * 60 * 1000;
/** Repositories per sweep call: each call stays well inside the transport's timeout. */
const SWEEP_BATCH = 20;
/** One batch of git_gc_repos may repack twenty large repositories. */
const SWEEP_CALL_TIMEOUT_MS = 30 * 60 * 1000;
const RETENTION_CALL_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * Gitea's basic and extended tasks that gitforge has the data for, each calling the service that
 * owns it. Not registered, because gitforge has nothing for them to act on: update_mirrors (no
 * pull mirrors), sync_external_users (no external login sources), deleted_branches_cleanup (no
 * deleted-branch records are kept), update_migration_poster_id (no migrations),
 * resync_all_sshkeys and resync_all_sshprincipals (no authorized_keys file: the SSH server is
 * built in), resync_all_hooks (no git hooks of its own to rewrite),
 * delete_generated_repository_avatars, rebuild_issue_indexer (no separate indexer),
 * update_checker (no network to ask), gc_lfs and delete_missing_repos (not built yet). The actions
 * tasks are in actions-tasks.ts.
 */
@Injectable()
export class GiteaCronTasks implements OnModuleInit {
  constructor(
    private readonly registry: CronTaskRegistry,
    private readonly rpc: RpcClient,
    private readonly notices: NoticesService,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      name: 'repo_health_check',
      enabled: true,
      schedule: '@midnight',
      run: async (ctx) => {
        // Gitea's health check: `git fsck` of each repository, each failure a notice.
        for (const f of await this.sweep('fsck', ctx))
          await ctx.notice(`Repository health check failed on ${f.fullName}: ${f.message}`);
      },
    });
    this.registry.register({
      name: 'check_repo_stats',
      enabled: true,
      schedule: '@midnight',
      run: async (ctx) => {
        for (const f of await this.sweep('stats', ctx))
          ctx.log.warn({ repoId: f.repoId, err: f.message }, 'could not recount a repository');
      },
    });
    this.registry.register({
      name: 'archive_cleanup',
      enabled: true,
      schedule: '@midnight',
      olderThanMs: 24 * HOUR,
      run: (ctx) =>
        this.retention(RepoMaintenancePatterns.cleanArchives, ctx.olderThanMs, ctx, 'archives removed'),
    });
    this.registry.register({
      name: 'cleanup_hook_task_table',
      enabled: true,
      schedule: '@midnight',
      olderThanMs: 168 * HOUR,
      run: (ctx) =>
        this.retention(
          WebhookMaintenancePatterns.cleanupHookTasks,
          ctx.olderThanMs,
          ctx,
          'hook deliveries removed',
        ),
    });
    this.registry.register({
      name: 'cleanup_packages',
      enabled: true,
      schedule: '@midnight',
      olderThanMs: 24 * HOUR,
      // Package blobs no file references any more (deleted versions and files, failed uploads).
      run: (ctx) => this.retention(PackagePatterns.cleanup, ctx.olderThanMs, ctx, 'package blobs removed'),
    });
    this.registry.register({
      name: 'sync_repo_licenses',
      enabled: false,
      schedule: '@annually',
      // Every repository's license file read again, as after an upgrade of the license list.
      run: async (ctx) => {
        for (const f of await this.sweep('licenses', ctx))
          ctx.log.warn({ repoId: f.repoId, err: f.message }, 'could not read the licenses of a repository');
      },
    });
    this.registry.register({
      name: 'delete_inactive_accounts',
      enabled: false,
      schedule: '@annually',
      olderThanMs: 0,
      run: (ctx) =>
        this.retention(
          AccountMaintenancePatterns.deleteInactive,
          ctx.olderThanMs,
          ctx,
          'inactive accounts deleted',
        ),
    });
    this.registry.register({
      name: 'delete_repo_archives',
      enabled: false,
      schedule: '@annually',
      // Every archive, whatever its age (Gitea's DeleteRepositoryArchives).
      run: (ctx) => this.retention(RepoMaintenancePatterns.cleanArchives, 0, ctx, 'archives removed'),
    });
    this.registry.register({
      name: 'git_gc_repos',
      enabled: false,
      schedule: '@every 72h',
      run: async (ctx) => {
        for (const f of await this.sweep('gc', ctx))
          await ctx.notice(`Repository garbage collection failed on ${f.fullName}: ${f.message}`);
      },
    });
    this.registry.register({
      name: 'reinit_missing_repos',
      enabled: false,
      schedule: '@every 72h',
      run: async (ctx) => {
        for (const f of await this.sweep('reinit', ctx))
          await ctx.notice(`InitRepository (${f.fullName}) [${f.repoId}]: ${f.message}`);
      },
    });
    this.registry.register({
      name: 'delete_old_actions',
      enabled: false,
      schedule: '@every 168h',
      olderThanMs: 365 * 24 * HOUR,
      run: (ctx) => this.retention(WebhookMaintenancePatterns.deleteOldActions, ctx.olderThanMs, ctx, 'old activity feed entries deleted'),
    });
    this.registry.register({
      name: 'delete_old_system_notices',
      enabled: false,
      schedule: '@every 168h',
      olderThanMs: 365 * 24 * HOUR,
      run: async (ctx) => {
        const removed = await this.notices.deleteOlderThan(new Date(Date.now() - ctx.olderThanMs));
        ctx.log.info({ removed }, 'old system notices deleted');
      },
    });
  }

  /** A pass over every repository, a batch per call; answers the repositories it failed on. */
  private async sweep(task: RepoSweepTask, ctx: CronTaskContext): Promise<RepoSweepResult['failures']> {
    const failures: RepoSweepResult['failures'] = [];
    let afterId = 0;
    let processed = 0;
    for (;;) {
      const r = await this.rpc.call<RepoSweepResult, Record<string, string>, RepoSweepRequest>(
        RepoMaintenancePatterns.sweep,
        { actor: null, body: { task, afterId, limit: SWEEP_BATCH } },
        { timeoutMs: SWEEP_CALL_TIMEOUT_MS },
      );
      processed += r.processed;
      failures.push(...r.failures);
      if (r.nextAfterId === null) break;
      afterId = r.nextAfterId;
    }
    ctx.log.info({ processed, failed: failures.length }, 'repositories done');
    return failures;
  }

  private async retention(
    pattern: string,
    olderThanMs: number,
    ctx: CronTaskContext,
    what: string,
  ): Promise<void> {
    const r = await this.rpc.call<RetentionResult, Record<string, string>, RetentionRequest>(
      pattern,
      { actor: null, body: { olderThanMs } },
      { timeoutMs: RETENTION_CALL_TIMEOUT_MS },
    );
    ctx.log.info({ removed: r.removed, olderThanMs }, what);
  }
}
