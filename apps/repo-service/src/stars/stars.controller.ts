import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { normalizeListOptions, StarPatterns, type Page, type Repository, type RpcRequest, type User } from '@gitforge/contracts';
import { StarsService } from './stars.service.js';

type RepoParams = { owner: string; repo: string };

@Controller()
export class StarsController {
  constructor(private readonly stars: StarsService) {}

  @MessagePattern(StarPatterns.star)
  star(@Payload() req: RpcRequest<RepoParams>): Promise<void> {
    return this.stars.star(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(StarPatterns.unstar)
  unstar(@Payload() req: RpcRequest<RepoParams>): Promise<void> {
    return this.stars.unstar(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(StarPatterns.check)
  check(@Payload() req: RpcRequest<RepoParams>): Promise<void> {
    return this.stars.check(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(StarPatterns.listForUser)
  listForUser(@Payload() req: RpcRequest<{ username?: string }>): Promise<Page<Repository>> {
    return this.stars.listForUser(req.actor, req.params?.username, normalizeListOptions(req.query));
  }

  @MessagePattern(StarPatterns.stargazers)
  stargazers(@Payload() req: RpcRequest<RepoParams>): Promise<Page<User>> {
    return this.stars.stargazers(req.actor, req.params.owner, req.params.repo, normalizeListOptions(req.query));
  }
}
