import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import {
  CreateLabelOption,
  CreateMilestoneOption,
  EditLabelOption,
  EditMilestoneOption,
  IssueLabelsOption,
  LabelPatterns,
  MilestonePatterns,
  type Actor,
  type Label,
  type Milestone,
  type Page,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

type RepoParams = { owner: string; repo: string };
type QueryParams = Record<string, string>;

/**
 * `/repos/{owner}/{repo}/labels…` and `/repos/{owner}/{repo}/issues/{index}/labels…` (Gitea's
 * issue routes: token scope `issue`). Sign-in is left to the service: Gitea finds the repository
 * (404) before it asks for a token.
 */
@Controller('api/v1/repos/:owner/:repo')
@Access({ scope: 'issue' })
export class RepoLabelsController {
  constructor(private readonly rpc: RpcClient) {}

  /** Gitea sends X-Total-Count only. */
  @Get('labels')
  @Paginated({ link: false })
  list(@CurrentActor() actor: Actor | null, @Param() params: RepoParams, @Query() query: QueryParams): Promise<Page<Label>> {
    return this.rpc.call(LabelPatterns.listForRepo, { actor, params, query });
  }

  @Post('labels')
  @Access({ repoRight: { write: ['repo.issues', 'repo.pulls'] } })
  create(@CurrentActor() actor: Actor | null, @Param() params: RepoParams, @Body() body: CreateLabelOption): Promise<Label> {
    return this.rpc.call(LabelPatterns.createForRepo, { actor, params, body });
  }

  @Get('labels/:id')
  get(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { id: string }): Promise<Label> {
    return this.rpc.call(LabelPatterns.getForRepo, { actor, params });
  }

  @Patch('labels/:id')
  @Access({ repoRight: { write: ['repo.issues', 'repo.pulls'] } })
  edit(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { id: string }, @Body() body: EditLabelOption): Promise<Label> {
    return this.rpc.call(LabelPatterns.editForRepo, { actor, params, body });
  }

  @Delete('labels/:id')
  @HttpCode(204)
  async delete(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { id: string }): Promise<void> {
    await this.rpc.call(LabelPatterns.deleteForRepo, { actor, params });
  }

  @Get('issues/:index/labels')
  listForIssue(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { index: string }): Promise<Label[]> {
    return this.rpc.call(LabelPatterns.listForIssue, { actor, params });
  }

  /** Gitea answers with the issue's labels and 200. */
  @Post('issues/:index/labels')
  @HttpCode(200)
  addToIssue(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { index: string }, @Body() body: IssueLabelsOption): Promise<Label[]> {
    return this.rpc.call(LabelPatterns.addToIssue, { actor, params, body });
  }

  @Put('issues/:index/labels')
  replaceOnIssue(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { index: string }, @Body() body: IssueLabelsOption): Promise<Label[]> {
    return this.rpc.call(LabelPatterns.replaceOnIssue, { actor, params, body });
  }

  @Delete('issues/:index/labels')
  @HttpCode(204)
  async clearOnIssue(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { index: string }): Promise<void> {
    await this.rpc.call(LabelPatterns.clearOnIssue, { actor, params });
  }

  @Delete('issues/:index/labels/:id')
  @HttpCode(204)
  async removeFromIssue(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { index: string; id: string }): Promise<void> {
    await this.rpc.call(LabelPatterns.removeFromIssue, { actor, params });
  }
}

/** `/orgs/{org}/labels…` (token scope `organization`); the service finds the organization before it asks for a token. */
@Controller('api/v1/orgs/:org/labels')
@Access({ scope: 'organization' })
export class OrgLabelsController {
  constructor(private readonly rpc: RpcClient) {}

  /** Gitea sends X-Total-Count only. */
  @Get()
  @Paginated({ link: false })
  list(@CurrentActor() actor: Actor | null, @Param() params: { org: string }, @Query() query: QueryParams): Promise<Page<Label>> {
    return this.rpc.call(LabelPatterns.listForOrg, { actor, params, query });
  }

  @Post()
  @Access({ orgOwner: 'visible' })
  create(@CurrentActor() actor: Actor | null, @Param() params: { org: string }, @Body() body: CreateLabelOption): Promise<Label> {
    return this.rpc.call(LabelPatterns.createForOrg, { actor, params, body });
  }

  @Get(':id')
  get(@CurrentActor() actor: Actor | null, @Param() params: { org: string; id: string }): Promise<Label> {
    return this.rpc.call(LabelPatterns.getForOrg, { actor, params });
  }

  @Patch(':id')
  @Access({ orgOwner: 'visible' })
  edit(@CurrentActor() actor: Actor | null, @Param() params: { org: string; id: string }, @Body() body: EditLabelOption): Promise<Label> {
    return this.rpc.call(LabelPatterns.editForOrg, { actor, params, body });
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@CurrentActor() actor: Actor | null, @Param() params: { org: string; id: string }): Promise<void> {
    await this.rpc.call(LabelPatterns.deleteForOrg, { actor, params });
  }
}

/** `/repos/{owner}/{repo}/milestones…` (token scope `issue`). */
@Controller('api/v1/repos/:owner/:repo/milestones')
@Access({ scope: 'issue' })
export class RepoMilestonesController {
  constructor(private readonly rpc: RpcClient) {}

  /** `state` (open, closed, all; open by default) and `name`; Gitea sends X-Total-Count only. */
  @Get()
  @Paginated({ link: false })
  list(@CurrentActor() actor: Actor | null, @Param() params: RepoParams, @Query() query: QueryParams): Promise<Page<Milestone>> {
    return this.rpc.call(MilestonePatterns.list, { actor, params, query });
  }

  @Post()
  @Access({ repoRight: { write: ['repo.issues', 'repo.pulls'] } })
  create(@CurrentActor() actor: Actor | null, @Param() params: RepoParams, @Body() body: CreateMilestoneOption): Promise<Milestone> {
    return this.rpc.call(MilestonePatterns.create, { actor, params, body });
  }

  /** `{id}` is an id, or the title when no milestone has that id. */
  @Get(':id')
  get(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { id: string }): Promise<Milestone> {
    return this.rpc.call(MilestonePatterns.get, { actor, params });
  }

  @Patch(':id')
  @Access({ repoRight: { write: ['repo.issues', 'repo.pulls'] } })
  edit(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { id: string }, @Body() body: EditMilestoneOption): Promise<Milestone> {
    return this.rpc.call(MilestonePatterns.edit, { actor, params, body });
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { id: string }): Promise<void> {
    await this.rpc.call(MilestonePatterns.delete, { actor, params });
  }
}
