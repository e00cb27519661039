import { Module } from '@nestjs/common';
import { DeliveriesController } from './deliveries.controller.js';
import { DeliveriesService } from './deliveries.service.js';
import { DeliveryQueue } from './delivery-queue.js';
import { HookDeliveryProcessor } from './hook-delivery.processor.js';
import { HookFanoutProcessor } from './hook-fanout.processor.js';
import { HookTargetsCache } from './hook-targets.cache.js';
import { HookTasksRepository } from './hook-tasks.repository.js';

/** Webhook delivery: fan-out of events to hook tasks, delivery with retries, the deliveries API. */
@Module({
  controllers: [DeliveriesController],
  providers: [HookTasksRepository, HookTargetsCache, DeliveryQueue, HookFanoutProcessor, HookDeliveryProcessor, DeliveriesService],
})
export class WebhooksModule {}
