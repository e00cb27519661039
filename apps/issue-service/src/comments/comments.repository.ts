import { Injectable } from '@nestjs/common';
import { In, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import type { ListOptions } from '@gitforge/contracts';
import { Database } from '@gitforge/platform';
import { CommentType, XRefAction } from './comment-type.js';
import { CommentEntity } from './comment.entity.js';

/** The filters of Gitea's FindCommentsOptions that the comment listings use. */
export interface CommentFilter {
  issueId?: number;
  /** Every issue of the repository (joined through the issue table). */
  repoId?: number;
  /** With repoId: only issues (false) or only pulls (true). */
  isPull?: boolean;
  type?: CommentType;
  /** Leaves out rows of these kinds (the timeline leaves out review comments on lines). */
  excludeTypes?: CommentType[];
  updatedAfter?: Date;
  updatedBefore?: Date;
}

/** The columns of an event row naming what it is about. */
export type TimelineRefs = Partial<
  Pick<
    CommentEntity,
    | 'labelId'
    | 'oldMilestoneId'
    | 'milestoneId'
    | 'assigneeId'
    | 'removedAssignee'
    | 'assigneeTeamId'
    | 'reviewId'
    | 'oldTitle'
    | 'newTitle'
    | 'oldRef'
    | 'newRef'
    | 'dependentIssueId'
    | 'commitSha'
    | 'refRepoId'
    | 'refIssueId'
    | 'refCommentId'
    | 'refAction'
    | 'refIsPull'
    | 'timeId'
  >
>;

const wholeSecond = (d: Date): number => Math.floor(d.getTime() / 1000) * 1000;

@Injectable()
export class CommentsRepository {
  constructor(private readonly db: Database) {}

  insert(m: EntityManager, comment: Partial<CommentEntity>): Promise<CommentEntity> {
    return m.save(CommentEntity, m.create(CommentEntity, comment));
  }

  /**
   * Records a change of the issue in its timeline (a close, a reopen, …): the one place every
   * feature writes its history rows, so the timeline shows them as Gitea's comment types.
   */
  addEvent(
    m: EntityManager,
    e: {
      issueId: number;
      posterId: number;
      type: Exclude<CommentType, typeof CommentType.comment>;
      at: Date;
      /** What Gitea keeps in the content of some kinds (a label's "1", a deadline, a lock reason). */
      content?: string;
      /** What the row refers to, as its kind needs (see {@link TimelineRefs}). */
      refs?: TimelineRefs;
    },
  ): Promise<CommentEntity> {
    return this.insert(m, {
      ...e.refs,
      issueId: e.issueId,
      posterId: e.posterId,
      type: e.type,
      content: e.content ?? '',
      createdAt: e.at,
      updatedAt: e.at,
    });
  }

  async update(m: EntityManager, id: number, changes: Partial<CommentEntity>): Promise<void> {
    if (Object.keys(changes).length > 0) await m.update(CommentEntity, { id }, changes);
  }

  async delete(m: EntityManager, id: number): Promise<void> {
    await m.delete(CommentEntity, { id });
  }

  /** The issue's rows, and the dependency and cross-reference rows of other issues naming it (as Gitea's deleteIssue). */
  async deleteForIssues(m: EntityManager, issueIds: number[]): Promise<void> {
    await m.delete(CommentEntity, { issueId: In(issueIds) });
    await m.delete(CommentEntity, { dependentIssueId: In(issueIds) });
    await m.delete(CommentEntity, { refIssueId: In(issueIds) });
  }

  findByIds(ids: number[]): Promise<CommentEntity[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.db.manager.find(CommentEntity, { where: { id: In(ids) } });
  }

  /** The cross references still in force (not neutered) that the issue's title and body (`commentId` 0) or one of its comments wrote. */
  activeCrossReferences(m: EntityManager, refIssueId: number, refCommentId: number): Promise<CommentEntity[]> {
    return m.find(CommentEntity, { where: { refIssueId, refCommentId, refAction: In([XRefAction.none, XRefAction.closes, XRefAction.reopens]) }, order: { id: 'ASC' } });
  }

  /** Marks cross references as no longer said (XRefActionNeutered). */
  async neuter(m: EntityManager, ids: number[]): Promise<void> {
    if (ids.length > 0) await m.update(CommentEntity, { id: In(ids) }, { refAction: XRefAction.neutered });
  }

  /** Whether the issue has a `commit_ref` row of this commit already (Gitea's CreateRefComment adds one once). */
  async hasCommitRef(m: EntityManager, issueId: number, commitSha: string): Promise<boolean> {
    return (await m.count(CommentEntity, { where: { issueId, type: CommentType.commit_ref, commitSha } })) > 0;
  }

  findById(id: number, m?: EntityManager): Promise<CommentEntity | null> {
    return this.db.findOneBy(CommentEntity, { id }, m);
  }

  /**
   * What Gitea counts as the conversation (num_comments): plain comments and reviews. It counts
   * when a comment or a line comment outside a pending review is added, or a comment removed.
   */
  countComments(m: EntityManager, issueId: number): Promise<number> {
    return m.count(CommentEntity, { where: { issueId, type: In([CommentType.comment, CommentType.review]) } });
  }

  /** The users who wrote plain comments on the issue (its participants, with its poster). */
  async commenterIds(issueId: number): Promise<number[]> {
    const rows = await this.db.manager
      .createQueryBuilder(CommentEntity, 'c')
      .select('DISTINCT c.poster_id', 'posterId')
      .where('c.issue_id = :issueId AND c.type = :type', { issueId, type: CommentType.comment })
      .getRawMany<{ posterId: number | string }>();
    return rows.map((r) => Number(r.posterId));
  }

  /** The issue's latest comment proper (Gitea's GetLastComment: type comment only), 0 when it has none. */
  async latestCommentId(issueId: number): Promise<number> {
    const row = await this.db.manager.findOne(CommentEntity, {
      select: { id: true },
      where: { issueId, type: CommentType.comment },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
    return row?.id ?? 0;
  }

  /** Oldest first, as Gitea lists them; one page when options are given, else all. */
  list(f: CommentFilter, options?: ListOptions): Promise<[CommentEntity[], number]> {
    const qb = this.filtered(f).orderBy('c.created_at', 'ASC').addOrderBy('c.id', 'ASC');
    if (options) qb.skip((options.page - 1) * options.limit).take(options.limit);
    return qb.getManyAndCount();
  }

  private filtered(f: CommentFilter): SelectQueryBuilder<CommentEntity> {
    const qb = this.db.manager.createQueryBuilder(CommentEntity, 'c');
    qb.where('1 = 1');
    if (f.issueId !== undefined) qb.andWhere('c.issue_id = :issueId', { issueId: f.issueId });
    if (f.repoId !== undefined) {
      const pull = f.isPull === undefined ? '' : ' AND i.is_pull = :isPull';
      qb.andWhere(`c.issue_id IN (SELECT i.id FROM issue i WHERE i.repo_id = :repoId${pull})`, {
        repoId: f.repoId,
        isPull: f.isPull,
      });
    }
    if (f.type !== undefined) qb.andWhere('c.type = :type', { type: f.type });
    if (f.excludeTypes?.length) qb.andWhere('c.type NOT IN (:...excluded)', { excluded: f.excludeTypes });
    // Gitea compares whole seconds (updated_unix against the time's Unix()): a comment made during
    // the second named by `before` is still before it.
    if (f.updatedAfter) qb.andWhere('c.updated_at >= :after', { after: wholeSecond(f.updatedAfter) });
    if (f.updatedBefore)
      qb.andWhere('c.updated_at < :before', { before: wholeSecond(f.updatedBefore) + 1000 });
    return qb;
  }
}
