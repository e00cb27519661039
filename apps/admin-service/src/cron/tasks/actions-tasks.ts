import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ActionsCronPatterns } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { CronTaskRegistry, type CronTaskContext } from '../cron-task.registry.js';

/** A pass over the actions tables may touch many runs; it answers well inside this. */
const ACTIONS_CALL_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * Gitea's actions tasks (services/cron/tasks_actions.go), on its default schedules, each run by
 * actions-service, which owns runs, jobs and tasks. Every one is a set of conditional updates, so
 * a tick that reaches it twice changes nothing the second time.
 */
@Injectable()
export class ActionsCronTasks implements OnModuleInit {
  constructor(
    private readonly registry: CronTaskRegistry,
    private readonly rpc: RpcClient,
  ) {}

  onModuleInit(): void {
    const tasks: Array<[name: string, schedule: string, pattern: string, what: string]> = [
      ['stop_zombie_tasks', '@every 5m', ActionsCronPatterns.stopZombieTasks, 'zombie tasks stopped'],
      ['stop_endless_tasks', '@every 30m', ActionsCronPatterns.stopEndlessTasks, 'endless tasks stopped'],
      ['cancel_abandoned_jobs', '@every 6h', ActionsCronPatterns.cancelAbandonedJobs, 'abandoned jobs cancelled'],
      ['start_schedule_tasks', '@every 1m', ActionsCronPatterns.startScheduleTasks, 'scheduled runs started'],
      ['cleanup_actions', '@midnight', ActionsCronPatterns.cleanupActions, 'expired actions logs and tokens removed'],
    ];
    for (const [name, schedule, pattern, what] of tasks) {
      this.registry.register({ name, enabled: true, schedule, run: (ctx) => this.call(pattern, ctx, what) });
    }
  }

  private async call(pattern: string, ctx: CronTaskContext, what: string): Promise<void> {
    const r = await this.rpc.call<{ affected: number }>(pattern, { actor: null }, { timeoutMs: ACTIONS_CALL_TIMEOUT_MS });
    ctx.log.info({ affected: r.affected }, what);
  }
}
