import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  BranchProtectionPatterns,
  type BranchProtection,
  type CreateBranchProtectionOption,
  type EditBranchProtectionOption,
  type RpcRequest,
  type UpdateBranchProtectionPriories,
} from '@gitforge/contracts';
import { BranchProtectionsService } from './branch-protections.service.js';

type RepoParams = { owner: string; repo: string };
type NameParams = RepoParams & { name: string };

@Controller()
export class BranchProtectionsController {
  constructor(private readonly branches: BranchProtectionsService) {}

  @MessagePattern(BranchProtectionPatterns.list)
  list(@Payload() req: RpcRequest<RepoParams>): Promise<BranchProtection[]> {
    return this.branches.list(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(BranchProtectionPatterns.get)
  get(@Payload() req: RpcRequest<NameParams>): Promise<BranchProtection> {
    return this.branches.get(req.actor, req.params.owner, req.params.repo, req.params.name);
  }

  @MessagePattern(BranchProtectionPatterns.create)
  create(@Payload() req: RpcRequest<RepoParams, CreateBranchProtectionOption>): Promise<BranchProtection> {
    return this.branches.create(req.actor, req.params.owner, req.params.repo, req.body);
  }

  @MessagePattern(BranchProtectionPatterns.edit)
  edit(@Payload() req: RpcRequest<NameParams, EditBranchProtectionOption>): Promise<BranchProtection> {
    return this.branches.edit(req.actor, req.params.owner, req.params.repo, req.params.name, req.body);
  }

  @MessagePattern(BranchProtectionPatterns.prioritize)
  prioritize(@Payload() req: RpcRequest<RepoParams, UpdateBranchProtectionPriories>): Promise<void> {
    return this.branches.prioritize(req.actor, req.params.owner, req.params.repo, req.body.ids);
  }

  @MessagePattern(BranchProtectionPatterns.delete)
  delete(@Payload() req: RpcRequest<NameParams>): Promise<void> {
    return this.branches.delete(req.actor, req.params.owner, req.params.repo, req.params.name);
  }
}
