import { Injectable } from '@nestjs/common';
import {
  forbidden,
  notFound,
  pageOf,
  unprocessable,
  type Actor,
  type CreateProjectColumnOption,
  type CreateProjectOption,
  type EditProjectColumnOption,
  type EditProjectOption,
  type Issue,
  type ListOptions,
  type MoveProjectIssueOption,
  type OwnerAccess,
  type Page,
  type Project,
  type ProjectColumn,
  type RepoAccess,
  idFrom,
} from '@gitforge/contracts';
import { Database, PlatformConfig } from '@gitforge/platform';
import { OrgGate } from '../access/org-gate.js';
import { canRead, requireActor, requireNotArchived, RepoGate } from '../access/repo-gate.js';
import { IssueLoader } from '../issues/issue-loader.js';
import { IssuesRepository } from '../issues/issues.repository.js';
import type { ProjectColumnEntity } from './project-column.entity.js';
import { orgProjectRights, repoProjectRights, type ProjectRights } from './project-access.js';
import type { ProjectEntity } from './project.entity.js';
import { projectHome, toProject, toProjectColumn } from './project.mapper.js';
import { ProjectsRepository, type ProjectFilter } from './projects.repository.js';

/** Gitea's maxProjectColumns. */
const MAX_COLUMNS = 20;

/** The columns a new project starts with (Gitea's createDefaultColumnsForProject and setting.Project). */
const TEMPLATE_COLUMNS: Record<string, string[]> = {
  basic_kanban: ['To Do', 'In Progress', 'Done'],
  bug_triage: ['Needs Triage', 'High Priority', 'Low Priority', 'Closed'],
};

/** Whose projects a request is about: a repository or an organization, with the actor's rights. */
interface ProjectScope {
  repo: RepoAccess | null;
  owner: OwnerAccess | null;
  rights: ProjectRights;
  /** Base of the projects' web pages. */
  home: string;
}

interface ProjectContext extends ProjectScope {
  project: ProjectEntity;
}

export interface ProjectListQuery {
  state?: string;
}

function stateFilter(state: string | undefined): boolean | undefined {
  if (state === 'closed') return true;
  if (state === 'all') return undefined;
  return false;
}

/** A positive id from a path; anything else names nothing. */
function parseId(raw: string): number {
  const n = idFrom(raw);
  if (!n) throw notFound();
  return n;
}

@Injectable()
export class ProjectsService {
  constructor(
    private readonly db: Database,
    private readonly gate: RepoGate,
    private readonly orgs: OrgGate,
    private readonly projects: ProjectsRepository,
    private readonly issues: IssuesRepository,
    private readonly loader: IssueLoader,
    private readonly config: PlatformConfig,
  ) {}

  async listForRepo(
    actor: Actor | null,
    owner: string,
    repo: string,
    query: ProjectListQuery,
    options: ListOptions,
  ): Promise<Page<Project>> {
    const scope = await this.repoScope(actor, owner, repo);
    return this.list(scope, { repoId: scope.repo!.id, isClosed: stateFilter(query.state) }, options);
  }

  async listForOrg(
    actor: Actor | null,
    org: string,
    query: ProjectListQuery,
    options: ListOptions,
  ): Promise<Page<Project>> {
    const scope = await this.orgScope(actor, { owner: org });
    return this.list(scope, { ownerId: scope.owner!.owner.id, isClosed: stateFilter(query.state) }, options);
  }

  async createForRepo(
    actor: Actor | null,
    owner: string,
    repo: string,
    body: CreateProjectOption,
  ): Promise<Project> {
    const scope = await this.repoScope(actor, owner, repo);
    return this.create(actor, scope, { repoId: scope.repo!.id, ownerId: 0 }, body);
  }

  async createForOrg(actor: Actor | null, org: string, body: CreateProjectOption): Promise<Project> {
    const scope = await this.orgScope(actor, { owner: org });
    return this.create(actor, scope, { repoId: 0, ownerId: scope.owner!.owner.id }, body);
  }

  async get(actor: Actor | null, id: string): Promise<Project> {
    const ctx = await this.projectFor(actor, id);
    return toProject(ctx.project, this.config.rootUrl, ctx.home);
  }

  /** `PATCH /projects/{id}`: title, description, card type, and `state` to close or reopen it. */
  async edit(actor: Actor | null, id: string, body: EditProjectOption): Promise<Project> {
    const ctx = await this.projectForWrite(actor, id);
    const p = ctx.project;
    const changes: Partial<ProjectEntity> = {};
    if (body.title !== undefined && body.title !== p.title) changes.title = body.title;
    if (body.description !== undefined && body.description !== p.description)
      changes.description = body.description;
    if (body.card_type !== undefined && body.card_type !== p.cardType) changes.cardType = body.card_type;
    if (body.state !== undefined && (body.state === 'closed') !== p.isClosed) {
      changes.isClosed = body.state === 'closed';
      changes.closedAt = changes.isClosed ? new Date() : null;
    }
    if (Object.keys(changes).length > 0) {
      await this.db.transaction((m) => this.projects.update(m, p.id, { ...changes, updatedAt: new Date() }));
    }
    return toProject((await this.projects.findById(p.id))!, this.config.rootUrl, ctx.home);
  }

  async delete(actor: Actor | null, id: string): Promise<void> {
    const ctx = await this.projectForWrite(actor, id);
    await this.db.transaction((m) => this.projects.delete(m, [ctx.project.id]));
  }

  async listColumns(actor: Actor | null, id: string): Promise<ProjectColumn[]> {
    const ctx = await this.projectFor(actor, id);
    const [columns, counts] = await Promise.all([
      this.projects.columns(ctx.project.id),
      this.visibleCounts(actor, ctx),
    ]);
    return columns.map((c) => toProjectColumn(c, counts.get(c.id) ?? 0));
  }

  /** `POST /projects/{id}/columns`: at most Gitea's 20; after the last one unless `sorting` says where. */
  async createColumn(
    actor: Actor | null,
    id: string,
    body: CreateProjectColumnOption,
  ): Promise<ProjectColumn> {
    const { actor: a, ...ctx } = await this.projectForWrite(actor, id);
    // Transactions answer plain values (a retried request gets its first answer back as JSON).
    const columnId = await this.db.transaction(async (m) => {
      const existing = await this.projects.columns(ctx.project.id, m);
      if (existing.length >= MAX_COLUMNS) throw unprocessable('maximum number of columns reached');
      const sorting =
        body.sorting ?? (existing.length > 0 ? Math.max(...existing.map((c) => c.sorting)) + 1 : 0);
      const now = new Date();
      const [created] = await this.projects.insertColumns(m, [
        {
          projectId: ctx.project.id,
          title: body.title,
          color: body.color ?? '',
          sorting,
          isDefault: false,
          creatorId: a.id,
          createdAt: now,
          updatedAt: now,
        },
      ]);
      await this.projects.update(m, ctx.project.id, { updatedAt: now });
      return created!.id;
    });
    return toProjectColumn((await this.projects.findColumn(ctx.project.id, columnId))!, 0);
  }

  /** `PATCH /projects/{id}/columns/{column_id}`; `default: true` makes it the default column. */
  async editColumn(
    actor: Actor | null,
    id: string,
    columnId: string,
    body: EditProjectColumnOption,
  ): Promise<ProjectColumn> {
    const ctx = await this.projectForWrite(actor, id);
    const column = await this.columnOf(ctx, columnId);
    const changes: Partial<ProjectColumnEntity> = {};
    if (body.title !== undefined) changes.title = body.title;
    if (body.color !== undefined) changes.color = body.color;
    if (body.sorting !== undefined) changes.sorting = body.sorting;
    await this.db.transaction(async (m) => {
      await this.projects.updateColumn(m, column.id, { ...changes, updatedAt: new Date() });
      if (body.default === true && !column.isDefault)
        await this.projects.setDefaultColumn(m, ctx.project.id, column.id);
    });
    const [updated, counts] = await Promise.all([
      this.projects.findColumn(ctx.project.id, column.id),
      this.visibleCounts(actor, ctx),
    ]);
    return toProjectColumn(updated!, counts.get(column.id) ?? 0);
  }

  /** `DELETE /projects/{id}/columns/{column_id}`: not the default column; its issues move there. */
  async deleteColumn(actor: Actor | null, id: string, columnId: string): Promise<void> {
    const ctx = await this.projectForWrite(actor, id);
    const column = await this.columnOf(ctx, columnId);
    if (column.isDefault) throw unprocessable('the default column cannot be deleted');
    await this.db.transaction(async (m) => {
      const target = (await this.projects.columns(ctx.project.id, m)).find((c) => c.isDefault);
      await this.projects.deleteColumn(m, column.id, target!.id);
    });
  }

  /**
   * `GET /projects/{id}/columns/{column_id}/issues` in board order: an organization project's
   * board shows only the issues of repositories the actor may read.
   */
  async listColumnIssues(
    actor: Actor | null,
    id: string,
    columnId: string,
    options: ListOptions,
  ): Promise<Page<Issue>> {
    const ctx = await this.projectFor(actor, id);
    const column = await this.columnOf(ctx, columnId);
    const readable = await this.readableRepos(actor, ctx, column.id);
    const [rows, total] = await this.projects.columnIssues(
      column.id,
      readable.map((r) => r.id),
      options,
    );
    return pageOf(await this.loader.load(rows, new Map(readable.map((r) => [r.id, r])), { viewer: actor }), total, options);
  }

  /**
   * `POST /projects/{id}/columns/{column_id}/issues`: adds the issue to the project in this
   * column, or moves it there. A repository project takes its repository's issues only, an
   * organization project those of the organization's repositories (422 otherwise).
   */
  async moveIssue(
    actor: Actor | null,
    id: string,
    columnId: string,
    body: MoveProjectIssueOption,
  ): Promise<void> {
    const ctx = await this.projectForWrite(actor, id);
    const column = await this.columnOf(ctx, columnId);
    const issue = await this.issues.findById(body.issue_id);
    if (!issue) throw notFound('issue does not exist');
    if (ctx.repo) {
      if (issue.repoId !== ctx.repo.id)
        throw unprocessable("the issue does not belong to the project's repository");
    } else {
      const [repo] = await this.gate.many(actor, [issue.repoId]);
      if (!repo || !canRead(repo, issue.isPull ? 'repo.pulls' : 'repo.issues'))
        throw notFound('issue does not exist');
      if (repo.ownerId !== ctx.project.ownerId)
        throw unprocessable("the issue does not belong to a repository of the project's owner");
    }
    await this.db.transaction((m) => this.projects.place(m, ctx.project.id, issue.id, column.id));
  }

  /** `DELETE /projects/{id}/issues/{issue_id}`: takes the issue off the board. */
  async removeIssue(actor: Actor | null, id: string, issueId: string): Promise<void> {
    const ctx = await this.projectForWrite(actor, id);
    const placement = await this.projects.findPlacement(ctx.project.id, parseId(issueId));
    if (!placement) throw notFound('the issue is not on the project');
    await this.db.transaction((m) => this.projects.unplace(m, ctx.project.id, placement.issueId));
  }

  private async list(
    scope: ProjectScope,
    filter: ProjectFilter,
    options: ListOptions,
  ): Promise<Page<Project>> {
    const [rows, total] = await this.projects.list(filter, options);
    return pageOf(
      rows.map((p) => toProject(p, this.config.rootUrl, scope.home)),
      total,
      options,
    );
  }

  /** A new project with its template's columns, or Gitea's default "Uncategorized" one. */
  private async create(
    actor: Actor | null,
    scope: ProjectScope,
    where: { repoId: number; ownerId: number },
    body: CreateProjectOption,
  ): Promise<Project> {
    const a = this.requireWrite(actor, scope);
    const templateType = body.template_type ?? 'none';
    const now = new Date();
    const projectId = await this.db.transaction(async (m) => {
      const row = await this.projects.insert(m, {
        ...where,
        title: body.title,
        description: body.description ?? '',
        creatorId: a.id,
        isClosed: false,
        templateType,
        cardType: body.card_type ?? 'text_only',
        createdAt: now,
        updatedAt: now,
        closedAt: null,
      });
      const template = TEMPLATE_COLUMNS[templateType];
      const titles = template ? ['Backlog', ...template] : ['Uncategorized'];
      await this.projects.insertColumns(
        m,
        titles.map((title, i) => ({
          projectId: row.id,
          title,
          isDefault: i === 0,
          sorting: i,
          color: '',
          creatorId: a.id,
          createdAt: now,
          updatedAt: now,
        })),
      );
      return row.id;
    });
    return toProject((await this.projects.findById(projectId))!, this.config.rootUrl, scope.home);
  }

  /** A repository whose projects unit the actor can read (404 otherwise, as Gitea's unit check). */
  private async repoScope(actor: Actor | null, owner: string, repo: string): Promise<ProjectScope> {
    const access = await this.gate.assign(actor, owner, repo);
    return this.scopeOfRepo(access);
  }

  private scopeOfRepo(repo: RepoAccess): ProjectScope {
    const rights = repoProjectRights(repo);
    if (!rights.read) throw notFound();
    return {
      repo,
      owner: null,
      rights,
      home: projectHome(this.config.rootUrl, { repoHtmlUrl: repo.repository.html_url }),
    };
  }

  /** An organization the actor can see; users have no projects here. */
  private async orgScope(
    actor: Actor | null,
    query: { owner: string } | { ownerId: number },
  ): Promise<ProjectScope> {
    const owner = await this.orgs.access(actor, query);
    const rights = orgProjectRights(actor, owner);
    if (!rights.read) throw notFound();
    return {
      repo: null,
      owner,
      rights,
      home: projectHome(this.config.rootUrl, { ownerLogin: owner.owner.login }),
    };
  }

  /** The project if the actor may read its repository's or organization's projects; 404 otherwise. */
  private async projectFor(actor: Actor | null, rawId: string): Promise<ProjectContext> {
    const project = await this.projects.findById(parseId(rawId));
    if (!project) throw notFound();
    if (project.repoId > 0) {
      const [repo] = await this.gate.many(actor, [project.repoId]);
      if (!repo) throw notFound();
      return { ...this.scopeOfRepo(repo), project };
    }
    return { ...(await this.orgScope(actor, { ownerId: project.ownerId })), project };
  }

  private async projectForWrite(
    actor: Actor | null,
    rawId: string,
  ): Promise<ProjectContext & { actor: Actor }> {
    const ctx = await this.projectFor(actor, rawId);
    return { ...ctx, actor: this.requireWrite(actor, ctx) };
  }

  /** Signed in, not in an archived repository, and allowed to change projects (401, 423, 403). */
  private requireWrite(actor: Actor | null, scope: ProjectScope): Actor {
    const a = requireActor(actor);
    if (scope.repo) requireNotArchived(scope.repo);
    if (!scope.rights.write) throw forbidden('user should have permission to write projects');
    return a;
  }

  /**
   * The repositories whose issues on the board the actor may read (one call): a repository
   * project's own, an organization project's among those of its issues.
   */
  private async readableRepos(
    actor: Actor | null,
    ctx: ProjectContext,
    columnId?: number,
  ): Promise<RepoAccess[]> {
    const repos = ctx.repo
      ? [ctx.repo]
      : await this.gate.many(actor, await this.projects.boardRepoIds(ctx.project.id, columnId));
    return repos.filter((r) => canRead(r, 'repo.issues') || canRead(r, 'repo.pulls'));
  }

  /** Issues per column as the actor sees the board: issues of repositories it cannot read are not counted. */
  private async visibleCounts(actor: Actor | null, ctx: ProjectContext): Promise<Map<number, number>> {
    const repos = await this.readableRepos(actor, ctx);
    return this.projects.columnCounts(
      ctx.project.id,
      repos.map((r) => r.id),
    );
  }

  private async columnOf(ctx: ProjectContext, rawId: string): Promise<ProjectColumnEntity> {
    const column = await this.projects.findColumn(ctx.project.id, parseId(rawId));
    if (!column) throw notFound();
    return column;
  }
}
