import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  GitRefPatterns,
  normalizeListOptions,
  TagPatterns,
  type AnnotatedTag,
  type CreateTagOption,
  type Page,
  type Reference,
  type RpcRequest,
  type Tag,
} from '@gitforge/contracts';
import { TagsService } from './tags.service.js';

type RepoParams = { owner: string; repo: string };

@Controller()
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @MessagePattern(TagPatterns.list)
  list(@Payload() req: RpcRequest<RepoParams>): Promise<Page<Tag>> {
    return this.tags.list(req.actor, req.params.owner, req.params.repo, normalizeListOptions(req.query));
  }

  @MessagePattern(TagPatterns.get)
  get(@Payload() req: RpcRequest<RepoParams & { tag: string }>): Promise<Tag> {
    return this.tags.get(req.actor, req.params.owner, req.params.repo, req.params.tag);
  }

  @MessagePattern(TagPatterns.create)
  create(@Payload() req: RpcRequest<RepoParams, CreateTagOption>): Promise<Tag> {
    return this.tags.create(req.actor, req.params.owner, req.params.repo, req.body);
  }

  @MessagePattern(TagPatterns.delete)
  delete(@Payload() req: RpcRequest<RepoParams & { tag: string }>): Promise<void> {
    return this.tags.delete(req.actor, req.params.owner, req.params.repo, req.params.tag);
  }

  @MessagePattern(TagPatterns.annotated)
  annotated(@Payload() req: RpcRequest<RepoParams & { sha: string }>): Promise<AnnotatedTag> {
    return this.tags.annotated(req.actor, req.params.owner, req.params.repo, req.params.sha);
  }

  @MessagePattern(GitRefPatterns.list)
  references(@Payload() req: RpcRequest<RepoParams & { prefix: string }>): Promise<Reference[]> {
    return this.tags.references(req.actor, req.params.owner, req.params.repo, req.params.prefix);
  }
}
