import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import { IssueEntity } from '../issues/issue.entity.js';
import type { MilestoneCounts } from './milestone.mapper.js';
import { MilestoneEntity } from './milestone.entity.js';

@Injectable()
export class MilestonesRepository {
  constructor(private readonly db: Database) {}

  findByIds(ids: number[], m?: EntityManager): Promise<MilestoneEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return (m ?? this.db.manager).find(MilestoneEntity, { where: { id: In([...new Set(ids)]) } });
  }

  findInRepo(repoId: number, id: number, m?: EntityManager): Promise<MilestoneEntity | null> {
    return this.db.findOneBy(MilestoneEntity, { repoId, id }, m);
  }

  findByName(repoId: number, name: string): Promise<MilestoneEntity | null> {
    return this.db.findOneBy(MilestoneEntity, { repoId, name });
  }

  /** Ids of the milestones of these repositories with one of these names. */
  async idsByNames(repoIds: number[], names: string[]): Promise<number[]> {
    if (names.length === 0 || repoIds.length === 0) return [];
    const rows = await this.db.manager.find(MilestoneEntity, { where: { repoId: In(repoIds), name: In(names) }, select: { id: true } });
    return rows.map((r) => r.id);
  }

  /** Open and closed issues (pulls included, as Gitea counts) of each milestone, counted now. */
  async counts(ids: number[], m?: EntityManager): Promise<Map<number, MilestoneCounts>> {
    const result = new Map<number, MilestoneCounts>(ids.map((id) => [id, { open: 0, closed: 0 }]));
    if (ids.length === 0) return result;
    const rows = await (m ?? this.db.manager)
      .createQueryBuilder(IssueEntity, 'i')
      .select('i.milestone_id', 'milestoneId')
      .addSelect('i.is_closed', 'isClosed')
      .addSelect('COUNT(*)', 'n')
      .where('i.milestone_id IN (:...ids)', { ids: [...new Set(ids)] })
      .groupBy('i.milestone_id')
      .addGroupBy('i.is_closed')
      .getRawMany<{ milestoneId: number | string; isClosed: boolean | number; n: number | string }>();
    for (const r of rows) {
      const c = result.get(Number(r.milestoneId))!;
      if (r.isClosed) c.closed = Number(r.n);
      else c.open = Number(r.n);
    }
    return result;
  }
}
