import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { FeedPatterns, normalizeListOptions, type Activity, type Page, type RpcRequest, type UserHeatmapData } from '@gitforge/contracts';
import { FeedsService, type FeedQuery } from './feeds.service.js';

type FeedQueryParams = { page?: string; limit?: string; date?: string; 'only-performed-by'?: string };

const feedQuery = (q: FeedQueryParams): FeedQuery => ({
  options: normalizeListOptions(q),
  date: typeof q.date === 'string' ? q.date : undefined,
});

@Controller()
export class FeedsController {
  constructor(private readonly feeds: FeedsService) {}

  @MessagePattern(FeedPatterns.org)
  org(@Payload() req: RpcRequest<{ org: string }, undefined, FeedQueryParams>): Promise<Page<Activity>> {
    return this.feeds.orgFeed(req.actor, req.params.org, feedQuery(req.query));
  }

  @MessagePattern(FeedPatterns.user)
  user(@Payload() req: RpcRequest<{ username: string }, undefined, FeedQueryParams>): Promise<Page<Activity>> {
    return this.feeds.userFeed(req.actor, req.params.username, req.query['only-performed-by'] === 'true', feedQuery(req.query));
  }

  @MessagePattern(FeedPatterns.userHeatmap)
  userHeatmap(@Payload() req: RpcRequest<{ username: string }>): Promise<UserHeatmapData[]> {
    return this.feeds.userHeatmap(req.actor, req.params.username);
  }

  @MessagePattern(FeedPatterns.repo)
  repo(@Payload() req: RpcRequest<{ owner: string; repo: string }, undefined, FeedQueryParams>): Promise<Page<Activity>> {
    return this.feeds.repoFeed(req.actor, req.params.owner, req.params.repo, feedQuery(req.query));
  }

  @MessagePattern(FeedPatterns.team)
  team(@Payload() req: RpcRequest<{ id: string; org?: string }, undefined, FeedQueryParams>): Promise<Page<Activity>> {
    return this.feeds.teamFeed(req.actor, req.params.id, req.params.org, feedQuery(req.query));
  }
}
