import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { normalizeListOptions, UserPatterns, type Page, type RpcRequest, type User } from '@gitforge/contracts';
import { FollowsService } from './follows.service.js';

type Params = { username?: string; target?: string };

@Controller()
export class FollowsController {
  constructor(private readonly follows: FollowsService) {}

  @MessagePattern(UserPatterns.listFollowers)
  followers(@Payload() req: RpcRequest<Params>): Promise<Page<User>> {
    return this.follows.list(req.actor, 'followers', req.params.username, normalizeListOptions(req.query));
  }

  @MessagePattern(UserPatterns.listFollowing)
  following(@Payload() req: RpcRequest<Params>): Promise<Page<User>> {
    return this.follows.list(req.actor, 'following', req.params.username, normalizeListOptions(req.query));
  }

  @MessagePattern(UserPatterns.checkFollowing)
  check(@Payload() req: RpcRequest<Params>): Promise<void> {
    return this.follows.check(req.actor, req.params.username, req.params.target ?? '');
  }

  @MessagePattern(UserPatterns.follow)
  follow(@Payload() req: RpcRequest<{ username: string }>): Promise<void> {
    return this.follows.follow(req.actor, req.params.username);
  }

  @MessagePattern(UserPatterns.unfollow)
  unfollow(@Payload() req: RpcRequest<{ username: string }>): Promise<void> {
    return this.follows.unfollow(req.actor, req.params.username);
  }
}
