import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  HookDeliveryPatterns,
  normalizeListOptions,
  type HookDelivery,
  type HookDeliveryDetail,
  type HookParams,
  type Page,
  type RpcRequest,
} from '@gitforge/contracts';
import { DeliveriesService } from './deliveries.service.js';

type DeliveryParams = HookParams & { deliveryId: string };

@Controller()
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @MessagePattern(HookDeliveryPatterns.list)
  list(@Payload() req: RpcRequest<HookParams>): Promise<Page<HookDelivery>> {
    return this.deliveries.list(req.actor, req.params, normalizeListOptions(req.query));
  }

  @MessagePattern(HookDeliveryPatterns.get)
  get(@Payload() req: RpcRequest<DeliveryParams>): Promise<HookDeliveryDetail> {
    return this.deliveries.get(req.actor, req.params);
  }

  @MessagePattern(HookDeliveryPatterns.redeliver)
  redeliver(@Payload() req: RpcRequest<DeliveryParams>): Promise<void> {
    return this.deliveries.redeliver(req.actor, req.params);
  }

  @MessagePattern(HookDeliveryPatterns.test)
  test(@Payload() req: RpcRequest<{ owner: string; repo: string; id: string }, undefined, { ref?: string }>): Promise<void> {
    return this.deliveries.test(req.actor, req.params, typeof req.query.ref === 'string' && req.query.ref ? req.query.ref : undefined);
  }
}
