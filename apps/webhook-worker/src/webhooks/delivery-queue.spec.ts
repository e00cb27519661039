import { QueueNames } from '@gitforge/contracts';
import { loadConfig, type NewJob, type QueueDriver } from '@gitforge/platform';
import { WebhookWorkerConfig } from '../worker.config.js';
import { DeliveryQueue, deliveryTaskIds, type QueuedTask } from './delivery-queue.js';

describe(DeliveryQueue.name, () => {
  let added: Array<{ queue: string; jobs: NewJob[] }>;
  let sut: DeliveryQueue;

  beforeEach(() => {
    added = [];
    const queue = { addMany: async (name: string, jobs: NewJob[]) => void added.push({ queue: name, jobs }) } as unknown as QueueDriver;
    sut = new DeliveryQueue(queue, loadConfig(WebhookWorkerConfig, { GITFORGE_WEBHOOK_MAX_ATTEMPTS: '4', GITFORGE_WEBHOOK_BACKOFF_MS: '300' }));
  });

  const task = (id: number, batch: string | null): QueuedTask => ({ id, batch, eventType: 'push' });

  it('should queue one job per batch of tasks, named by the batch, and one per task without a batch', async () => {
    await sut.enqueue([task(3, 'b1'), task(1, 'b1'), task(2, 'b2'), task(5, null), task(4, 'b3'), task(1, 'b1')]);
    expect(added).toHaveLength(1);
    expect(added[0]!.queue).toBe(QueueNames.webhookDeliveries);
    expect(added[0]!.jobs).toEqual([
      { name: 'push', data: { taskIds: [1, 3], maxAttempts: 4, redelivery: false }, options: { jobId: 'batch-b1', attempts: 4, backoffMs: 300 } },
      { name: 'push', data: { taskIds: [2], maxAttempts: 4, redelivery: false }, options: { jobId: 'batch-b2', attempts: 4, backoffMs: 300 } },
      // Made before tasks were batched: the job id such a task was always queued under.
      { name: 'push', data: { taskIds: [5], maxAttempts: 4, redelivery: false }, options: { jobId: 'task-5', attempts: 4, backoffMs: 300 } },
      { name: 'push', data: { taskIds: [4], maxAttempts: 4, redelivery: false }, options: { jobId: 'batch-b3', attempts: 4, backoffMs: 300 } },
    ]);
  });

  it('should give a task queued again the job id it had, so the queue keeps one job', async () => {
    await sut.enqueue([task(1, 'b1'), task(2, 'b1')]);
    await sut.enqueue([task(2, 'b1')]);
    expect(added.map((a) => a.jobs.map((j) => j.options.jobId))).toEqual([['batch-b1'], ['batch-b1']]);
  });

  it('should queue the attempts left of tasks whose first attempt failed, a backoff later and doubling from there', async () => {
    await sut.retry([task(2, 'b1'), task(1, 'b1')]);
    // One job per task: a task is in one retry however many runs of its event fail it.
    expect(added[0]!.jobs).toEqual([
      { name: 'push', data: { taskIds: [2], maxAttempts: 3, redelivery: false }, options: { jobId: 'retry-2', attempts: 3, delayMs: 300, backoffMs: 600 } },
      { name: 'push', data: { taskIds: [1], maxAttempts: 3, redelivery: false }, options: { jobId: 'retry-1', attempts: 3, delayMs: 300, backoffMs: 600 } },
    ]);
  });

  it('should queue no retry when the first attempt was the only one allowed', async () => {
    const queue = { addMany: async (name: string, jobs: NewJob[]) => void added.push({ queue: name, jobs }) } as unknown as QueueDriver;
    await new DeliveryQueue(queue, loadConfig(WebhookWorkerConfig, { GITFORGE_WEBHOOK_MAX_ATTEMPTS: '1' })).retry([task(1, 'b1')]);
    expect(added).toEqual([]);
  });

  it('should queue nothing for no tasks', async () => {
    await sut.enqueue([]);
    expect(added).toEqual([]);
  });

  it('should read the tasks of a job, also of one queued before tasks were grouped', () => {
    expect(deliveryTaskIds({ taskIds: [1, 2], maxAttempts: 1, redelivery: false })).toEqual([1, 2]);
    expect(deliveryTaskIds({ taskId: 7 })).toEqual([7]);
  });
});
