import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  invalid,
  WebhookMaintenancePatterns,
  type RetentionRequest,
  type RetentionResult,
  type RpcRequest,
} from '@gitforge/contracts';
import { createLogger } from '@gitforge/platform';
import { RetentionRepository } from './retention.repository.js';

const log = createLogger('retention');

/** For the admin cron's cleanup_hook_task_table and delete_old_actions (the gateway routes no request here). */
@Controller()
export class RetentionController {
  constructor(private readonly retention: RetentionRepository) {}

  @MessagePattern(WebhookMaintenancePatterns.cleanupHookTasks)
  async cleanupHookTasks(
    @Payload() req: RpcRequest<Record<string, string>, RetentionRequest>,
  ): Promise<RetentionResult> {
    const cutoff = cutoffOf(req);
    const deliveries = await this.retention.deleteDeliveriesBefore(cutoff);
    const tasks = await this.retention.deleteFinishedTasksBefore(cutoff);
    const payloads = await this.retention.deleteUnusedPayloadsBefore(cutoff);
    const marks = await this.retention.deleteNotificationMarksBefore(cutoff);
    log.info({ deliveries, tasks, payloads, notificationMarks: marks }, 'old hook deliveries removed');
    return { removed: deliveries };
  }

  @MessagePattern(WebhookMaintenancePatterns.deleteOldActions)
  async deleteOldActions(@Payload() req: RpcRequest<Record<string, string>, RetentionRequest>): Promise<RetentionResult> {
    const removed = await this.retention.deleteActionsBefore(cutoffOf(req));
    log.info({ actions: removed }, 'old activity feed entries removed');
    return { removed };
  }
}

function cutoffOf(req: RpcRequest<Record<string, string>, RetentionRequest>): Date {
  const olderThanMs = req.body?.olderThanMs;
  if (!Number.isFinite(olderThanMs) || olderThanMs < 0) throw invalid('bad retention request');
  return new Date(Date.now() - olderThanMs);
}
