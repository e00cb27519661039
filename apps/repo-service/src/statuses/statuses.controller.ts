import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CommitStatusPatterns,
  normalizeListOptions,
  type ActionsCommitStatus,
  type CombinedStatus,
  type CommitStatus,
  type CreateStatusOption,
  type Page,
  type RpcRequest,
} from '@gitforge/contracts';
import { StatusesService } from './statuses.service.js';

type ListQuery = { sort?: string; state?: string; page?: string; limit?: string };

@Controller()
export class StatusesController {
  constructor(private readonly statuses: StatusesService) {}

  @MessagePattern(CommitStatusPatterns.create)
  create(@Payload() req: RpcRequest<{ owner: string; repo: string; sha: string }, CreateStatusOption>): Promise<CommitStatus> {
    return this.statuses.create(req.actor, req.params.owner, req.params.repo, req.params.sha, req.body);
  }

  @MessagePattern(CommitStatusPatterns.createForActions)
  createForActions(@Payload() req: RpcRequest<Record<string, string>, ActionsCommitStatus>): Promise<CommitStatus | null> {
    return this.statuses.createForActions(req.body);
  }

  @MessagePattern(CommitStatusPatterns.list)
  list(@Payload() req: RpcRequest<{ owner: string; repo: string; sha: string }, undefined, ListQuery>): Promise<Page<CommitStatus>> {
    const { owner, repo, sha } = req.params;
    return this.statuses.list(req.actor, owner, repo, sha, req.query, normalizeListOptions(req.query));
  }

  @MessagePattern(CommitStatusPatterns.listByRef)
  listByRef(@Payload() req: RpcRequest<{ owner: string; repo: string; ref: string }, undefined, ListQuery>): Promise<Page<CommitStatus>> {
    const { owner, repo, ref } = req.params;
    return this.statuses.listByRef(req.actor, owner, repo, ref, req.query, normalizeListOptions(req.query));
  }

  /** One combined status; the page's total (distinct contexts) feeds X-Total-Count and Link. */
  @MessagePattern(CommitStatusPatterns.combined)
  combined(@Payload() req: RpcRequest<{ owner: string; repo: string; ref: string }, undefined, ListQuery>): Promise<Page<CombinedStatus>> {
    const { owner, repo, ref } = req.params;
    return this.statuses.combined(req.actor, owner, repo, ref, normalizeListOptions(req.query));
  }
}
