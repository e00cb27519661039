import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { QueueNames } from '@gitforge/contracts';
import { QueueDriver, type JobOptions } from '@gitforge/platform';
import { WebhookWorkerConfig } from '../worker.config.js';
import type { HookTaskEntity } from './hook-task.entity.js';

/** What a delivery job carries: the ids of the tasks it delivers (the job reloads everything else). */
export interface DeliveryJob {
  taskIds: number[];
  maxAttempts: number;
  redelivery: boolean;
}

/** The tasks of a delivery job; a job queued before tasks were grouped named its one task `taskId`. */
export function deliveryTaskIds(data: DeliveryJob | { taskId: number }): number[] {
  return 'taskIds' in data ? data.taskIds : [data.taskId];
}

/** What queuing a task needs to know of it. */
export type QueuedTask = Pick<HookTaskEntity, 'id' | 'batch' | 'eventType'>;

/** The delivery job a task is queued in: its batch's, or its own for a task made before tasks were batched. */
export function deliveryJobId(task: Pick<HookTaskEntity, 'id' | 'batch'>): string {
  return task.batch === null ? `task-${task.id}` : `batch-${task.batch}`;
}

/** The job that retries a task whose first attempt failed (see DeliveryQueue.retry). */
export function retryJobId(task: Pick<HookTaskEntity, 'id'>): string {
  return `retry-${task.id}`;
}

/**
 * Queues hook tasks for delivery, one job per batch: the tasks one fan-out made for one event, so
 * an event sent to ten hooks costs the queue one job, not ten. The job id names the batch, whose
 * tasks never change, so queuing a task again (an event fanned out twice, the sweep at start)
 * finds its job and sends nothing twice; tasks a later fan-out of the same event adds (a hook
 * made since) are a batch, and a job, of their own. A task without a batch (made before tasks
 * were batched) has a job of its own, under the id it always had.
 */
@Injectable()
export class DeliveryQueue {
  constructor(
    private readonly queue: QueueDriver,
    private readonly config: WebhookWorkerConfig,
  ) {}

  async enqueue(tasks: QueuedTask[]): Promise<void> {
    await this.add(tasks, this.config.GITFORGE_WEBHOOK_MAX_ATTEMPTS, { backoffMs: this.config.GITFORGE_WEBHOOK_BACKOFF_MS });
  }

  /**
   * Tasks whose first attempt was made (by their fan-out, see HookFanoutProcessor) and failed:
   * the attempts left, the first of them a backoff later and each further one after twice the
   * wait before, as if the first attempt had been the job's. One job per task ({@link retryJobId}),
   * so a task is in one retry job however many runs of its event fail it, and a run of the event
   * can tell exactly which of its tasks a retry holds.
   */
  async retry(tasks: QueuedTask[]): Promise<void> {
    const backoffMs = this.config.GITFORGE_WEBHOOK_BACKOFF_MS;
    await this.add(tasks, this.config.GITFORGE_WEBHOOK_MAX_ATTEMPTS - 1, { delayMs: backoffMs, backoffMs: 2 * backoffMs }, retryJobId);
  }

  /** One job per group (`jobOf` names it) making at most `attempts`. */
  private async add(tasks: QueuedTask[], attempts: number, timing: Pick<JobOptions, 'delayMs' | 'backoffMs'>, jobOf: (t: QueuedTask) => string = deliveryJobId): Promise<void> {
    const groups = new Map<string, { eventType: string; taskIds: number[] }>();
    for (const t of tasks) {
      const key = jobOf(t);
      const group = groups.get(key) ?? { eventType: t.eventType, taskIds: [] };
      if (!group.taskIds.includes(t.id)) group.taskIds.push(t.id);
      groups.set(key, group);
    }
    if (groups.size === 0 || attempts < 1) return;
    await this.queue.addMany(
      QueueNames.webhookDeliveries,
      [...groups].map(([jobId, { eventType, taskIds }]) => ({
        name: eventType,
        data: { taskIds: taskIds.sort((a, b) => a - b), maxAttempts: attempts, redelivery: false } satisfies DeliveryJob,
        options: { jobId, attempts, ...timing },
      })),
    );
  }

  /** A redelivery is one more attempt of the same task (same delivery id), not retried on failure. */
  async redeliver(taskId: number, eventType: string): Promise<void> {
    const data: DeliveryJob = { taskIds: [taskId], maxAttempts: 1, redelivery: true };
    await this.queue.add(QueueNames.webhookDeliveries, eventType, data, { jobId: `task-${taskId}-redelivery-${randomUUID()}`, attempts: 1 });
  }
}
