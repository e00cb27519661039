import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  normalizeListOptions,
  ReleasePatterns,
  type Attachment,
  type CreateReleaseOption,
  type EditAttachmentOptions,
  type EditReleaseOption,
  type Page,
  type Release,
  type RpcRequest,
} from '@gitforge/contracts';
import { ReleasesService } from './releases.service.js';

type RepoParams = { owner: string; repo: string };
type ReleaseParams = RepoParams & { id: string };
type AssetParams = ReleaseParams & { attachment_id: string };

@Controller()
export class ReleasesController {
  constructor(private readonly releases: ReleasesService) {}

  @MessagePattern(ReleasePatterns.list)
  list(@Payload() req: RpcRequest<RepoParams>): Promise<Page<Release>> {
    const query = (req.query ?? {}) as Record<string, unknown>;
    return this.releases.list(req.actor, req.params.owner, req.params.repo, query, normalizeListOptions(query));
  }

  @MessagePattern(ReleasePatterns.get)
  get(@Payload() req: RpcRequest<ReleaseParams>): Promise<Release> {
    return this.releases.get(req.actor, req.params.owner, req.params.repo, req.params.id);
  }

  @MessagePattern(ReleasePatterns.getByTag)
  getByTag(@Payload() req: RpcRequest<RepoParams & { tag: string }>): Promise<Release> {
    return this.releases.getByTag(req.actor, req.params.owner, req.params.repo, req.params.tag);
  }

  @MessagePattern(ReleasePatterns.latest)
  latest(@Payload() req: RpcRequest<RepoParams>): Promise<Release> {
    return this.releases.latest(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(ReleasePatterns.create)
  create(@Payload() req: RpcRequest<RepoParams, CreateReleaseOption>): Promise<Release> {
    return this.releases.create(req.actor, req.params.owner, req.params.repo, req.body);
  }

  @MessagePattern(ReleasePatterns.edit)
  edit(@Payload() req: RpcRequest<ReleaseParams, EditReleaseOption>): Promise<Release> {
    return this.releases.edit(req.actor, req.params.owner, req.params.repo, req.params.id, req.body);
  }

  @MessagePattern(ReleasePatterns.delete)
  delete(@Payload() req: RpcRequest<ReleaseParams>): Promise<void> {
    return this.releases.delete(req.actor, req.params.owner, req.params.repo, req.params.id);
  }

  @MessagePattern(ReleasePatterns.deleteByTag)
  deleteByTag(@Payload() req: RpcRequest<RepoParams & { tag: string }>): Promise<void> {
    return this.releases.deleteByTag(req.actor, req.params.owner, req.params.repo, req.params.tag);
  }

  @MessagePattern(ReleasePatterns.listAssets)
  listAssets(@Payload() req: RpcRequest<ReleaseParams>): Promise<Attachment[]> {
    return this.releases.listAssets(req.actor, req.params.owner, req.params.repo, req.params.id);
  }

  @MessagePattern(ReleasePatterns.isAsset)
  isAsset(@Payload() req: RpcRequest<Record<string, string>, { uuid: string }>): Promise<boolean> {
    return this.releases.isAsset(req.body.uuid);
  }

  @MessagePattern(ReleasePatterns.getAsset)
  getAsset(@Payload() req: RpcRequest<AssetParams>): Promise<Attachment> {
    return this.releases.getAsset(req.actor, req.params.owner, req.params.repo, req.params.id, req.params.attachment_id);
  }

  @MessagePattern(ReleasePatterns.editAsset)
  editAsset(@Payload() req: RpcRequest<AssetParams, EditAttachmentOptions>): Promise<Attachment> {
    return this.releases.editAsset(req.actor, req.params.owner, req.params.repo, req.params.id, req.params.attachment_id, req.body);
  }

  @MessagePattern(ReleasePatterns.deleteAsset)
  deleteAsset(@Payload() req: RpcRequest<AssetParams>): Promise<void> {
    return this.releases.deleteAsset(req.actor, req.params.owner, req.params.repo, req.params.id, req.params.attachment_id);
  }
}
