import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  normalizeListOptions,
  TopicPatterns,
  TopicSearchPatterns,
  type Page,
  type RepoTopicOptions,
  type RpcRequest,
  type TopicResponse,
} from '@gitforge/contracts';
import { TopicsService } from './topics.service.js';

type RepoParams = { owner: string; repo: string };

@Controller()
export class TopicsController {
  constructor(private readonly topics: TopicsService) {}

  @MessagePattern(TopicPatterns.list)
  list(@Payload() req: RpcRequest<RepoParams>): Promise<Page<string>> {
    return this.topics.list(req.actor, req.params.owner, req.params.repo, normalizeListOptions(req.query));
  }

  @MessagePattern(TopicSearchPatterns.search)
  search(@Payload() req: RpcRequest<Record<string, string>>): Promise<Page<TopicResponse>> {
    return this.topics.search(
      typeof req.query?.q === 'string' ? req.query.q : '',
      normalizeListOptions(req.query),
    );
  }

  @MessagePattern(TopicPatterns.replace)
  replace(@Payload() req: RpcRequest<RepoParams, RepoTopicOptions>): Promise<void> {
    return this.topics.replace(req.actor, req.params.owner, req.params.repo, req.body.topics);
  }

  @MessagePattern(TopicPatterns.add)
  add(@Payload() req: RpcRequest<RepoParams & { topic: string }>): Promise<void> {
    return this.topics.add(req.actor, req.params.owner, req.params.repo, req.params.topic);
  }

  @MessagePattern(TopicPatterns.delete)
  delete(@Payload() req: RpcRequest<RepoParams & { topic: string }>): Promise<void> {
    return this.topics.delete(req.actor, req.params.owner, req.params.repo, req.params.topic);
  }
}
