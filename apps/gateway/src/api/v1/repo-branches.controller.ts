import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import {
  BranchPatterns,
  CreateBranchRepoOption,
  MergeUpstreamRequest,
  type MergeUpstreamResponse,
  RenameBranchRepoOption,
  UpdateBranchRepoOption,
  type Actor,
  type Branch,
  type Page,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

/**
 * `/repos/{owner}/{repo}/branches` (branch names may contain slashes). Writes leave sign-in to
 * repo-service, which answers a hidden repository's 404 before the 401, as Gitea does.
 */
@Controller('api/v1/repos/:owner/:repo/branches')
@Access({ scope: 'repository' })
export class RepoBranchesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @Paginated()
  list(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Branch>> {
    return this.rpc.call<Page<Branch>>(BranchPatterns.list, { actor, params: { owner, repo }, query });
  }

  @Get('*')
  get(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') branch: string,
  ): Promise<Branch> {
    return this.rpc.call(BranchPatterns.get, { actor, params: { owner, repo, branch } });
  }

  @Post()
  @Access({ repoRight: { write: ['repo.code'], unarchived: true } })
  create(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Body() body: CreateBranchRepoOption,
  ): Promise<Branch> {
    return this.rpc.call(BranchPatterns.create, { actor, params: { owner, repo }, body });
  }

  @Patch('*')
  @Access({ repoRight: { write: ['repo.code'], unarchived: true } })
  @HttpCode(204)
  async rename(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') branch: string,
    @Body() body: RenameBranchRepoOption,
  ): Promise<void> {
    await this.rpc.call(BranchPatterns.rename, { actor, params: { owner, repo, branch }, body });
  }

  @Put('*')
  @Access({ repoRight: { write: ['repo.code'], unarchived: true } })
  @HttpCode(204)
  async update(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') branch: string,
    @Body() body: UpdateBranchRepoOption,
  ): Promise<void> {
    await this.rpc.call(BranchPatterns.update, { actor, params: { owner, repo, branch }, body });
  }

  @Delete('*')
  @HttpCode(204)
  async delete(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') branch: string,
  ): Promise<void> {
    await this.rpc.call(BranchPatterns.delete, { actor, params: { owner, repo, branch } });
  }
}

/** `POST /repos/{owner}/{repo}/merge-upstream`: a fork's branch brought up to date with its parent (Gitea's MergeUpstream). */
@Controller('api/v1/repos/:owner/:repo/merge-upstream')
@Access({ scope: 'repository' })
export class RepoMergeUpstreamController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @Access({ repoRight: { write: ['repo.code'], unarchived: true } })
  @HttpCode(200)
  mergeUpstream(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Body() body: MergeUpstreamRequest,
  ): Promise<MergeUpstreamResponse> {
    return this.rpc.call(BranchPatterns.mergeUpstream, { actor, params: { owner, repo }, body });
  }
}
