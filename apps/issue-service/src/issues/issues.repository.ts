import { Injectable } from '@nestjs/common';
import { Brackets, In, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { containsPattern, Database } from '@gitforge/platform';
import type { ListOptions, RepoIssueCounters } from '@gitforge/contracts';
import { CommentType } from '../comments/comment-type.js';
import { CommentEntity } from '../comments/comment.entity.js';
import { IssueLabelEntity } from '../labels/issue-label.entity.js';
import { ProjectIssueEntity } from '../projects/project-issue.entity.js';
import { IssueAssigneeEntity } from './issue-assignee.entity.js';
import { IssueCounterEntity } from './issue-counter.entity.js';
import { IssueMentionEntity } from './issue-mention.entity.js';
import { IssueEntity } from './issue.entity.js';

/** The filters of Gitea's IssuesOptions that the issue listings use. */
export interface IssueFilter {
  /** Repositories whose issues (and pulls, unless `pullRepoIds` is given) are listed. */
  repoIds: number[];
  /** When set, pulls come from these repositories and only issues from `repoIds`. */
  pullRepoIds?: number[];
  /** undefined: both. */
  isClosed?: boolean;
  isPull?: boolean;
  /**
   * Issues carrying labels among these: any of them (Gitea's search by label names), or, with
   * `labelNamesRequired`, one of each of that many distinct names (its repository list).
   */
  labelIds?: number[];
  labelNamesRequired?: number;
  milestoneIds?: number[];
  keyword?: string;
  posterId?: number;
  assigneeId?: number;
  mentionedId?: number;
  updatedAfter?: Date;
  updatedBefore?: Date;
  /** Pull requests into this base branch only. */
  baseBranch?: string;
}

/** The default order: newest first. */
const NEWEST: Array<[string, 'ASC' | 'DESC']> = [['i.created_at', 'DESC'], ['i.id', 'DESC']];

/** Gitea's sort names of issue and pull lists; anything else is newest first. */
const SORTS: Record<string, Array<[string, 'ASC' | 'DESC']>> = {
  oldest: [['i.created_at', 'ASC'], ['i.id', 'ASC']],
  recentupdate: [['i.updated_at', 'DESC'], ['i.id', 'DESC']],
  leastupdate: [['i.updated_at', 'ASC'], ['i.id', 'ASC']],
  mostcomment: [['i.num_comments', 'DESC'], ['i.id', 'DESC']],
  leastcomment: [['i.num_comments', 'ASC'], ['i.id', 'ASC']],
  recentclose: [['i.closed_at', 'DESC'], ['i.id', 'DESC']],
  priority: [['i.pin_order', 'DESC'], ['i.created_at', 'DESC'], ['i.id', 'DESC']],
};


@Injectable()
export class IssuesRepository {
  constructor(private readonly db: Database) {}

  /**
   * The next number of a repository (issues and pulls share it). The counter row is updated
   * first, so concurrent creations in one repository take turns and never share a number.
   */
  async nextIndex(m: EntityManager, repoId: number): Promise<number> {
    const p = (n: number): string => this.db.sql.param(n);
    const [row] = (await m.query(
      `INSERT INTO issue_counter (repo_id, last_index) VALUES (${p(1)}, 1)
       ON CONFLICT (repo_id) DO UPDATE SET last_index = issue_counter.last_index + 1
       RETURNING last_index AS "lastIndex"`,
      [repoId],
    )) as Array<{ lastIndex: number | string }>;
    return Number(row!.lastIndex);
  }

  /**
   * Counts the repository's issues and pulls and stores the counts with a new version. Runs
   * in the transaction that changed them; the counter row's lock orders concurrent ones.
   */
  async recount(m: EntityManager, repoId: number): Promise<RepoIssueCounters> {
    const p = (n: number): string => this.db.sql.param(n);
    // The row is locked (or created) and its version moved on first, and counted in the next
    // statement: on PostgreSQL a statement counts what was committed when it began, so a count
    // taken by the statement that waited for another transaction's lock would miss its change.
    await m.query(
      `INSERT INTO issue_counter (repo_id, version) VALUES (${p(1)}, 1)
       ON CONFLICT (repo_id) DO UPDATE SET version = issue_counter.version + 1`,
      [repoId],
    );
    const raw = (await m.query(
      `UPDATE issue_counter SET (num_issues, num_closed_issues, num_pulls, num_closed_pulls) = (
         SELECT COALESCE(SUM(CASE WHEN i.is_pull THEN 0 ELSE 1 END), 0),
                COALESCE(SUM(CASE WHEN i.is_pull OR NOT i.is_closed THEN 0 ELSE 1 END), 0),
                COALESCE(SUM(CASE WHEN i.is_pull THEN 1 ELSE 0 END), 0),
                COALESCE(SUM(CASE WHEN i.is_pull AND i.is_closed THEN 1 ELSE 0 END), 0)
         FROM issue i WHERE i.repo_id = ${p(1)})
       WHERE repo_id = ${p(2)}
       RETURNING num_issues AS "numIssues", num_closed_issues AS "numClosedIssues", num_pulls AS "numPulls",
                 num_closed_pulls AS "numClosedPulls", version`,
      [repoId, repoId],
    )) as unknown[];
    // PostgreSQL answers an UPDATE with [rows, count], SQLite with the rows.
    const rows = (Array.isArray(raw[0]) ? raw[0] : raw) as Array<Record<keyof Omit<RepoIssueCounters, 'repoId'>, number | string>>;
    const row = rows[0]!;
    return {
      repoId,
      numIssues: Number(row.numIssues),
      numClosedIssues: Number(row.numClosedIssues),
      numPulls: Number(row.numPulls),
      numClosedPulls: Number(row.numClosedPulls),
      version: Number(row.version),
    };
  }

  insert(m: EntityManager, issue: Partial<IssueEntity>): Promise<IssueEntity> {
    return m.save(IssueEntity, m.create(IssueEntity, issue));
  }

  /** The content changed (an attachment came): one more version, counted in the row itself. */
  async bumpContentVersion(m: EntityManager, id: number, at: Date): Promise<void> {
    await m
      .createQueryBuilder()
      .update(IssueEntity)
      .set({ contentVersion: () => 'content_version + 1', updatedAt: at })
      .where('id = :id', { id })
      .execute();
  }

  async update(m: EntityManager, id: number, changes: Partial<IssueEntity>): Promise<void> {
    if (Object.keys(changes).length > 0) await m.update(IssueEntity, { id }, changes);
  }

  /**
   * Takes the issue's row lock until the transaction ends, so changes that recount the issue's
   * own rows (its comments) take turns instead of each counting without the other's row.
   * Answers the row as it is under the lock, or null when the issue is gone (deleted meanwhile).
   */
  lock(m: EntityManager, id: number): Promise<IssueEntity | null> {
    return m.findOne(IssueEntity, { where: { id }, ...this.db.sql.rowLock('pessimistic_write') });
  }

  findByIndex(repoId: number, idx: number, m?: EntityManager): Promise<IssueEntity | null> {
    return this.db.findOneBy(IssueEntity, { repoId, idx }, m);
  }

  findById(id: number, m?: EntityManager): Promise<IssueEntity | null> {
    return this.db.findOneBy(IssueEntity, { id }, m);
  }

  findByIds(ids: number[], m?: EntityManager): Promise<IssueEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return (m ?? this.db.manager).find(IssueEntity, { where: { id: In(ids) } });
  }

  /** Up to `limit` ids of a repository's issues and pulls. */
  async idsOfRepo(repoId: number, limit: number): Promise<number[]> {
    const rows = await this.db.manager.find(IssueEntity, {
      select: { id: true },
      where: { repoId },
      order: { id: 'ASC' },
      take: limit,
    });
    return rows.map((r) => r.id);
  }

  /** A deleted repository's numbering and counts. */
  async deleteCounter(m: EntityManager, repoId: number): Promise<void> {
    await m.delete(IssueCounterEntity, { repoId });
  }

  /** Deletes the issues and the rows that only exist for them. */
  async delete(m: EntityManager, ids: number[]): Promise<void> {
    await m.delete(IssueEntity, { id: In(ids) });
    await m.delete(IssueAssigneeEntity, { issueId: In(ids) });
    await m.delete(IssueLabelEntity, { issueId: In(ids) });
    await m.delete(IssueMentionEntity, { issueId: In(ids) });
  }

  /** One page of issues, newest first (those of `priorityRepoId` first), and the total. */
  list(f: IssueFilter, options: ListOptions, priorityRepoId?: number, sort?: string): Promise<[IssueEntity[], number]> {
    const qb = this.filtered(f);
    let order = (sort ? SORTS[sort] : undefined) ?? NEWEST;
    if (!sort && priorityRepoId) {
      qb.addSelect('CASE WHEN i.repo_id = :priority THEN 1 ELSE 2 END', 'priority_rank').setParameter('priority', priorityRepoId);
      order = [['priority_rank', 'ASC'], ...NEWEST];
    }
    order.forEach(([column, direction], i) => (i === 0 ? qb.orderBy(column, direction) : qb.addOrderBy(column, direction)));
    return qb
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  private filtered(f: IssueFilter): SelectQueryBuilder<IssueEntity> {
    const qb = this.db.manager.createQueryBuilder(IssueEntity, 'i');
    if (f.pullRepoIds) {
      const issues = f.repoIds.length > 0 ? '(i.is_pull = :no AND i.repo_id IN (:...repoIds))' : '1 = 0';
      const pulls = f.pullRepoIds.length > 0 ? '(i.is_pull = :yes AND i.repo_id IN (:...pullRepoIds))' : '1 = 0';
      qb.where(`(${issues} OR ${pulls})`, { no: false, yes: true, repoIds: f.repoIds, pullRepoIds: f.pullRepoIds });
    } else if (f.repoIds.length === 0) {
      return qb.where('1 = 0');
    } else {
      qb.where('i.repo_id IN (:...repoIds)', { repoIds: f.repoIds });
    }
    if (f.isClosed !== undefined) qb.andWhere('i.is_closed = :isClosed', { isClosed: f.isClosed });
    if (f.isPull !== undefined) qb.andWhere('i.is_pull = :isPull', { isPull: f.isPull });
    if (f.labelIds && f.labelIds.length > 0 && f.labelNamesRequired) {
      qb.andWhere(
        '(SELECT COUNT(DISTINCT l.name) FROM issue_label il INNER JOIN label l ON l.id = il.label_id WHERE il.issue_id = i.id AND il.label_id IN (:...labelIds)) = :labelNamesRequired',
        { labelIds: f.labelIds, labelNamesRequired: f.labelNamesRequired },
      );
    } else if (f.labelIds && f.labelIds.length > 0) {
      qb.andWhere('i.id IN (SELECT il.issue_id FROM issue_label il WHERE il.label_id IN (:...labelIds))', { labelIds: f.labelIds });
    }
    if (f.baseBranch !== undefined) {
      qb.andWhere('i.id IN (SELECT pr.issue_id FROM pull_request pr WHERE pr.base_branch = :baseBranch)', { baseBranch: f.baseBranch });
    }
    if (f.milestoneIds && f.milestoneIds.length > 0) qb.andWhere('i.milestone_id IN (:...milestoneIds)', { milestoneIds: f.milestoneIds });
    if (f.posterId !== undefined) qb.andWhere('i.poster_id = :posterId', { posterId: f.posterId });
    if (f.assigneeId !== undefined) {
      qb.andWhere('i.id IN (SELECT a.issue_id FROM issue_assignee a WHERE a.assignee_id = :assigneeId)', { assigneeId: f.assigneeId });
    }
    if (f.mentionedId !== undefined) {
      qb.andWhere('i.id IN (SELECT mn.issue_id FROM issue_mention mn WHERE mn.user_id = :mentionedId)', { mentionedId: f.mentionedId });
    }
    // Gitea compares whole seconds (its unix timestamps): an issue updated within `before`'s second is listed.
    if (f.updatedAfter) qb.andWhere('i.updated_at >= :after', { after: Math.floor(f.updatedAfter.getTime() / 1000) * 1000 });
    if (f.updatedBefore) qb.andWhere('i.updated_at < :before', { before: (Math.floor(f.updatedBefore.getTime() / 1000) + 1) * 1000 });
    if (f.keyword) {
      const keyword = f.keyword;
      qb.andWhere(
        new Brackets((w) => {
          // Gitea's issue indexer: the title, the body or one of its comments, or the number.
          w.where("LOWER(i.title) LIKE :kw ESCAPE '\\'", { kw: containsPattern(keyword) })
            .orWhere("LOWER(i.body) LIKE :kw ESCAPE '\\'", { kw: containsPattern(keyword) })
            .orWhere(`EXISTS (SELECT 1 FROM comment kc WHERE kc.issue_id = i.id AND kc.type = ${CommentType.comment} AND LOWER(kc.content) LIKE :kw ESCAPE '\\')`, { kw: containsPattern(keyword) });
          if (/^#?\d{1,9}$/.test(keyword)) w.orWhere('i.idx = :kwIndex', { kwIndex: Number(keyword.replace('#', '')) });
        }),
      );
    }
    return qb;
  }

  /** Assignee ids per issue, in assignment order. */
  async assigneesOf(issueIds: number[], m?: EntityManager): Promise<Map<number, number[]>> {
    const result = new Map<number, number[]>();
    if (issueIds.length === 0) return result;
    const rows = await (m ?? this.db.manager).find(IssueAssigneeEntity, { where: { issueId: In(issueIds) }, order: { id: 'ASC' } });
    for (const r of rows) result.set(r.issueId, [...(result.get(r.issueId) ?? []), r.assigneeId]);
    return result;
  }

  async addAssignee(m: EntityManager, issueId: number, assigneeId: number): Promise<void> {
    await m.createQueryBuilder().insert().into(IssueAssigneeEntity).values({ issueId, assigneeId }).orIgnore().execute();
  }

  async removeAssignee(m: EntityManager, issueId: number, assigneeId: number): Promise<void> {
    await m.delete(IssueAssigneeEntity, { issueId, assigneeId });
  }

  /** Records mentions (existing ones stay). */
  async addMentions(m: EntityManager, issueId: number, userIds: number[]): Promise<void> {
    if (userIds.length === 0) return;
    await m
      .createQueryBuilder()
      .insert()
      .into(IssueMentionEntity)
      .values(userIds.map((userId) => ({ issueId, userId })))
      .orIgnore()
      .execute();
  }

  /** The highest pin order of a repository's pinned issues (or pulls). */
  async maxPinOrder(m: EntityManager, repoId: number, isPull: boolean): Promise<number> {
    const row = await m
      .createQueryBuilder(IssueEntity, 'i')
      .select('MAX(i.pin_order)', 'max')
      .where('i.repo_id = :repoId AND i.is_pull = :isPull', { repoId, isPull })
      .getRawOne<{ max: number | string | null }>();
    return Number(row?.max ?? 0);
  }

  /** Pinned issues of one kind, in pin order. */
  pinned(m: EntityManager, repoId: number, isPull: boolean): Promise<IssueEntity[]> {
    return m
      .createQueryBuilder(IssueEntity, 'i')
      .where('i.repo_id = :repoId AND i.is_pull = :isPull AND i.pin_order > 0', { repoId, isPull })
      .orderBy('i.pin_order', 'ASC')
      .getMany();
  }

  /**
   * A repository that left organization `oldOrgId`: labels of any organization but the new owner
   * come off its issues (with the timeline rows that added them), and its issues leave the old
   * organization's projects. Answers how many label links and project places went.
   */
  async detachFromFormerOrg(m: EntityManager, repoId: number, oldOrgId: number, newOwnerId: number): Promise<{ labels: number; projects: number }> {
    // Subqueries, not id lists: a repository may have more issues than a statement takes parameters.
    const ofRepo = 'issue_id IN (SELECT i.id FROM issue i WHERE i.repo_id = :repoId)';
    const foreignLabels =
      'label_id IN (SELECT l.id FROM label l WHERE (l.repo_id = 0 AND l.org_id <> :newOwnerId) OR (l.org_id = 0 AND l.repo_id <> :repoId))';
    const params = { repoId, newOwnerId, oldOrgId, label: CommentType.label };
    const labels = await m.createQueryBuilder().delete().from(IssueLabelEntity).where(`${ofRepo} AND ${foreignLabels}`, params).execute();
    await m.createQueryBuilder().delete().from(CommentEntity).where(`${ofRepo} AND type = :label AND ${foreignLabels}`, params).execute();
    const projects = await m
      .createQueryBuilder()
      .delete()
      .from(ProjectIssueEntity)
      .where(`${ofRepo} AND project_id IN (SELECT p.id FROM project p WHERE p.owner_id = :oldOrgId AND p.repo_id = 0)`, params)
      .execute();
    return { labels: labels.affected ?? 0, projects: projects.affected ?? 0 };
  }
}
