import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  TagProtectionPatterns,
  type CreateTagProtectionOption,
  type EditTagProtectionOption,
  type RpcRequest,
  type TagProtection,
} from '@gitforge/contracts';
import { TagProtectionsService } from './tag-protections.service.js';

type RepoParams = { owner: string; repo: string };
type IdParams = RepoParams & { id: string };

@Controller()
export class TagProtectionsController {
  constructor(private readonly tags: TagProtectionsService) {}

  @MessagePattern(TagProtectionPatterns.list)
  list(@Payload() req: RpcRequest<RepoParams>): Promise<TagProtection[]> {
    return this.tags.list(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(TagProtectionPatterns.get)
  get(@Payload() req: RpcRequest<IdParams>): Promise<TagProtection> {
    return this.tags.get(req.actor, req.params.owner, req.params.repo, req.params.id);
  }

  @MessagePattern(TagProtectionPatterns.create)
  create(@Payload() req: RpcRequest<RepoParams, CreateTagProtectionOption>): Promise<TagProtection> {
    return this.tags.create(req.actor, req.params.owner, req.params.repo, req.body);
  }

  @MessagePattern(TagProtectionPatterns.edit)
  edit(@Payload() req: RpcRequest<IdParams, EditTagProtectionOption>): Promise<TagProtection> {
    return this.tags.edit(req.actor, req.params.owner, req.params.repo, req.params.id, req.body);
  }

  @MessagePattern(TagProtectionPatterns.delete)
  delete(@Payload() req: RpcRequest<IdParams>): Promise<void> {
    return this.tags.delete(req.actor, req.params.owner, req.params.repo, req.params.id);
  }
}
