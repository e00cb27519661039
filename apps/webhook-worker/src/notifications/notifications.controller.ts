import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { normalizeListOptions, NotificationPatterns, type NotificationCount, type NotificationThread, type Page, type RpcRequest } from '@gitforge/contracts';
import { NotificationsService, type NotificationQuery } from './notifications.service.js';

type RepoParams = { owner?: string; repo?: string };
type ListQuery = NotificationQuery & { page?: string; limit?: string };

@Controller()
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @MessagePattern(NotificationPatterns.list)
  list(@Payload() req: RpcRequest<RepoParams, undefined, ListQuery>): Promise<Page<NotificationThread>> {
    const query = req.query ?? {};
    return this.notifications.list(req.actor, req.params ?? {}, query, normalizeListOptions(query));
  }

  @MessagePattern(NotificationPatterns.markMany)
  markMany(@Payload() req: RpcRequest<RepoParams, undefined, NotificationQuery>): Promise<NotificationThread[]> {
    return this.notifications.markMany(req.actor, req.params ?? {}, req.query ?? {});
  }

  @MessagePattern(NotificationPatterns.countNew)
  countNew(@Payload() req: RpcRequest): Promise<NotificationCount> {
    return this.notifications.countNew(req.actor);
  }

  @MessagePattern(NotificationPatterns.getThread)
  getThread(@Payload() req: RpcRequest<{ id: string }>): Promise<NotificationThread> {
    return this.notifications.getThread(req.actor, req.params.id);
  }

  @MessagePattern(NotificationPatterns.markThread)
  markThread(@Payload() req: RpcRequest<{ id: string }, undefined, NotificationQuery>): Promise<NotificationThread> {
    return this.notifications.markThread(req.actor, req.params.id, req.query?.['to-status'] as string | undefined);
  }
}
