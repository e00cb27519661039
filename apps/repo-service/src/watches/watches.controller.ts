import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { normalizeListOptions, WatchPatterns, type Page, type Repository, type RpcRequest, type User, type WatchInfo } from '@gitforge/contracts';
import { WatchesService } from './watches.service.js';

type RepoParams = { owner: string; repo: string };

@Controller()
export class WatchesController {
  constructor(private readonly watches: WatchesService) {}

  @MessagePattern(WatchPatterns.watch)
  watch(@Payload() req: RpcRequest<RepoParams>): Promise<WatchInfo> {
    return this.watches.watch(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(WatchPatterns.unwatch)
  unwatch(@Payload() req: RpcRequest<RepoParams>): Promise<void> {
    return this.watches.unwatch(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(WatchPatterns.get)
  get(@Payload() req: RpcRequest<RepoParams>): Promise<WatchInfo> {
    return this.watches.get(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(WatchPatterns.listForUser)
  listForUser(@Payload() req: RpcRequest<{ username?: string }>): Promise<Page<Repository>> {
    return this.watches.listForUser(req.actor, req.params?.username, normalizeListOptions(req.query));
  }

  @MessagePattern(WatchPatterns.isWatching)
  isWatching(@Payload() req: RpcRequest<Record<string, string>, { repoId: number; userId: number }>): Promise<boolean> {
    return this.watches.isWatching(req.body.repoId, req.body.userId);
  }

  @MessagePattern(WatchPatterns.subscribers)
  subscribers(@Payload() req: RpcRequest<RepoParams>): Promise<Page<User>> {
    return this.watches.subscribers(req.actor, req.params.owner, req.params.repo, normalizeListOptions(req.query));
  }
}
