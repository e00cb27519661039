import { basename } from 'node:path';
import { Injectable } from '@nestjs/common';
import { CronExpressionParser } from 'cron-parser';
import { LessThanOrEqual } from 'typeorm';
import type { WorkflowFiles } from '@gitforge/contracts';
import { createLogger, Database } from '@gitforge/platform';
import { ActionScheduleEntity } from '../entities.js';
import { RunEngine } from './run-engine.service.js';
import { parseWorkflow, WorkflowError } from './workflow.js';

const log = createLogger('actions-schedules');

/** The next time after `after` that any of the specs fires (GitHub's cron: five fields, UTC), or null if none is valid. */
export function nextRun(specs: string[], after: Date): Date | null {
  let next: Date | null = null;
  for (const spec of specs) {
    if (spec.trim().split(/\s+/).length !== 5) continue;
    try {
      const at = CronExpressionParser.parse(spec, { currentDate: after, tz: 'UTC' }).next().toDate();
      if (!next || at < next) next = at;
    } catch {
      // A spec cron cannot read schedules nothing, as GitHub ignores it.
    }
  }
  return next;
}

/** `on: schedule` runs: the default branch's workflows set the schedules; start_schedule_tasks starts what is due. */
@Injectable()
export class SchedulesService {
  constructor(
    private readonly db: Database,
    private readonly engine: RunEngine,
  ) {}

  /** After a push to the default branch: the repository's schedules become those of the workflows at that commit. */
  async replace(
    repo: { repoId: number; ownerId: number },
    push: { ref: string; sha: string; triggerUserId: number },
    files: WorkflowFiles,
    now = new Date(),
  ): Promise<number> {
    const rows: Array<Omit<ActionScheduleEntity, 'id'>> = [];
    for (const file of files.files) {
      const workflowId = basename(file.path);
      let specs: string[] = [];
      try {
        const cron = parseWorkflow(file.content, workflowId).on.get('schedule')?.cron;
        if (Array.isArray(cron)) {
          specs = cron
            .map((c: unknown) => (c && typeof c === 'object' ? (c as Record<string, unknown>).cron : undefined))
            .filter((c): c is string => typeof c === 'string');
        }
      } catch (err) {
        if (!(err instanceof WorkflowError)) throw err;
        continue;
      }
      const next = nextRun(specs, now);
      if (!next) continue;
      rows.push({
        repoId: repo.repoId,
        ownerId: repo.ownerId,
        workflowId,
        specs: JSON.stringify(specs),
        ref: push.ref,
        commitSha: push.sha,
        triggerUserId: push.triggerUserId,
        nextRun: next,
        createdAt: now,
      });
    }
    await this.db.transaction(async (m) => {
      await m.delete(ActionScheduleEntity, { repoId: repo.repoId });
      for (const row of rows) await m.insert(ActionScheduleEntity, row);
    });
    return rows.length;
  }

  /** start_schedule_tasks: a run for every schedule that is due, each schedule moved to its next time first. */
  async startDue(now = new Date()): Promise<{ affected: number }> {
    const due = await this.db.manager.findBy(ActionScheduleEntity, { nextRun: LessThanOrEqual(now) });
    let started = 0;
    for (const schedule of due) {
      const specs = JSON.parse(schedule.specs) as string[];
      const next = nextRun(specs, now);
      // Only the caller that moves the schedule on starts its run (several replicas may run the task).
      const moved = next
        ? await this.db.manager.update(ActionScheduleEntity, { id: schedule.id, nextRun: schedule.nextRun }, { nextRun: next })
        : await this.db.manager.delete(ActionScheduleEntity, { id: schedule.id, nextRun: schedule.nextRun });
      if (moved.affected !== 1) continue;
      try {
        const ids = await this.engine.trigger({
          repoId: schedule.repoId,
          ownerId: schedule.ownerId,
          event: 'schedule',
          ref: schedule.ref,
          sha: schedule.commitSha,
          triggerUserId: schedule.triggerUserId,
          title: schedule.workflowId,
          payload: { schedule: specs[0] ?? '' },
          key: `schedule:${schedule.id}:${schedule.nextRun.getTime()}`,
          workflowId: schedule.workflowId,
        });
        started += ids.length;
      } catch (err) {
        log.warn({ err, scheduleId: schedule.id }, 'scheduled run not started');
      }
    }
    return { affected: started };
  }
}
