import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { IssueDependencyPatterns, normalizeListOptions, type Issue, type IssueMeta, type RpcRequest } from '@gitforge/contracts';
import { DependenciesService } from './dependencies.service.js';

type IssueParams = { owner: string; repo: string; index: string };

@Controller()
export class DependenciesController {
  constructor(private readonly deps: DependenciesService) {}

  @MessagePattern(IssueDependencyPatterns.listDependencies)
  listDependencies(@Payload() req: RpcRequest<IssueParams, undefined, { page?: string; limit?: string }>): Promise<Issue[]> {
    return this.deps.list(req.actor, req.params.owner, req.params.repo, req.params.index, 'dependencies', normalizeListOptions(req.query));
  }

  @MessagePattern(IssueDependencyPatterns.listBlocks)
  listBlocks(@Payload() req: RpcRequest<IssueParams, undefined, { page?: string; limit?: string }>): Promise<Issue[]> {
    return this.deps.list(req.actor, req.params.owner, req.params.repo, req.params.index, 'blocks', normalizeListOptions(req.query));
  }

  @MessagePattern(IssueDependencyPatterns.addDependency)
  addDependency(@Payload() req: RpcRequest<IssueParams, IssueMeta>): Promise<Issue> {
    return this.deps.link(req.actor, req.params.owner, req.params.repo, req.params.index, req.body, 'dependencies', true);
  }

  @MessagePattern(IssueDependencyPatterns.removeDependency)
  removeDependency(@Payload() req: RpcRequest<IssueParams, IssueMeta>): Promise<Issue> {
    return this.deps.link(req.actor, req.params.owner, req.params.repo, req.params.index, req.body, 'dependencies', false);
  }

  @MessagePattern(IssueDependencyPatterns.addBlock)
  addBlock(@Payload() req: RpcRequest<IssueParams, IssueMeta>): Promise<Issue> {
    return this.deps.link(req.actor, req.params.owner, req.params.repo, req.params.index, req.body, 'blocks', true);
  }

  @MessagePattern(IssueDependencyPatterns.removeBlock)
  removeBlock(@Payload() req: RpcRequest<IssueParams, IssueMeta>): Promise<Issue> {
    return this.deps.link(req.actor, req.params.owner, req.params.repo, req.params.index, req.body, 'blocks', false);
  }
}
