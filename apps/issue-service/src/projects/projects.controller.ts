import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  normalizeListOptions,
  ProjectPatterns,
  type CreateProjectColumnOption,
  type CreateProjectOption,
  type EditProjectColumnOption,
  type EditProjectOption,
  type Issue,
  type MoveProjectIssueOption,
  type Page,
  type Project,
  type ProjectColumn,
  type RpcRequest,
} from '@gitforge/contracts';
import { ProjectsService, type ProjectListQuery } from './projects.service.js';

type ListQuery = ProjectListQuery & { page?: string; limit?: string };
type RepoParams = { owner: string; repo: string };
type ProjectParams = { id: string };
type ColumnParams = ProjectParams & { column_id: string };

@Controller()
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @MessagePattern(ProjectPatterns.listForRepo)
  listForRepo(@Payload() req: RpcRequest<RepoParams, undefined, ListQuery>): Promise<Page<Project>> {
    return this.projects.listForRepo(
      req.actor,
      req.params.owner,
      req.params.repo,
      req.query,
      normalizeListOptions(req.query),
    );
  }

  @MessagePattern(ProjectPatterns.createForRepo)
  createForRepo(@Payload() req: RpcRequest<RepoParams, CreateProjectOption>): Promise<Project> {
    return this.projects.createForRepo(req.actor, req.params.owner, req.params.repo, req.body);
  }

  @MessagePattern(ProjectPatterns.listForOrg)
  listForOrg(@Payload() req: RpcRequest<{ org: string }, undefined, ListQuery>): Promise<Page<Project>> {
    return this.projects.listForOrg(req.actor, req.params.org, req.query, normalizeListOptions(req.query));
  }

  @MessagePattern(ProjectPatterns.createForOrg)
  createForOrg(@Payload() req: RpcRequest<{ org: string }, CreateProjectOption>): Promise<Project> {
    return this.projects.createForOrg(req.actor, req.params.org, req.body);
  }

  @MessagePattern(ProjectPatterns.get)
  get(@Payload() req: RpcRequest<ProjectParams>): Promise<Project> {
    return this.projects.get(req.actor, req.params.id);
  }

  @MessagePattern(ProjectPatterns.edit)
  edit(@Payload() req: RpcRequest<ProjectParams, EditProjectOption>): Promise<Project> {
    return this.projects.edit(req.actor, req.params.id, req.body);
  }

  @MessagePattern(ProjectPatterns.delete)
  delete(@Payload() req: RpcRequest<ProjectParams>): Promise<void> {
    return this.projects.delete(req.actor, req.params.id);
  }

  @MessagePattern(ProjectPatterns.listColumns)
  listColumns(@Payload() req: RpcRequest<ProjectParams>): Promise<ProjectColumn[]> {
    return this.projects.listColumns(req.actor, req.params.id);
  }

  @MessagePattern(ProjectPatterns.createColumn)
  createColumn(@Payload() req: RpcRequest<ProjectParams, CreateProjectColumnOption>): Promise<ProjectColumn> {
    return this.projects.createColumn(req.actor, req.params.id, req.body);
  }

  @MessagePattern(ProjectPatterns.editColumn)
  editColumn(@Payload() req: RpcRequest<ColumnParams, EditProjectColumnOption>): Promise<ProjectColumn> {
    return this.projects.editColumn(req.actor, req.params.id, req.params.column_id, req.body);
  }

  @MessagePattern(ProjectPatterns.deleteColumn)
  deleteColumn(@Payload() req: RpcRequest<ColumnParams>): Promise<void> {
    return this.projects.deleteColumn(req.actor, req.params.id, req.params.column_id);
  }

  @MessagePattern(ProjectPatterns.listColumnIssues)
  listColumnIssues(@Payload() req: RpcRequest<ColumnParams, undefined, ListQuery>): Promise<Page<Issue>> {
    return this.projects.listColumnIssues(
      req.actor,
      req.params.id,
      req.params.column_id,
      normalizeListOptions(req.query),
    );
  }

  @MessagePattern(ProjectPatterns.moveIssue)
  moveIssue(@Payload() req: RpcRequest<ColumnParams, MoveProjectIssueOption>): Promise<void> {
    return this.projects.moveIssue(req.actor, req.params.id, req.params.column_id, req.body);
  }

  @MessagePattern(ProjectPatterns.removeIssue)
  removeIssue(@Payload() req: RpcRequest<ProjectParams & { issue_id: string }>): Promise<void> {
    return this.projects.removeIssue(req.actor, req.params.id, req.params.issue_id);
  }
}
