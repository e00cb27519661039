import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import type { ListOptions } from '@gitforge/contracts';
import { Database } from '@gitforge/platform';
import { IssueEntity } from '../issues/issue.entity.js';
import { ProjectColumnEntity } from './project-column.entity.js';
import { ProjectIssueEntity } from './project-issue.entity.js';
import { ProjectEntity } from './project.entity.js';

/** Whose projects a listing shows, and in which state (undefined: both). */
export interface ProjectFilter {
  repoId?: number;
  ownerId?: number;
  isClosed?: boolean;
}

@Injectable()
export class ProjectsRepository {
  constructor(private readonly db: Database) {}

  findById(id: number, m?: EntityManager): Promise<ProjectEntity | null> {
    return this.db.findOneBy(ProjectEntity, { id }, m);
  }

  findByIds(ids: number[]): Promise<ProjectEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.manager.find(ProjectEntity, { where: { id: In([...new Set(ids)]) } });
  }

  /** One page of a repository's or an organization's projects, newest first, and the total. */
  list(f: ProjectFilter, options: ListOptions): Promise<[ProjectEntity[], number]> {
    const qb = this.db.manager.createQueryBuilder(ProjectEntity, 'p');
    if (f.repoId !== undefined) qb.where('p.repo_id = :repoId', { repoId: f.repoId });
    else qb.where('p.owner_id = :ownerId AND p.repo_id = 0', { ownerId: f.ownerId });
    if (f.isClosed !== undefined) qb.andWhere('p.is_closed = :isClosed', { isClosed: f.isClosed });
    return qb
      .orderBy('p.created_at', 'DESC')
      .addOrderBy('p.id', 'DESC')
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  insert(m: EntityManager, project: Partial<ProjectEntity>): Promise<ProjectEntity> {
    return m.save(ProjectEntity, m.create(ProjectEntity, project));
  }

  async update(m: EntityManager, id: number, changes: Partial<ProjectEntity>): Promise<void> {
    if (Object.keys(changes).length > 0) await m.update(ProjectEntity, { id }, changes);
  }

  /** The projects with their columns and their issues' places. */
  async delete(m: EntityManager, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await m.delete(ProjectIssueEntity, { projectId: In(ids) });
    await m.delete(ProjectColumnEntity, { projectId: In(ids) });
    await m.delete(ProjectEntity, { id: In(ids) });
  }

  /** Every project of a repository, as {@link delete}. */
  async deleteOfRepo(m: EntityManager, repoId: number): Promise<void> {
    const rows = await m.find(ProjectEntity, { select: { id: true }, where: { repoId } });
    await this.delete(
      m,
      rows.map((r) => r.id),
    );
  }

  /** A project's columns in board order. */
  columns(projectId: number, m?: EntityManager): Promise<ProjectColumnEntity[]> {
    return (m ?? this.db.manager).find(ProjectColumnEntity, {
      where: { projectId },
      order: { sorting: 'ASC', id: 'ASC' },
    });
  }

  findColumn(projectId: number, id: number, m?: EntityManager): Promise<ProjectColumnEntity | null> {
    return this.db.findOneBy(ProjectColumnEntity, { projectId, id }, m);
  }

  insertColumns(
    m: EntityManager,
    columns: Array<Partial<ProjectColumnEntity>>,
  ): Promise<ProjectColumnEntity[]> {
    return m.save(
      ProjectColumnEntity,
      columns.map((c) => m.create(ProjectColumnEntity, c)),
    );
  }

  async updateColumn(m: EntityManager, id: number, changes: Partial<ProjectColumnEntity>): Promise<void> {
    if (Object.keys(changes).length > 0) await m.update(ProjectColumnEntity, { id }, changes);
  }

  /** Makes one column the project's default and every other one not. */
  async setDefaultColumn(m: EntityManager, projectId: number, columnId: number): Promise<void> {
    await m.update(ProjectColumnEntity, { projectId, isDefault: true }, { isDefault: false });
    await m.update(ProjectColumnEntity, { id: columnId }, { isDefault: true });
  }

  /** Deletes a column after moving its issues to `to`. */
  async deleteColumn(m: EntityManager, id: number, to: number): Promise<void> {
    await m.update(ProjectIssueEntity, { columnId: id }, { columnId: to });
    await m.delete(ProjectColumnEntity, { id });
  }

  /** Issues per column of a project among `repoIds` (those the viewer may read), counted now. */
  async columnCounts(projectId: number, repoIds: number[]): Promise<Map<number, number>> {
    if (repoIds.length === 0) return new Map();
    const rows = await this.db.manager
      .createQueryBuilder(ProjectIssueEntity, 'pi')
      .innerJoin(IssueEntity, 'i', 'i.id = pi.issue_id')
      .select('pi.column_id', 'columnId')
      .addSelect('COUNT(*)', 'n')
      .where('pi.project_id = :projectId', { projectId })
      .andWhere('i.repo_id IN (:...repoIds)', { repoIds })
      .groupBy('pi.column_id')
      .getRawMany<{ columnId: number | string; n: number | string }>();
    return new Map(rows.map((r) => [Number(r.columnId), Number(r.n)]));
  }

  findPlacement(projectId: number, issueId: number, m?: EntityManager): Promise<ProjectIssueEntity | null> {
    return this.db.findOneBy(ProjectIssueEntity, { projectId, issueId }, m);
  }

  /** Puts the issue at the end of a column, adding it to the project if it was not on it. */
  async place(m: EntityManager, projectId: number, issueId: number, columnId: number): Promise<void> {
    const sorting = await this.nextSorting(m, columnId);
    // One statement, so two moves of the same issue at once cannot both insert it.
    await m
      .createQueryBuilder()
      .insert()
      .into(ProjectIssueEntity)
      .values({ projectId, issueId, columnId, sorting })
      .orUpdate(['column_id', 'sorting'], ['project_id', 'issue_id'])
      .execute();
  }

  /** Adds the issue to a project in its default column (an issue already on it stays where it is). */
  async placeInDefault(m: EntityManager, projectId: number, issueId: number): Promise<void> {
    if (await m.findOneBy(ProjectIssueEntity, { projectId, issueId })) return;
    const [column] = await m.find(ProjectColumnEntity, {
      where: { projectId },
      order: { isDefault: 'DESC', sorting: 'ASC', id: 'ASC' },
      take: 1,
    });
    if (!column) return;
    const sorting = await this.nextSorting(m, column.id);
    await m.createQueryBuilder().insert().into(ProjectIssueEntity).values({ projectId, issueId, columnId: column.id, sorting }).orIgnore().execute();
  }

  /** The place after the last issue of a column. */
  private async nextSorting(m: EntityManager, columnId: number): Promise<number> {
    const row = await m
      .createQueryBuilder(ProjectIssueEntity, 'pi')
      .select('MAX(pi.sorting)', 'max')
      .where('pi.column_id = :columnId', { columnId })
      .getRawOne<{ max: number | string | null }>();
    return row?.max === null || row?.max === undefined ? 0 : Number(row.max) + 1;
  }

  async unplace(m: EntityManager, projectId: number, issueId: number): Promise<void> {
    await m.delete(ProjectIssueEntity, { projectId, issueId });
  }

  /** Takes a deleted issue off every board. */
  async removeIssues(m: EntityManager, issueIds: number[]): Promise<void> {
    await m.delete(ProjectIssueEntity, { issueId: In(issueIds) });
  }

  /** One page of a column's issues in board order, among `repoIds` (those the viewer may read), and the total. */
  async columnIssues(
    columnId: number,
    repoIds: number[],
    options: ListOptions,
  ): Promise<[IssueEntity[], number]> {
    if (repoIds.length === 0) return [[], 0];
    const qb = this.db.manager
      .createQueryBuilder(IssueEntity, 'i')
      .innerJoin(ProjectIssueEntity, 'pi', 'pi.issue_id = i.id')
      .where('pi.column_id = :columnId', { columnId })
      .andWhere('i.repo_id IN (:...repoIds)', { repoIds });
    const total = await qb.getCount();
    const rows = await qb
      .orderBy('pi.sorting', 'ASC')
      .addOrderBy('pi.id', 'ASC')
      .offset((options.page - 1) * options.limit)
      .limit(options.limit)
      .getMany();
    return [rows, total];
  }

  /** The repositories of a project's (or one column's) issues, to ask once which of them the viewer may read. */
  async boardRepoIds(projectId: number, columnId?: number): Promise<number[]> {
    const qb = this.db.manager
      .createQueryBuilder(IssueEntity, 'i')
      .select('DISTINCT i.repo_id', 'repoId')
      .innerJoin(ProjectIssueEntity, 'pi', 'pi.issue_id = i.id')
      .where('pi.project_id = :projectId', { projectId });
    if (columnId !== undefined) qb.andWhere('pi.column_id = :columnId', { columnId });
    const rows = await qb.getRawMany<{ repoId: number | string }>();
    return rows.map((r) => Number(r.repoId));
  }

  /** The projects of each issue, one query for a page of issues. */
  async projectsOfIssues(issueIds: number[], m?: EntityManager): Promise<Map<number, ProjectEntity[]>> {
    const result = new Map<number, ProjectEntity[]>();
    if (issueIds.length === 0) return result;
    const rows = await (m ?? this.db.manager)
      .createQueryBuilder(ProjectEntity, 'p')
      .innerJoin(ProjectIssueEntity, 'pi', 'pi.project_id = p.id')
      .addSelect('pi.issue_id', 'pi_issue_id')
      .where('pi.issue_id IN (:...issueIds)', { issueIds: [...new Set(issueIds)] })
      .orderBy('p.id', 'ASC')
      .getRawAndEntities<{ p_id: number | string; pi_issue_id: number | string }>();
    // One raw row per (project, issue); the entities come back once per project.
    const byId = new Map(rows.entities.map((p) => [p.id, p]));
    for (const raw of rows.raw) {
      const issueId = Number(raw.pi_issue_id);
      result.set(issueId, [...(result.get(issueId) ?? []), byId.get(Number(raw.p_id))!]);
    }
    return result;
  }
}
