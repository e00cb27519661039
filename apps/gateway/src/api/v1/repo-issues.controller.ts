import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import {
  CreateIssueOption,
  EditDeadlineOption,
  EditIssueOption,
  IssueAssigneesOption,
  IssueDependencyPatterns,
  IssueMeta,
  IssuePatterns,
  LockIssueOption,
  type Actor,
  type Issue,
  type IssueDeadline,
  type Page,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

type QueryParams = Record<string, string>;

/** `GET /repos/issues/search`: issues across every repository the caller reaches. */
@Controller('api/v1/repos/issues')
@Access({ scope: 'issue' })
export class IssueSearchController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('search')
  @Paginated()
  search(@CurrentActor() actor: Actor | null, @Query() query: QueryParams): Promise<Page<Issue>> {
    return this.rpc.call(IssuePatterns.search, { actor, query });
  }
}

/** `/repos/{owner}/{repo}/issues…` (Gitea's issue routes: token scope `issue`). */
@Controller('api/v1/repos/:owner/:repo')
@Access({ scope: 'issue' })
export class RepoIssuesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('issues')
  @Paginated()
  list(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string }, @Query() query: QueryParams): Promise<Page<Issue>> {
    return this.rpc.call(IssuePatterns.list, { actor, params, query });
  }

  @Post('issues')
  create(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string }, @Body() body: CreateIssueOption): Promise<Issue> {
    return this.rpc.call(IssuePatterns.create, { actor, params, body });
  }

  @Get('issues/pinned')
  pinned(@CurrentActor() actor: Actor | null, @Param('owner') owner: string, @Param('repo') repo: string): Promise<Issue[]> {
    return this.rpc.call(IssuePatterns.listPinned, { actor, params: { owner, repo, kind: 'issues' } });
  }

  @Get('issues/:index')
  get(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; index: string }): Promise<Issue> {
    return this.rpc.call(IssuePatterns.get, { actor, params });
  }

  /** Gitea answers an edit with 201. */
  @Patch('issues/:index')
  @HttpCode(201)
  edit(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; index: string }, @Body() body: EditIssueOption): Promise<Issue> {
    return this.rpc.call(IssuePatterns.edit, { actor, params, body });
  }

  @Delete('issues/:index')
  @HttpCode(204)
  async delete(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; index: string }): Promise<void> {
    await this.rpc.call(IssuePatterns.delete, { actor, params });
  }

  @Post('issues/:index/deadline')
  @HttpCode(201)
  deadline(
    @CurrentActor() actor: Actor | null,
    @Param() params: { owner: string; repo: string; index: string },
    @Body() body: EditDeadlineOption,
  ): Promise<IssueDeadline> {
    return this.rpc.call(IssuePatterns.editDeadline, { actor, params, body });
  }

  @Put('issues/:index/lock')
  @HttpCode(204)
  @Access({ repoRight: 'admin' })
  async lock(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; index: string }, @Body() body: LockIssueOption): Promise<void> {
    await this.rpc.call(IssuePatterns.lock, { actor, params, body });
  }

  @Delete('issues/:index/lock')
  @HttpCode(204)
  async unlock(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; index: string }): Promise<void> {
    await this.rpc.call(IssuePatterns.unlock, { actor, params });
  }

  @Post('issues/:index/pin')
  @HttpCode(204)
  async pin(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; index: string }): Promise<void> {
    await this.rpc.call(IssuePatterns.pin, { actor, params });
  }

  @Delete('issues/:index/pin')
  @HttpCode(204)
  async unpin(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; index: string }): Promise<void> {
    await this.rpc.call(IssuePatterns.unpin, { actor, params });
  }

  @Patch('issues/:index/pin/:position')
  @HttpCode(204)
  async movePin(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; index: string; position: string }): Promise<void> {
    await this.rpc.call(IssuePatterns.movePin, { actor, params });
  }

  @Post('issues/:index/assignees')
  @HttpCode(201)
  addAssignees(
    @CurrentActor() actor: Actor | null,
    @Param() params: { owner: string; repo: string; index: string },
    @Body() body: IssueAssigneesOption,
  ): Promise<Issue> {
    return this.rpc.call(IssuePatterns.addAssignees, { actor, params, body });
  }

  @Get('issues/:index/assignees/:assignee')
  @HttpCode(204)
  async checkAssignee(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; index: string; assignee: string }): Promise<void> {
    await this.rpc.call(IssuePatterns.checkAssignee, { actor, params });
  }

  @Delete('issues/:index/assignees')
  removeAssignees(
    @CurrentActor() actor: Actor | null,
    @Param() params: { owner: string; repo: string; index: string },
    @Body() body: IssueAssigneesOption,
  ): Promise<Issue> {
    return this.rpc.call(IssuePatterns.removeAssignees, { actor, params, body });
  }

  @Get('issues/:index/dependencies')
  dependencies(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; index: string }, @Query() query: QueryParams): Promise<Issue[]> {
    return this.rpc.call(IssueDependencyPatterns.listDependencies, { actor, params, query });
  }

  @Post('issues/:index/dependencies')
  @HttpCode(201)
  addDependency(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; index: string }, @Body() body: IssueMeta): Promise<Issue> {
    return this.rpc.call(IssueDependencyPatterns.addDependency, { actor, params, body });
  }

  /** Gitea answers a removal with 201 too. */
  @Delete('issues/:index/dependencies')
  @HttpCode(201)
  removeDependency(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; index: string }, @Body() body: IssueMeta): Promise<Issue> {
    return this.rpc.call(IssueDependencyPatterns.removeDependency, { actor, params, body });
  }

  @Get('issues/:index/blocks')
  blocks(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; index: string }, @Query() query: QueryParams): Promise<Issue[]> {
    return this.rpc.call(IssueDependencyPatterns.listBlocks, { actor, params, query });
  }

  @Post('issues/:index/blocks')
  @HttpCode(201)
  addBlock(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; index: string }, @Body() body: IssueMeta): Promise<Issue> {
    return this.rpc.call(IssueDependencyPatterns.addBlock, { actor, params, body });
  }

  @Delete('issues/:index/blocks')
  @HttpCode(201)
  removeBlock(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; index: string }, @Body() body: IssueMeta): Promise<Issue> {
    return this.rpc.call(IssueDependencyPatterns.removeBlock, { actor, params, body });
  }
}
