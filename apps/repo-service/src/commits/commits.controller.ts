import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CommitPatterns, normalizeListOptions, type Commit, type Compare, type Note, type Page, type RawText, type RpcRequest } from '@gitforge/contracts';
import { CommitsService, type CommitListQuery } from './commits.service.js';

type RepoParams = { owner: string; repo: string };

@Controller()
export class CommitsController {
  constructor(private readonly commits: CommitsService) {}

  @MessagePattern(CommitPatterns.list)
  list(@Payload() req: RpcRequest<RepoParams, undefined, CommitListQuery & { page?: string; limit?: string }>): Promise<Page<Commit>> {
    return this.commits.list(req.actor, req.params.owner, req.params.repo, req.query, normalizeListOptions(req.query));
  }

  @MessagePattern(CommitPatterns.get)
  get(@Payload() req: RpcRequest<RepoParams & { sha: string }, undefined, CommitListQuery>): Promise<Commit> {
    return this.commits.get(req.actor, req.params.owner, req.params.repo, req.params.sha, req.query);
  }

  @MessagePattern(CommitPatterns.note)
  note(@Payload() req: RpcRequest<RepoParams & { sha: string }, undefined, CommitListQuery>): Promise<Note> {
    return this.commits.note(req.actor, req.params.owner, req.params.repo, req.params.sha, req.query);
  }

  @MessagePattern(CommitPatterns.raw)
  raw(@Payload() req: RpcRequest<RepoParams & { sha: string; type: 'diff' | 'patch' }>): Promise<RawText> {
    return this.commits.raw(req.actor, req.params.owner, req.params.repo, req.params.sha, req.params.type);
  }

  @MessagePattern(CommitPatterns.compare)
  compare(
    @Payload() req: RpcRequest<RepoParams & { basehead: string }, undefined, { output?: string; files?: string; verification?: string }>,
  ): Promise<Compare | RawText> {
    return this.commits.compare(req.actor, req.params.owner, req.params.repo, req.params.basehead, req.query);
  }
}
