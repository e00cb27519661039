import { Injectable } from '@nestjs/common';
import { Database } from '@gitforge/platform';
import { CronTaskEntity } from './cron-task.entity.js';

/** The `cron_task` records: one row per task, shared by the replicas. */
@Injectable()
export class CronRepository {
  constructor(private readonly db: Database) {}

  /** A row for each task that has none yet (replicas starting together insert each once). */
  async ensure(names: string[]): Promise<void> {
    await this.db.transaction(async (m) => {
      for (const name of names) {
        await m
          .createQueryBuilder()
          .insert()
          .into(CronTaskEntity)
          .values({ name, execTimes: 0, prevAt: null, runningToken: null, heartbeatAt: null })
          .orIgnore()
          .execute();
      }
    });
  }

  all(): Promise<CronTaskEntity[]> {
    return this.db.manager.find(CronTaskEntity);
  }

  /**
   * Takes the task for a run identified by `token`: false while another run holds it with a
   * heartbeat younger than `leaseMs` (a run whose process died is taken over after that).
   */
  claim(name: string, token: string, now: Date, leaseMs: number): Promise<boolean> {
    return this.db.transaction(async (m) => {
      const r = await m
        .createQueryBuilder()
        .update(CronTaskEntity)
        .set({ runningToken: token, heartbeatAt: now })
        .where('name = :name AND (running_token IS NULL OR heartbeat_at < :stale)', {
          name,
          stale: now.getTime() - leaseMs,
        })
        .execute();
      return (r.affected ?? 0) > 0;
    });
  }

  /** Releases every task, when no run can still be holding one (the process that held them is gone). */
  async releaseAll(): Promise<void> {
    await this.db.transaction(async (m) => {
      await m
        .createQueryBuilder()
        .update(CronTaskEntity)
        .set({ runningToken: null, heartbeatAt: null })
        .where('running_token IS NOT NULL')
        .execute();
    });
  }

  /** Renews the run's lease; false when it has lost it. */
  heartbeat(name: string, token: string): Promise<boolean> {
    return this.db.transaction(async (m) => {
      const r = await m.update(CronTaskEntity, { name, runningToken: token }, { heartbeatAt: new Date() });
      return (r.affected ?? 0) > 0;
    });
  }

  /** Counts the run (Gitea's exec_times and prev: the start of the last run) and releases the task. */
  async finish(name: string, token: string, startedAt: Date): Promise<void> {
    await this.db.transaction(async (m) => {
      await m
        .createQueryBuilder()
        .update(CronTaskEntity)
        .set({ execTimes: () => 'exec_times + 1', prevAt: startedAt })
        .where('name = :name', { name })
        .execute();
      await m.update(
        CronTaskEntity,
        { name, runningToken: token },
        { runningToken: null, heartbeatAt: null },
      );
    });
  }
}
