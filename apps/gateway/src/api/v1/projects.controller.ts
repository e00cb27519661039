import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  CreateProjectColumnOption,
  CreateProjectOption,
  EditProjectColumnOption,
  EditProjectOption,
  MoveProjectIssueOption,
  ProjectPatterns,
  type Actor,
  type Issue,
  type Page,
  type Project,
  type ProjectColumn,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

type QueryParams = Record<string, string>;
type ColumnParams = { id: string; column_id: string };

/**
 * Projects (gitforge's API on Gitea's project model; Gitea has none): repository projects under
 * the issue scope, organization projects under the organization scope, `/projects/{id}…` for both.
 */
@Controller('api/v1')
export class ProjectsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('repos/:owner/:repo/projects')
  @Paginated()
  @Access({ scope: 'issue' })
  listForRepo(
    @CurrentActor() actor: Actor | null,
    @Param() params: { owner: string; repo: string },
    @Query() query: QueryParams,
  ): Promise<Page<Project>> {
    return this.rpc.call(ProjectPatterns.listForRepo, { actor, params, query });
  }

  @Post('repos/:owner/:repo/projects')
  @Access({ signIn: true, scope: 'issue' })
  createForRepo(
    @CurrentActor() actor: Actor | null,
    @Param() params: { owner: string; repo: string },
    @Body() body: CreateProjectOption,
  ): Promise<Project> {
    return this.rpc.call(ProjectPatterns.createForRepo, { actor, params, body });
  }

  @Get('orgs/:org/projects')
  @Paginated()
  @Access({ scope: 'organization' })
  listForOrg(
    @CurrentActor() actor: Actor | null,
    @Param() params: { org: string },
    @Query() query: QueryParams,
  ): Promise<Page<Project>> {
    return this.rpc.call(ProjectPatterns.listForOrg, { actor, params, query });
  }

  @Post('orgs/:org/projects')
  @Access({ signIn: true, scope: 'organization' })
  createForOrg(
    @CurrentActor() actor: Actor | null,
    @Param() params: { org: string },
    @Body() body: CreateProjectOption,
  ): Promise<Project> {
    return this.rpc.call(ProjectPatterns.createForOrg, { actor, params, body });
  }

  @Get('projects/:id')
  @Access({ scope: 'issue' })
  get(@CurrentActor() actor: Actor | null, @Param() params: { id: string }): Promise<Project> {
    return this.rpc.call(ProjectPatterns.get, { actor, params });
  }

  @Patch('projects/:id')
  @Access({ signIn: true, scope: 'issue' })
  edit(
    @CurrentActor() actor: Actor | null,
    @Param() params: { id: string },
    @Body() body: EditProjectOption,
  ): Promise<Project> {
    return this.rpc.call(ProjectPatterns.edit, { actor, params, body });
  }

  @Delete('projects/:id')
  @HttpCode(204)
  @Access({ signIn: true, scope: 'issue' })
  async delete(@CurrentActor() actor: Actor | null, @Param() params: { id: string }): Promise<void> {
    await this.rpc.call(ProjectPatterns.delete, { actor, params });
  }

  @Get('projects/:id/columns')
  @Access({ scope: 'issue' })
  listColumns(
    @CurrentActor() actor: Actor | null,
    @Param() params: { id: string },
  ): Promise<ProjectColumn[]> {
    return this.rpc.call(ProjectPatterns.listColumns, { actor, params });
  }

  @Post('projects/:id/columns')
  @Access({ signIn: true, scope: 'issue' })
  createColumn(
    @CurrentActor() actor: Actor | null,
    @Param() params: { id: string },
    @Body() body: CreateProjectColumnOption,
  ): Promise<ProjectColumn> {
    return this.rpc.call(ProjectPatterns.createColumn, { actor, params, body });
  }

  @Patch('projects/:id/columns/:column_id')
  @Access({ signIn: true, scope: 'issue' })
  editColumn(
    @CurrentActor() actor: Actor | null,
    @Param() params: ColumnParams,
    @Body() body: EditProjectColumnOption,
  ): Promise<ProjectColumn> {
    return this.rpc.call(ProjectPatterns.editColumn, { actor, params, body });
  }

  @Delete('projects/:id/columns/:column_id')
  @HttpCode(204)
  @Access({ signIn: true, scope: 'issue' })
  async deleteColumn(@CurrentActor() actor: Actor | null, @Param() params: ColumnParams): Promise<void> {
    await this.rpc.call(ProjectPatterns.deleteColumn, { actor, params });
  }

  @Get('projects/:id/columns/:column_id/issues')
  @Paginated()
  @Access({ scope: 'issue' })
  listColumnIssues(
    @CurrentActor() actor: Actor | null,
    @Param() params: ColumnParams,
    @Query() query: QueryParams,
  ): Promise<Page<Issue>> {
    return this.rpc.call(ProjectPatterns.listColumnIssues, { actor, params, query });
  }

  /** Adds the issue to the project in this column, or moves it there: 204. */
  @Post('projects/:id/columns/:column_id/issues')
  @HttpCode(204)
  @Access({ signIn: true, scope: 'issue' })
  async moveIssue(
    @CurrentActor() actor: Actor | null,
    @Param() params: ColumnParams,
    @Body() body: MoveProjectIssueOption,
  ): Promise<void> {
    await this.rpc.call(ProjectPatterns.moveIssue, { actor, params, body });
  }

  @Delete('projects/:id/issues/:issue_id')
  @HttpCode(204)
  @Access({ signIn: true, scope: 'issue' })
  async removeIssue(
    @CurrentActor() actor: Actor | null,
    @Param() params: { id: string; issue_id: string },
  ): Promise<void> {
    await this.rpc.call(ProjectPatterns.removeIssue, { actor, params });
  }
}
