import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PullGitPatterns, RepoFactPatterns, type HookCommit, type NotificationAudienceRequest, type PullHeadRepoRequest, type RepoAccess, type RepoIssueCounters, type RpcRequest, type UserRepoAccess } from '@gitforge/contracts';
import { RepoFactsService } from './repo-facts.service.js';

type RepoParams = { owner: string; repo: string };

@Controller()
export class RepoFactsController {
  constructor(private readonly facts: RepoFactsService) {}

  @MessagePattern(RepoFactPatterns.access)
  access(@Payload() req: RpcRequest<RepoParams>): Promise<RepoAccess> {
    return this.facts.one(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(RepoFactPatterns.accessMany)
  accessMany(@Payload() req: RpcRequest<Record<string, string>, { ids: number[]; asOwner?: boolean }>): Promise<RepoAccess[]> {
    return this.facts.many(req.actor, req.body.ids, req.body.asOwner === true);
  }

  @MessagePattern(RepoFactPatterns.hookCommit)
  hookCommit(@Payload() req: RpcRequest<RepoParams, undefined, { ref?: string }>): Promise<HookCommit> {
    return this.facts.hookCommit(req.actor, req.params.owner, req.params.repo, req.query.ref || undefined);
  }

  @MessagePattern(RepoFactPatterns.notificationAudience)
  notificationAudience(@Payload() req: RpcRequest<Record<string, string>, NotificationAudienceRequest>): Promise<number[]> {
    return this.facts.notificationAudience(req.body);
  }

  @MessagePattern(RepoFactPatterns.usersAccess)
  usersAccess(@Payload() req: RpcRequest<Record<string, string>, { repoId: number; userIds: number[] }>): Promise<UserRepoAccess[]> {
    return this.facts.usersAccess(req.body.repoId, req.body.userIds);
  }

  @MessagePattern(RepoFactPatterns.reachable)
  reachable(@Payload() req: RpcRequest<Record<string, string>, { owner?: string; team?: string }>): Promise<RepoAccess[]> {
    return this.facts.reachable(req.actor, req.body);
  }

  @MessagePattern(RepoFactPatterns.setIssueCounters)
  setIssueCounters(@Payload() req: RpcRequest<Record<string, string>, RepoIssueCounters>): Promise<void> {
    return this.facts.setIssueCounters(req.body);
  }

  /** For issue-service's pull requests: the repository `head` names, as the actor may read it. */
  @MessagePattern(PullGitPatterns.headRepo)
  headRepo(@Payload() req: RpcRequest<Record<string, string>, PullHeadRepoRequest>): Promise<RepoAccess> {
    return this.facts.headRepo(req.actor, req.body);
  }
}
