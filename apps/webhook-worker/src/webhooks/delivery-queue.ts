import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { QueueNames } from '@gitforge/contracts';
import { QueueDriver } from '@gitforge/platform';
import { WebhookWorkerConfig } from '../worker.config.js';

/** What a delivery job carries: the task id (the job reloads everything else). */
export interface DeliveryJob {
  taskId: number;
  maxAttempts: number;
  redelivery: boolean;
}

/** Queues hook tasks for delivery. One job per task (job id = task id), so queuing twice sends once. */
@Injectable()
export class DeliveryQueue {
  constructor(
    private readonly queue: QueueDriver,
    private readonly config: WebhookWorkerConfig,
  ) {}

  async enqueue(tasks: Array<{ id: number; eventType: string }>): Promise<void> {
    const attempts = this.config.GITFORGE_WEBHOOK_MAX_ATTEMPTS;
    await this.queue.addMany(
      QueueNames.webhookDeliveries,
      tasks.map((t) => ({
        name: t.eventType,
        data: { taskId: t.id, maxAttempts: attempts, redelivery: false } satisfies DeliveryJob,
        options: { jobId: `task-${t.id}`, attempts, backoffMs: this.config.GITFORGE_WEBHOOK_BACKOFF_MS },
      })),
    );
  }

  /** A redelivery is one more attempt of the same task (same delivery id), not retried on failure. */
  async redeliver(taskId: number, eventType: string): Promise<void> {
    const data: DeliveryJob = { taskId, maxAttempts: 1, redelivery: true };
    await this.queue.add(QueueNames.webhookDeliveries, eventType, data, { jobId: `task-${taskId}-redelivery-${randomUUID()}`, attempts: 1 });
  }
}
