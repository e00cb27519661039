import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  DeployKeyPatterns,
  normalizeListOptions,
  type CreateKeyOption,
  type DeployKey,
  type KeyFingerprints,
  type Page,
  type RpcRequest,
  type SshKeyOwner,
} from '@gitforge/contracts';
import { DeployKeysService } from './deploy-keys.service.js';

type RepoParams = { owner: string; repo: string };

@Controller()
export class DeployKeysController {
  constructor(private readonly keys: DeployKeysService) {}

  @MessagePattern(DeployKeyPatterns.list)
  list(@Payload() req: RpcRequest<RepoParams>): Promise<Page<DeployKey>> {
    return this.keys.list(
      req.actor,
      req.params.owner,
      req.params.repo,
      req.query,
      normalizeListOptions(req.query),
    );
  }

  @MessagePattern(DeployKeyPatterns.get)
  get(@Payload() req: RpcRequest<RepoParams & { id: string }>): Promise<DeployKey> {
    return this.keys.get(req.actor, req.params.owner, req.params.repo, req.params.id);
  }

  @MessagePattern(DeployKeyPatterns.create)
  create(@Payload() req: RpcRequest<RepoParams, CreateKeyOption>): Promise<DeployKey> {
    return this.keys.create(req.actor, req.params.owner, req.params.repo, req.body);
  }

  @MessagePattern(DeployKeyPatterns.delete)
  delete(@Payload() req: RpcRequest<RepoParams & { id: string }>): Promise<void> {
    return this.keys.delete(req.actor, req.params.owner, req.params.repo, req.params.id);
  }

  @MessagePattern(DeployKeyPatterns.findByFingerprints)
  findByFingerprints(
    @Payload() req: RpcRequest<Record<string, string>, KeyFingerprints>,
  ): Promise<SshKeyOwner[]> {
    return this.keys.findByFingerprints(req.body?.fingerprints ?? []);
  }
}
