import { Injectable } from '@nestjs/common';
import { Brackets, In, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { Database } from '@gitforge/platform';
import type { ListOptions } from '@gitforge/contracts';
import { StopwatchEntity } from './stopwatch.entity.js';
import { TrackedTimeEntity } from './tracked-time.entity.js';

/** The repositories whose issues (and whose pulls) a caller may still read. */
export interface ReadableRepos {
  issues: number[];
  pulls: number[];
}

/** Gitea's FindTrackedTimesOptions; deleted times never match. */
export interface TimeFilter {
  issueId?: number;
  userId?: number;
  repoId?: number;
  readable?: ReadableRepos;
  createdAfter?: Date;
  createdBefore?: Date;
}

@Injectable()
export class TimesRepository {
  constructor(private readonly db: Database) {}

  /** One page of times in the order they were logged, and the total; no page: all of them (the deprecated per-user listing). */
  listTimes(f: TimeFilter, page: ListOptions | null): Promise<[TrackedTimeEntity[], number]> {
    const qb = this.filteredTimes(f).orderBy('t.id', 'ASC');
    if (page) qb.skip((page.page - 1) * page.limit).take(page.limit);
    return qb.getManyAndCount();
  }

  /** The repositories a user has logged (undeleted) time in. */
  async repoIdsOfUserTimes(userId: number): Promise<number[]> {
    const rows = await this.db.manager
      .createQueryBuilder(TrackedTimeEntity, 't')
      .innerJoin('issue', 'i', 'i.id = t.issue_id')
      .select('DISTINCT i.repo_id', 'repoId')
      .where('t.user_id = :userId AND t.deleted = :deleted', { userId, deleted: false })
      .getRawMany<{ repoId: number | string }>();
    return rows.map((r) => Number(r.repoId));
  }

  findTime(id: number, m?: EntityManager): Promise<TrackedTimeEntity | null> {
    return this.db.findOneBy(TrackedTimeEntity, { id }, m);
  }

  /** Times of one issue by id, deleted ones too (the timeline rows that made them still show them). */
  findTimesOfIssue(issueId: number, ids: number[]): Promise<TrackedTimeEntity[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.db.manager.findBy(TrackedTimeEntity, { issueId, id: In(ids) });
  }

  insertTime(m: EntityManager, row: Pick<TrackedTimeEntity, 'issueId' | 'userId' | 'time' | 'createdAt'>): Promise<TrackedTimeEntity> {
    return m.save(TrackedTimeEntity, m.create(TrackedTimeEntity, { ...row, deleted: false }));
  }

  /** Flags a time deleted; false when it was already (a concurrent delete went first). */
  async markDeleted(m: EntityManager, id: number): Promise<boolean> {
    return ((await m.update(TrackedTimeEntity, { id, deleted: false }, { deleted: true })).affected ?? 0) > 0;
  }

  /**
   * Flags a user's times on an issue as deleted and answers the seconds they added up to. The
   * rows are locked as they are read, so a delete of one of them at the same time is counted by
   * one request only.
   */
  async markDeletedOfUser(m: EntityManager, issueId: number, userId: number): Promise<number> {
    const rows = await m.find(TrackedTimeEntity, { where: { issueId, userId, deleted: false }, select: { id: true, time: true }, ...this.db.sql.rowLock('pessimistic_write') });
    const total = rows.reduce((sum, r) => sum + Number(r.time), 0);
    // Gitea leaves times that add up to nothing in place (and answers 404).
    if (total !== 0) await m.update(TrackedTimeEntity, { id: In(rows.map((r) => r.id)) }, { deleted: true });
    return total;
  }

  /** Everything of an issue's time tracking, removed with the issue (Gitea deletes these rows outright). */
  async deleteForIssues(m: EntityManager, issueIds: number[]): Promise<void> {
    await m.delete(TrackedTimeEntity, { issueId: In(issueIds) });
    await m.delete(StopwatchEntity, { issueId: In(issueIds) });
  }

  findStopwatch(userId: number, issueId: number, m?: EntityManager): Promise<StopwatchEntity | null> {
    return this.db.findOneBy(StopwatchEntity, { userId, issueId }, m);
  }

  /** The user's running stopwatches (one at most unless two starts raced). */
  runningStopwatches(m: EntityManager, userId: number): Promise<StopwatchEntity[]> {
    return m.find(StopwatchEntity, { where: { userId }, order: { id: 'ASC' } });
  }

  insertStopwatch(m: EntityManager, row: Pick<StopwatchEntity, 'issueId' | 'userId' | 'createdAt'>): Promise<StopwatchEntity> {
    return m.save(StopwatchEntity, m.create(StopwatchEntity, row));
  }

  /** Removes a stopwatch; false when it was gone already (a concurrent stop or delete went first). */
  async deleteStopwatch(m: EntityManager, id: number): Promise<boolean> {
    return ((await m.delete(StopwatchEntity, { id })).affected ?? 0) > 0;
  }

  /** The repositories a user has stopwatches running in. */
  async repoIdsOfUserStopwatches(userId: number): Promise<number[]> {
    const rows = await this.db.manager
      .createQueryBuilder(StopwatchEntity, 's')
      .innerJoin('issue', 'i', 'i.id = s.issue_id')
      .select('DISTINCT i.repo_id', 'repoId')
      .where('s.user_id = :userId', { userId })
      .getRawMany<{ repoId: number | string }>();
    return rows.map((r) => Number(r.repoId));
  }

  /** One page of a user's stopwatches in readable repositories, oldest first. */
  listStopwatches(userId: number, readable: ReadableRepos, page: ListOptions): Promise<[StopwatchEntity[], number]> {
    const qb = this.db.manager.createQueryBuilder(StopwatchEntity, 's').innerJoin('issue', 'i', 'i.id = s.issue_id').where('s.user_id = :userId', { userId });
    whereReadable(qb, readable);
    qb.orderBy('s.id', 'ASC');
    qb.skip((page.page - 1) * page.limit).take(page.limit);
    return qb.getManyAndCount();
  }

  private filteredTimes(f: TimeFilter): SelectQueryBuilder<TrackedTimeEntity> {
    const qb = this.db.manager.createQueryBuilder(TrackedTimeEntity, 't').where('t.deleted = :deleted', { deleted: false });
    if (f.repoId !== undefined || f.readable) qb.innerJoin('issue', 'i', 'i.id = t.issue_id');
    if (f.issueId !== undefined) qb.andWhere('t.issue_id = :issueId', { issueId: f.issueId });
    if (f.userId !== undefined) qb.andWhere('t.user_id = :userId', { userId: f.userId });
    if (f.repoId !== undefined) qb.andWhere('i.repo_id = :repoId', { repoId: f.repoId });
    if (f.readable) whereReadable(qb, f.readable);
    if (f.createdAfter) qb.andWhere('t.created_at >= :after', { after: f.createdAfter.getTime() });
    if (f.createdBefore) qb.andWhere('t.created_at <= :before', { before: f.createdBefore.getTime() });
    return qb;
  }
}

/** Rows whose issue (joined as `i`) sits in a repository whose unit of that kind the caller reads. */
function whereReadable<T extends object>(qb: SelectQueryBuilder<T>, readable: ReadableRepos): void {
  if (readable.issues.length === 0 && readable.pulls.length === 0) {
    qb.andWhere('1 = 0');
    return;
  }
  qb.andWhere(
    new Brackets((w) => {
      if (readable.issues.length > 0) w.orWhere('(i.is_pull = :no AND i.repo_id IN (:...issueRepos))', { no: false, issueRepos: readable.issues });
      if (readable.pulls.length > 0) w.orWhere('(i.is_pull = :yes AND i.repo_id IN (:...pullRepos))', { yes: true, pullRepos: readable.pulls });
    }),
  );
}
