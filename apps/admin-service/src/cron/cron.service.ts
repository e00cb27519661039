import { randomUUID } from 'node:crypto';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Cron, formatTime, notFound, QueueNames, ZERO_TIME } from '@gitforge/contracts';
import {
  createLogger,
  nextRunAt,
  parseDuration,
  parseSchedule,
  QueueDriver,
  RequestContexts,
  type RepeatSpec,
} from '@gitforge/platform';
import { AdminServiceConfig, parsePairs } from '../admin.config.js';
import { NoticesService } from '../notices/notices.service.js';
import { NoticeType } from '../notices/system-notice.entity.js';
import { CronRepository } from './cron.repository.js';
import { CronTaskRegistry, type CronTaskDefinition } from './cron-task.registry.js';

const log = createLogger('cron');

/**
 * How long a run holds its task past its last heartbeat. A tick whose replica died is run again by
 * the queue's stalled-job recovery, at the earliest half a queue lock after the death (the lock is
 * renewed every half lock); the lease must have lapsed by then, or the recovered tick would find
 * the task "running" and be lost: a quarter of the lock, renewed every sixteenth.
 */
const leaseMs = (queueLockMs: number): number => Math.max(2000, Math.floor(queueLockMs / 4));

interface Plan {
  task: CronTaskDefinition;
  /** The schedule as configured, null while the task is not scheduled. */
  spec: string | null;
  repeat: RepeatSpec | null;
  olderThanMs: number;
}

/**
 * Gitea's cron, across replicas: each scheduled task is a job scheduler on the queue driver
 * (BullMQ's job schedulers in the distributed layout, the in-process scheduler of the SQLite
 * queue in the embedded one), so each tick's job is taken by one replica; the run's record in
 * `cron_task` (exec_times, prev, a lease) is shared, so listings agree and a task never runs
 * twice at once, whether started by a tick or by `POST /admin/cron/{task}`.
 */
@Injectable()
export class CronService implements OnApplicationBootstrap {
  private readonly plans = new Map<string, Plan>();

  constructor(
    private readonly registry: CronTaskRegistry,
    private readonly records: CronRepository,
    private readonly queue: QueueDriver,
    private readonly notices: NoticesService,
    private readonly config: AdminServiceConfig,
  ) {}

  /** After every module registered its tasks: the plans from the environment, then the schedulers. */
  async onApplicationBootstrap(): Promise<void> {
    const schedules = parsePairs('GITFORGE_CRON', this.config.GITFORGE_CRON);
    const olderThan = parsePairs('GITFORGE_CRON_OLDER_THAN', this.config.GITFORGE_CRON_OLDER_THAN);
    for (const [variable, pairs] of [
      ['GITFORGE_CRON', schedules],
      ['GITFORGE_CRON_OLDER_THAN', olderThan],
    ] as const) {
      for (const name of pairs.keys())
        if (!this.registry.get(name)) throw new Error(`${variable}: no scheduled task is called ${name}`);
    }
    for (const task of this.registry.all()) {
      const configured = schedules.get(task.name);
      const spec =
        configured !== undefined
          ? configured === '-'
            ? null
            : configured
          : task.enabled
            ? task.schedule
            : null;
      const age = olderThan.get(task.name);
      const olderThanMs = age === undefined ? (task.olderThanMs ?? 0) : parseDuration(age);
      if (olderThanMs === null)
        throw new Error(`GITFORGE_CRON_OLDER_THAN: ${task.name}=${age} is not a duration`);
      this.plans.set(task.name, {
        task,
        spec,
        repeat: spec === null ? null : parseSchedule(spec),
        olderThanMs,
      });
    }
    await this.records.ensure([...this.plans.keys()]);
    // One process owns the queue (embedded): a run recorded as holding a task died with the previous
    // process, and the tick it ran for is queued again now; its lease must not make that tick "running already".
    if (this.queue.singleProcess) await this.records.releaseAll();
    this.queue.process<{ task: string }>(QueueNames.adminCron, (job) => this.run(job.data.task, job.id), {
      concurrency: 4,
    });
    for (const plan of this.plans.values()) {
      if (plan.repeat)
        await this.queue.schedule(QueueNames.adminCron, plan.task.name, plan.repeat, plan.task.name, {
          task: plan.task.name,
        });
      else await this.queue.unschedule(QueueNames.adminCron, plan.task.name);
    }
    log.info(
      { scheduled: [...this.plans.values()].filter((p) => p.repeat).map((p) => p.task.name) },
      'scheduled tasks started',
    );
  }

  /** Gitea's ListTasks: registration order, `-` and zero times for tasks that are not scheduled. */
  async list(): Promise<Cron[]> {
    const records = new Map((await this.records.all()).map((r) => [r.name, r]));
    const now = Date.now();
    return [...this.plans.values()].map((plan) => {
      const record = records.get(plan.task.name);
      return {
        name: plan.task.name,
        schedule: plan.spec ?? '-',
        next: plan.repeat ? formatTime(new Date(nextRunAt(plan.repeat, now))) : ZERO_TIME,
        prev: formatTime(record?.prevAt ?? null),
        exec_times: record?.execTimes ?? 0,
      };
    });
  }

  /**
   * Runs a task now (a tick, or an administrator's request) and resolves when it has run; when the
   * task is running already, here or on another replica, resolves at once, as Gitea does.
   */
  async run(name: string, tick?: string): Promise<void> {
    const plan = this.plans.get(name);
    if (!plan) throw notFound();
    // Outside the transport request: the task's writes are its own, not the request's idempotent transaction.
    const requestId = RequestContexts.requestId();
    await RequestContexts.detached(() => RequestContexts.run({ requestId }, () => this.runPlan(plan, tick)));
  }

  /** `tick`: the scheduler's job id (the tick it ran for), absent for a manual run. */
  private async runPlan(plan: Plan, tick: string | undefined): Promise<void> {
    const name = plan.task.name;
    const token = randomUUID();
    const startedAt = new Date();
    if (!(await this.records.claim(name, token, startedAt, leaseMs(this.config.GITFORGE_QUEUE_LOCK_MS)))) {
      log.info({ task: name, tick }, 'task is running already');
      return;
    }
    const beat = setInterval(
      () =>
        void this.records
          .heartbeat(name, token)
          .catch((err: unknown) => log.warn({ task: name, err }, 'heartbeat failed')),
      Math.max(500, Math.floor(leaseMs(this.config.GITFORGE_QUEUE_LOCK_MS) / 4)),
    );
    beat.unref();
    const taskLog = log.child({ task: name, tick });
    try {
      taskLog.info('task started');
      await plan.task.run({
        olderThanMs: plan.olderThanMs,
        log: taskLog,
        notice: (description) => this.notices.create(NoticeType.repository, description),
      });
      taskLog.info({ ms: Date.now() - startedAt.getTime() }, 'task finished');
    } catch (err) {
      // Gitea's cron reports a failed task as a system notice; the next tick runs it again.
      await this.notices.create(
        NoticeType.task,
        `Cron: Error running ${name}: ${err instanceof Error ? err.message : String(err)}`,
      );
    } finally {
      clearInterval(beat);
      await this.records.finish(name, token, startedAt);
    }
  }
}
