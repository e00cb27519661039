import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  formBool,
  normalizeListOptions,
  PullPatterns,
  type ChangedFile,
  type Commit,
  type CreatePullRequestOption,
  type EditPullRequestOption,
  type MergePullRequestOption,
  type Page,
  type PullRequest,
  type RawText,
  type RpcRequest,
} from '@gitforge/contracts';
import { PullsService, type PullListQuery } from './pulls.service.js';

type RepoParams = { owner: string; repo: string };
type PullParams = RepoParams & { index: string };
type Paging = { page?: string; limit?: string };

@Controller()
export class PullsController {
  constructor(private readonly pulls: PullsService) {}

  @MessagePattern(PullPatterns.create)
  create(@Payload() req: RpcRequest<RepoParams, CreatePullRequestOption>): Promise<PullRequest> {
    return this.pulls.create(req.actor, req.params.owner, req.params.repo, req.body);
  }

  @MessagePattern(PullPatterns.list)
  list(@Payload() req: RpcRequest<RepoParams, undefined, PullListQuery & Paging>): Promise<Page<PullRequest>> {
    return this.pulls.list(req.actor, req.params.owner, req.params.repo, req.query, normalizeListOptions(req.query));
  }

  @MessagePattern(PullPatterns.get)
  get(@Payload() req: RpcRequest<PullParams>): Promise<PullRequest> {
    return this.pulls.get(req.actor, req.params.owner, req.params.repo, req.params.index);
  }

  @MessagePattern(PullPatterns.getByBaseHead)
  getByBaseHead(@Payload() req: RpcRequest<RepoParams & { base: string; head: string }>): Promise<PullRequest> {
    return this.pulls.getByBaseHead(req.actor, req.params.owner, req.params.repo, req.params.base, req.params.head);
  }

  @MessagePattern(PullPatterns.getByMergedCommit)
  getByMergedCommit(@Payload() req: RpcRequest<RepoParams & { sha: string }>): Promise<PullRequest> {
    return this.pulls.getByMergedCommit(req.actor, req.params.owner, req.params.repo, req.params.sha);
  }

  @MessagePattern(PullPatterns.edit)
  edit(@Payload() req: RpcRequest<PullParams, EditPullRequestOption>): Promise<PullRequest> {
    return this.pulls.edit(req.actor, req.params.owner, req.params.repo, req.params.index, req.body);
  }

  @MessagePattern(PullPatterns.raw)
  raw(@Payload() req: RpcRequest<PullParams & { diffType: string }, undefined, { binary?: string }>): Promise<RawText> {
    return this.pulls.raw(req.actor, req.params.owner, req.params.repo, req.params.index, req.params.diffType, formBool(req.query.binary));
  }

  @MessagePattern(PullPatterns.files)
  files(@Payload() req: RpcRequest<PullParams, undefined, Paging & { 'skip-to'?: string; whitespace?: string }>): Promise<Page<ChangedFile>> {
    const query = req.query ?? {};
    return this.pulls.files(req.actor, req.params.owner, req.params.repo, req.params.index, normalizeListOptions(query), {
      ...(typeof query['skip-to'] === 'string' ? { skipTo: query['skip-to'] } : {}),
      ...(typeof query.whitespace === 'string' ? { whitespace: query.whitespace } : {}),
    });
  }

  @MessagePattern(PullPatterns.commits)
  commits(@Payload() req: RpcRequest<PullParams, undefined, Paging & { files?: string; verification?: string }>): Promise<Page<Commit>> {
    // Both default to true, as Gitea reads them.
    const flag = (v: string | undefined): boolean => v === undefined || v === '' || formBool(v);
    return this.pulls.commits(req.actor, req.params.owner, req.params.repo, req.params.index, normalizeListOptions(req.query), {
      files: flag(req.query.files),
      verification: flag(req.query.verification),
    });
  }

  @MessagePattern(PullPatterns.isMerged)
  isMerged(@Payload() req: RpcRequest<PullParams>): Promise<void> {
    return this.pulls.isMerged(req.actor, req.params.owner, req.params.repo, req.params.index);
  }

  @MessagePattern(PullPatterns.merge)
  merge(@Payload() req: RpcRequest<PullParams, MergePullRequestOption>): Promise<'merged' | 'scheduled'> {
    return this.pulls.merge(req.actor, req.params.owner, req.params.repo, req.params.index, req.body);
  }

  @MessagePattern(PullPatterns.cancelAutoMerge)
  cancelAutoMerge(@Payload() req: RpcRequest<PullParams>): Promise<void> {
    return this.pulls.cancelAutoMerge(req.actor, req.params.owner, req.params.repo, req.params.index);
  }

  @MessagePattern(PullPatterns.update)
  update(@Payload() req: RpcRequest<PullParams, undefined, { style?: string }>): Promise<void> {
    return this.pulls.update(req.actor, req.params.owner, req.params.repo, req.params.index, req.query.style);
  }
}
