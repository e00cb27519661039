import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { BranchPatterns, normalizeListOptions, type Branch, type CreateBranchRepoOption, type MergeUpstreamRequest, type MergeUpstreamResponse, type Page, type RenameBranchRepoOption, type RpcRequest, type UpdateBranchRepoOption } from '@gitforge/contracts';
import { BranchesService } from './branches.service.js';

type RepoParams = { owner: string; repo: string };

@Controller()
export class BranchesController {
  constructor(private readonly branches: BranchesService) {}

  @MessagePattern(BranchPatterns.list)
  list(@Payload() req: RpcRequest<RepoParams>): Promise<Page<Branch>> {
    return this.branches.list(req.actor, req.params.owner, req.params.repo, normalizeListOptions(req.query), typeof req.query?.q === 'string' ? req.query.q : '');
  }

  @MessagePattern(BranchPatterns.get)
  get(@Payload() req: RpcRequest<RepoParams & { branch: string }>): Promise<Branch> {
    return this.branches.get(req.actor, req.params.owner, req.params.repo, req.params.branch);
  }

  @MessagePattern(BranchPatterns.create)
  create(@Payload() req: RpcRequest<RepoParams, CreateBranchRepoOption>): Promise<Branch> {
    return this.branches.create(req.actor, req.params.owner, req.params.repo, req.body);
  }

  @MessagePattern(BranchPatterns.rename)
  rename(@Payload() req: RpcRequest<RepoParams & { branch: string }, RenameBranchRepoOption>): Promise<void> {
    return this.branches.rename(req.actor, req.params.owner, req.params.repo, req.params.branch, req.body);
  }

  @MessagePattern(BranchPatterns.update)
  update(@Payload() req: RpcRequest<RepoParams & { branch: string }, UpdateBranchRepoOption>): Promise<void> {
    return this.branches.update(req.actor, req.params.owner, req.params.repo, req.params.branch, req.body);
  }

  @MessagePattern(BranchPatterns.delete)
  delete(@Payload() req: RpcRequest<RepoParams & { branch: string }>): Promise<void> {
    return this.branches.delete(req.actor, req.params.owner, req.params.repo, req.params.branch);
  }

  @MessagePattern(BranchPatterns.mergeUpstream)
  mergeUpstream(@Payload() req: RpcRequest<RepoParams, MergeUpstreamRequest>): Promise<MergeUpstreamResponse> {
    return this.branches.mergeUpstream(req.actor, req.params.owner, req.params.repo, req.body ?? {});
  }
}
