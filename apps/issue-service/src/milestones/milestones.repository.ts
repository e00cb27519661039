import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import type { ListOptions } from '@gitforge/contracts';
import { chunksOf, containsPattern, Database } from '@gitforge/platform';
import { IssueEntity } from '../issues/issue.entity.js';
import type { MilestoneCounts } from './milestone.mapper.js';
import { MilestoneEntity } from './milestone.entity.js';

/** The filters of Gitea's GetMilestonesOption that the API uses. */
export interface MilestoneFilter {
  /** undefined: both. */
  isClosed?: boolean;
  /** Part of the title, in any case. */
  name?: string;
}

/** Gitea stores "no due date" as 9999-12-31 and sorts by it, so those come last. */
const NO_DEADLINE = Date.UTC(9999, 11, 31);


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

  /** A repository's milestones with one of these names or ids (any number of them: a query string's list is read in slices). */
  async findByNamesOrIds(repoId: number, names: string[], ids: number[]): Promise<MilestoneEntity[]> {
    const found = new Map<number, MilestoneEntity>();
    const wanted = async (column: 'name' | 'id', values: Array<string | number>): Promise<void> => {
      for (const slice of chunksOf([...new Set(values)])) {
        for (const row of await this.db.manager.find(MilestoneEntity, { where: { repoId, [column]: In(slice) } })) found.set(row.id, row);
      }
    };
    await wanted('name', names);
    await wanted('id', ids);
    return [...found.values()];
  }

  /** Ids of the milestones of these repositories with one of these names (any number of them). */
  async idsByNames(repoIds: number[], names: string[]): Promise<number[]> {
    if (names.length === 0 || repoIds.length === 0) return [];
    const out: number[] = [];
    for (const slice of chunksOf([...new Set(names)])) {
      for (const r of await this.db.manager.find(MilestoneEntity, { where: { repoId: In(repoIds), name: In(slice) }, select: { id: true } })) out.push(r.id);
    }
    return out;
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

  /** One page of a repository's milestones, soonest due first, then by name (Gitea's default order), and the total. */
  list(repoId: number, f: MilestoneFilter, options: ListOptions): Promise<[MilestoneEntity[], number]> {
    const qb = this.db.manager.createQueryBuilder(MilestoneEntity, 'ms').where('ms.repo_id = :repoId', { repoId });
    if (f.isClosed !== undefined) qb.andWhere('ms.is_closed = :isClosed', { isClosed: f.isClosed });
    if (f.name) qb.andWhere("LOWER(ms.name) LIKE :name ESCAPE '\\'", { name: containsPattern(f.name) });
    return qb
      .orderBy(`COALESCE(ms.deadline, ${NO_DEADLINE})`, 'ASC')
      .addOrderBy('ms.name', 'ASC')
      .addOrderBy('ms.id', 'ASC')
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  insert(m: EntityManager, milestone: Partial<MilestoneEntity>): Promise<MilestoneEntity> {
    return m.save(MilestoneEntity, m.create(MilestoneEntity, milestone));
  }

  async update(m: EntityManager, id: number, changes: Partial<MilestoneEntity>): Promise<void> {
    if (Object.keys(changes).length > 0) await m.update(MilestoneEntity, { id }, changes);
  }

  /** Deletes the milestone and takes it off its issues and pulls. */
  async delete(m: EntityManager, id: number): Promise<void> {
    await m.update(IssueEntity, { milestoneId: id }, { milestoneId: 0 });
    await m.delete(MilestoneEntity, { id });
  }

  /** Every milestone of a repository. */
  async deleteOfRepo(m: EntityManager, repoId: number): Promise<void> {
    await m.delete(MilestoneEntity, { repoId });
  }
}
