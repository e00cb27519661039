import { Injectable } from '@nestjs/common';
import { In, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { chunksOf, Database } from '@gitforge/platform';
import type { ListOptions } from '@gitforge/contracts';
import { ActionEntity } from './action.entity.js';

/** Which entries a feed shows, before the viewer's access is applied. */
export interface FeedFilter {
  /** The receiver (user or organization feeds). */
  userId?: number;
  /** Only entries this user performed. */
  actUserId?: number;
  repoId?: number;
  /** Team feeds: only these repositories. */
  repoIds?: number[];
  /** Repository feeds: one entry per action (the actor's copy), not one per receiver. */
  actorCopyOnly?: boolean;
  includePrivate: boolean;
  /** [from, to) in epoch ms. */
  between?: [number, number];
}

@Injectable()
export class FeedsRepository {
  constructor(private readonly db: Database) {}

  async insertActions(manager: EntityManager, rows: Array<Omit<ActionEntity, 'id'>>): Promise<void> {
    // In slices: one review's line comments each make an entry, and one statement of thousands of rows passes SQLite's limits.
    for (const slice of chunksOf(rows, 100)) await manager.createQueryBuilder().insert().into(ActionEntity).values(slice).orIgnore().execute();
  }

  async deleteForRepo(manager: EntityManager, repoId: number): Promise<void> {
    await manager.delete(ActionEntity, { repoId });
  }

  async deleteForComment(manager: EntityManager, commentId: number): Promise<void> {
    await manager.delete(ActionEntity, { commentId });
  }

  /** The entries of a comment, with the comment each stores. */
  commentEntries(manager: EntityManager, commentId: number): Promise<Array<Pick<ActionEntity, 'id' | 'commentJson'>>> {
    return manager.find(ActionEntity, { select: { id: true, commentJson: true }, where: { commentId } });
  }

  async storeComment(manager: EntityManager, ids: number[], commentJson: string): Promise<void> {
    if (ids.length > 0) await manager.update(ActionEntity, { id: In(ids) }, { commentJson });
  }

  private query(filter: FeedFilter): SelectQueryBuilder<ActionEntity> {
    const qb = this.db.manager.createQueryBuilder(ActionEntity, 'a').where('1 = 1');
    if (filter.userId !== undefined) qb.andWhere('a.user_id = :userId', { userId: filter.userId });
    if (filter.actUserId !== undefined) qb.andWhere('a.act_user_id = :actUserId', { actUserId: filter.actUserId });
    if (filter.repoId !== undefined) qb.andWhere('a.repo_id = :repoId', { repoId: filter.repoId });
    if (filter.repoIds !== undefined) {
      if (filter.repoIds.length === 0) qb.andWhere('1 = 0');
      else qb.andWhere('a.repo_id IN (:...teamRepoIds)', { teamRepoIds: filter.repoIds });
    }
    if (filter.actorCopyOnly) qb.andWhere('a.user_id = a.act_user_id');
    if (!filter.includePrivate) qb.andWhere('a.is_private = :no', { no: false });
    if (filter.between) qb.andWhere('a.created_at >= :from AND a.created_at < :to', { from: filter.between[0], to: filter.between[1] });
    return qb;
  }

  /** The repositories and actors a feed's entries involve, to ask who may see them (one call each per page). */
  async involved(filter: FeedFilter): Promise<{ repoIds: number[]; actUserIds: number[] }> {
    const repos = await this.query(filter).select('DISTINCT a.repo_id', 'id').getRawMany<{ id: number | string }>();
    const actors = await this.query(filter).select('DISTINCT a.act_user_id', 'id').getRawMany<{ id: number | string }>();
    return { repoIds: repos.map((r) => Number(r.id)), actUserIds: actors.map((r) => Number(r.id)) };
  }

  /**
   * Entries per 15 minutes (Unix seconds of the quarter hour), oldest first: clients shift them
   * into their own time zone, and zones are offset by as little as a quarter hour.
   */
  async countByQuarterHour(filter: FeedFilter, repoIds: number[], actUserIds: number[]): Promise<Array<{ timestamp: number; contributions: number }>> {
    if (repoIds.length === 0 || actUserIds.length === 0) return [];
    const rows = await this.query(filter)
      .andWhere('a.repo_id IN (:...visibleRepoIds)', { visibleRepoIds: repoIds })
      .andWhere('a.act_user_id IN (:...visibleActorIds)', { visibleActorIds: actUserIds })
      .select('(a.created_at / 900000) * 900', 'quarter')
      .addSelect('COUNT(*)', 'contributions')
      .groupBy('quarter')
      .orderBy('quarter', 'ASC')
      .getRawMany<{ quarter: number | string; contributions: number | string }>();
    return rows.map((r) => ({ timestamp: Number(r.quarter), contributions: Number(r.contributions) }));
  }

  /** Newest first, limited to the repositories and actors the viewer may see. */
  page(filter: FeedFilter, repoIds: number[], actUserIds: number[], options: ListOptions): Promise<[ActionEntity[], number]> {
    if (repoIds.length === 0 || actUserIds.length === 0) return Promise.resolve([[], 0]);
    return this.query(filter)
      .andWhere('a.repo_id IN (:...visibleRepoIds)', { visibleRepoIds: repoIds })
      .andWhere('a.act_user_id IN (:...visibleActorIds)', { visibleActorIds: actUserIds })
      .orderBy('a.created_at', 'DESC')
      .addOrderBy('a.id', 'DESC')
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }
}
