import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  BadgePatterns,
  normalizeListOptions,
  type Badge,
  type CreateBadgeOption,
  type EditBadgeOption,
  type Page,
  type RpcRequest,
  type UserBadgeOption,
} from '@gitforge/contracts';
import { BadgesService } from './badges.service.js';

type SlugParams = { slug: string };
type UserParams = { username: string };

@Controller()
export class BadgesController {
  constructor(private readonly badges: BadgesService) {}

  @MessagePattern(BadgePatterns.list)
  list(@Payload() req: RpcRequest): Promise<Page<Badge>> {
    return this.badges.list(req.actor, normalizeListOptions(req.query ?? {}));
  }

  @MessagePattern(BadgePatterns.create)
  create(@Payload() req: RpcRequest<Record<string, string>, CreateBadgeOption>): Promise<Badge> {
    return this.badges.create(req.actor, req.body);
  }

  @MessagePattern(BadgePatterns.edit)
  edit(@Payload() req: RpcRequest<SlugParams, EditBadgeOption>): Promise<Badge> {
    return this.badges.edit(req.actor, req.params.slug, req.body ?? {});
  }

  @MessagePattern(BadgePatterns.delete)
  delete(@Payload() req: RpcRequest<SlugParams>): Promise<void> {
    return this.badges.delete(req.actor, req.params.slug);
  }

  @MessagePattern(BadgePatterns.listForUser)
  listForUser(@Payload() req: RpcRequest<UserParams>): Promise<Page<Badge>> {
    return this.badges.listForUser(req.actor, req.params.username);
  }

  @MessagePattern(BadgePatterns.addToUser)
  addToUser(@Payload() req: RpcRequest<UserParams, UserBadgeOption>): Promise<void> {
    return this.badges.addToUser(req.actor, req.params.username, req.body ?? {});
  }

  @MessagePattern(BadgePatterns.removeFromUser)
  removeFromUser(@Payload() req: RpcRequest<UserParams, UserBadgeOption>): Promise<void> {
    return this.badges.removeFromUser(req.actor, req.params.username, req.body ?? {});
  }
}
