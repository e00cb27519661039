import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  normalizeListOptions,
  RepoPatterns,
  type CreateForkOption,
  type CreateRepoOption,
  type EditRepoOption,
  type FindReposRequest,
  type Page,
  type Repository,
  type RpcRequest,
  idFrom,
} from '@gitforge/contracts';
import { RepoSearchService, type RepoSearchQuery } from './repo-search.service.js';
import { ReposService } from './repos.service.js';

type RepoParams = { owner: string; repo: string };

@Controller()
export class ReposController {
  constructor(
    private readonly repos: ReposService,
    private readonly repoSearch: RepoSearchService,
  ) {}

  @MessagePattern(RepoPatterns.createForActor)
  createForActor(@Payload() req: RpcRequest<Record<string, string>, CreateRepoOption>): Promise<Repository> {
    return this.repos.createForActor(req.actor, req.body);
  }

  @MessagePattern(RepoPatterns.createForOrg)
  createForOrg(@Payload() req: RpcRequest<{ org: string }, CreateRepoOption>): Promise<Repository> {
    return this.repos.createForOrg(req.actor, req.params.org, req.body);
  }

  @MessagePattern(RepoPatterns.createForUser)
  createForUser(@Payload() req: RpcRequest<{ username: string }, CreateRepoOption>): Promise<Repository> {
    return this.repos.createForUser(req.actor, req.params.username, req.body);
  }

  @MessagePattern(RepoPatterns.getById)
  getById(@Payload() req: RpcRequest<{ id: string }>): Promise<Repository> {
    return this.repos.getById(req.actor, idFrom(req.params.id));
  }

  @MessagePattern(RepoPatterns.get)
  get(@Payload() req: RpcRequest<RepoParams>): Promise<Repository> {
    return this.repos.get(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(RepoPatterns.edit)
  edit(@Payload() req: RpcRequest<RepoParams, EditRepoOption>): Promise<Repository> {
    return this.repos.edit(req.actor, req.params.owner, req.params.repo, req.body);
  }

  @MessagePattern(RepoPatterns.delete)
  delete(@Payload() req: RpcRequest<RepoParams>): Promise<void> {
    return this.repos.delete(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(RepoPatterns.listForActor)
  listForActor(@Payload() req: RpcRequest): Promise<Page<Repository>> {
    return this.repos.listForActor(req.actor, normalizeListOptions(req.query));
  }

  @MessagePattern(RepoPatterns.listForUser)
  listForUser(@Payload() req: RpcRequest<{ username: string }>): Promise<Page<Repository>> {
    return this.repos.listForOwner(req.actor, req.params.username, normalizeListOptions(req.query), 'any');
  }

  @MessagePattern(RepoPatterns.listForOrg)
  listForOrg(@Payload() req: RpcRequest<{ org: string }>): Promise<Page<Repository>> {
    return this.repos.listForOwner(req.actor, req.params.org, normalizeListOptions(req.query), 'organization');
  }

  @MessagePattern(RepoPatterns.findMany)
  findMany(@Payload() req: RpcRequest<Record<string, string>, FindReposRequest>): Promise<Page<Repository>> {
    return this.repos.findMany(req.actor, req.body, normalizeListOptions(req.query));
  }

  @MessagePattern(RepoPatterns.deleteAllOfOwner)
  deleteAllOfOwner(@Payload() req: RpcRequest<Record<string, string>, { ownerId: number }>): Promise<void> {
    return this.repos.deleteAllOfOwner(req.actor, req.body.ownerId);
  }

  @MessagePattern(RepoPatterns.countForOwner)
  countForOwner(@Payload() req: RpcRequest<Record<string, string>, { ownerId: number }>): Promise<number> {
    return this.repos.countForOwner(req.body.ownerId);
  }

  @MessagePattern(RepoPatterns.search)
  search(@Payload() req: RpcRequest<Record<string, string>, undefined, RepoSearchQuery & { page?: string; limit?: string }>): Promise<Page<Repository>> {
    return this.repoSearch.search(req.actor, req.query, normalizeListOptions(req.query));
  }

  @MessagePattern(RepoPatterns.fork)
  fork(@Payload() req: RpcRequest<RepoParams, CreateForkOption>): Promise<Repository> {
    return this.repos.fork(req.actor, req.params.owner, req.params.repo, req.body);
  }

  @MessagePattern(RepoPatterns.listForks)
  listForks(@Payload() req: RpcRequest<RepoParams>): Promise<Page<Repository>> {
    return this.repoSearch.forks(req.actor, req.params.owner, req.params.repo, normalizeListOptions(req.query));
  }
}
