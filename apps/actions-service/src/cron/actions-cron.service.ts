import { Injectable } from '@nestjs/common';
import { In, LessThan } from 'typeorm';
import { createLogger, Database } from '@gitforge/platform';
import { ActionsServiceConfig } from '../actions.config.js';
import { ActionRunJobEntity, ActionTaskEntity } from '../entities.js';
import { RunnersService } from '../runners/runners.service.js';
import { RunEngine } from '../runs/run-engine.service.js';
import { SchedulesService } from '../runs/schedules.service.js';
import { Status } from '../runs/status.js';

const log = createLogger('actions-cron');

/** Gitea's [actions] ZOMBIE_TASK_TIMEOUT, ENDLESS_TASK_TIMEOUT and ABANDONED_JOB_TIMEOUT defaults. */
const ZOMBIE_TASK_MS = 10 * 60_000;
const ENDLESS_TASK_MS = 3 * 3600_000;
const ABANDONED_JOB_MS = 24 * 3600_000;

/**
 * Gitea's actions cron tasks as plain methods; the admin scheduler calls them by message pattern
 * (ActionsCronPatterns). Each answers how many rows it changed.
 */
@Injectable()
export class ActionsCronService {
  constructor(
    private readonly db: Database,
    private readonly engine: RunEngine,
    private readonly runners: RunnersService,
    private readonly schedules: SchedulesService,
    private readonly config: ActionsServiceConfig,
  ) {}

  /** start_schedule_tasks: the runs of `on: schedule` workflows that are due. */
  startScheduleTasks(now = new Date()): Promise<{ affected: number }> {
    return this.schedules.startDue(now);
  }

  /** Fails running tasks the runner stopped reporting, their jobs, and what follows from that. */
  private async failTasks(tasks: ActionTaskEntity[]): Promise<number> {
    const runs = new Set<number>();
    let count = 0;
    for (const task of tasks) {
      const stopped = await this.db.transaction(async (m) => {
        const now = new Date();
        const r = await m.update(ActionTaskEntity, { id: task.id, status: Status.running }, { status: Status.failure, stopped: now, updatedAt: now });
        if (r.affected !== 1) return false;
        await m.update(ActionRunJobEntity, { id: task.jobId, taskId: task.id }, { status: Status.failure, stopped: now, updatedAt: now });
        await this.engine.advance(m, task.runId);
        return true;
      });
      if (stopped) {
        runs.add(task.runId);
        count++;
      }
    }
    for (const runId of runs) await this.engine.reportStatuses(runId);
    return count;
  }

  /** stop_zombie_tasks: running tasks without an update for ZOMBIE_TASK_TIMEOUT. */
  async stopZombieTasks(now = Date.now()): Promise<{ affected: number }> {
    const tasks = await this.db.manager.findBy(ActionTaskEntity, { status: Status.running, updatedAt: LessThan(new Date(now - ZOMBIE_TASK_MS)) });
    const affected = await this.failTasks(tasks);
    if (affected) log.info({ affected }, 'zombie tasks stopped');
    return { affected };
  }

  /** stop_endless_tasks: tasks running longer than ENDLESS_TASK_TIMEOUT. */
  async stopEndlessTasks(now = Date.now()): Promise<{ affected: number }> {
    const tasks = await this.db.manager.findBy(ActionTaskEntity, { status: Status.running, started: LessThan(new Date(now - ENDLESS_TASK_MS)) });
    const affected = await this.failTasks(tasks);
    if (affected) log.info({ affected }, 'endless tasks stopped');
    return { affected };
  }

  /** cancel_abandoned_jobs: jobs that waited for a runner (or their needs) longer than ABANDONED_JOB_TIMEOUT. */
  async cancelAbandonedJobs(now = Date.now()): Promise<{ affected: number }> {
    const jobs = await this.db.manager.findBy(ActionRunJobEntity, {
      status: In([Status.waiting, Status.blocked]),
      updatedAt: LessThan(new Date(now - ABANDONED_JOB_MS)),
    });
    const runs = new Set<number>();
    let count = 0;
    for (const job of jobs) {
      await this.db.transaction(async (m) => {
        const stamp = new Date();
        const r = await m.update(ActionRunJobEntity, { id: job.id, status: In([Status.waiting, Status.blocked]) }, { status: Status.cancelled, stopped: stamp, updatedAt: stamp });
        if (r.affected === 1) {
          count++;
          runs.add(job.runId);
          await this.engine.advance(m, job.runId);
        }
      });
    }
    for (const runId of runs) await this.engine.reportStatuses(runId);
    if (count) log.info({ affected: count }, 'abandoned jobs cancelled');
    return { affected: count };
  }

  /** cleanup_actions: drops logs older than the retention and registration tokens that can register nothing. */
  async cleanup(now = Date.now()): Promise<{ affected: number }> {
    const before = new Date(now - this.config.GITFORGE_ACTIONS_LOG_RETENTION_DAYS * 86_400_000);
    const logs = await this.db.manager
      .createQueryBuilder()
      .update(ActionTaskEntity)
      .set({ log: '' })
      .where('stopped IS NOT NULL AND stopped < :before AND log_length > 0 AND log <> :empty', { before: before.getTime(), empty: '' })
      .execute();
    const tokens = await this.runners.purgeDeadTokens(new Date(now));
    return { affected: (logs.affected ?? 0) + tokens };
  }
}
