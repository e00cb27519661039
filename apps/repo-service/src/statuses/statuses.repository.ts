import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import type { ListOptions } from '@gitforge/contracts';
import { CommitStatusIndexEntity } from './commit-status-index.entity.js';
import { CommitStatusEntity } from './commit-status.entity.js';

/** Gitea's CommitStatusOptions.ToOrders (its names, its directions). */
const ORDERS: Record<string, [keyof CommitStatusEntity, 'ASC' | 'DESC']> = {
  oldest: ['createdAt', 'ASC'],
  recentupdate: ['updatedAt', 'DESC'],
  leastupdate: ['updatedAt', 'ASC'],
  leastindex: ['idx', 'DESC'],
  highestindex: ['idx', 'ASC'],
};

@Injectable()
export class StatusesRepository {
  constructor(private readonly db: Database) {}

  /**
   * The next status index of a commit. The commit's index row (seeded from its statuses the
   * first time) is updated first, so concurrent reports take turns and never share an index.
   */
  async nextIndex(m: EntityManager, repoId: number, sha: string): Promise<number> {
    const params = this.db.sql.params();
    await m.query(
      `INSERT INTO commit_status_index (repo_id, sha, max_index)
       SELECT CAST(${params.add(repoId)} AS INTEGER), CAST(${params.add(sha)} AS VARCHAR(64)), COALESCE(MAX(idx), 0)
       FROM commit_status WHERE repo_id = ${params.add(repoId)} AND sha = ${params.add(sha)}
       ON CONFLICT DO NOTHING`,
      params.values,
    );
    await m.increment(CommitStatusIndexEntity, { repoId, sha }, 'maxIndex', 1);
    return (await m.findOneByOrFail(CommitStatusIndexEntity, { repoId, sha })).maxIndex;
  }

  insert(m: EntityManager, status: Partial<CommitStatusEntity>): Promise<CommitStatusEntity> {
    return m.save(CommitStatusEntity, m.create(CommitStatusEntity, status));
  }

  /** The latest status of one context of a commit, if any. */
  latestOfContext(repoId: number, sha: string, contextHash: string): Promise<CommitStatusEntity | null> {
    return this.db.manager.findOne(CommitStatusEntity, { where: { repoId, sha, contextHash }, order: { idx: 'DESC' } });
  }

  findById(id: number): Promise<CommitStatusEntity | null> {
    return this.db.manager.findOne(CommitStatusEntity, { where: { id } });
  }

  /** Statuses of one commit, sorted Gitea's way (newest first by default), one page and the total. */
  list(repoId: number, sha: string, filter: { sort?: string; state?: string }, options: ListOptions): Promise<[CommitStatusEntity[], number]> {
    const [column, direction] = ORDERS[filter.sort ?? ''] ?? ['createdAt', 'DESC'];
    const qb = this.db.manager
      .createQueryBuilder(CommitStatusEntity, 's')
      .where('s.repo_id = :repoId AND s.sha = :sha', { repoId, sha });
    if (filter.state) qb.andWhere('s.state = :state', { state: filter.state });
    return qb
      .orderBy(`s.${column}`, direction)
      .addOrderBy('s.id', direction)
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  /** The latest status per context of one commit: one page of contexts (newest first) and their count. */
  async latestPerContext(repoId: number, sha: string, options: ListOptions): Promise<[CommitStatusEntity[], number]> {
    const base = () =>
      this.db.manager
        .createQueryBuilder(CommitStatusEntity, 's')
        .where('s.repo_id = :repoId AND s.sha = :sha', { repoId, sha });
    const latest = await base()
      .select('MAX(s.idx)', 'idx')
      .groupBy('s.context_hash')
      .orderBy('MAX(s.idx)', 'DESC')
      .offset((options.page - 1) * options.limit)
      .limit(options.limit)
      .getRawMany<{ idx: number | string }>();
    const count = await base().select('COUNT(DISTINCT s.context_hash)', 'n').getRawOne<{ n: number | string }>();
    if (latest.length === 0) return [[], Number(count?.n ?? 0)];
    const rows = await base()
      .andWhere('s.idx IN (:...idx)', { idx: latest.map((r) => Number(r.idx)) })
      .orderBy('s.idx', 'ASC')
      .getMany();
    return [rows, Number(count?.n ?? 0)];
  }
}
