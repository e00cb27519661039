import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import type { ListOptions } from '@gitforge/contracts';
import { IssueEntity } from '../issues/issue.entity.js';
import { IssueDependencyEntity } from './issue-dependency.entity.js';

@Injectable()
export class DependenciesRepository {
  constructor(private readonly db: Database) {}

  /** The issues that block `issueId` (`side` 'blockers') or that it blocks ('blocked'), oldest link first. */
  list(issueId: number, side: 'blockers' | 'blocked', options?: ListOptions): Promise<IssueEntity[]> {
    const [mine, theirs] = side === 'blockers' ? ['issue_id', 'dependency_id'] : ['dependency_id', 'issue_id'];
    const qb = this.db.manager
      .createQueryBuilder(IssueEntity, 'i')
      .innerJoin(IssueDependencyEntity, 'd', `d.${theirs} = i.id`)
      .where(`d.${mine} = :issueId`, { issueId })
      .orderBy('d.id', 'ASC');
    if (options) qb.offset((options.page - 1) * options.limit).limit(options.limit);
    return qb.getMany();
  }

  find(issueId: number, dependencyId: number): Promise<IssueDependencyEntity | null> {
    return this.db.findOneBy(IssueDependencyEntity, { issueId, dependencyId });
  }

  async insert(m: EntityManager, row: Partial<IssueDependencyEntity>): Promise<void> {
    await m.insert(IssueDependencyEntity, row);
  }

  async delete(m: EntityManager, issueId: number, dependencyId: number): Promise<void> {
    await m.delete(IssueDependencyEntity, { issueId, dependencyId });
  }

  /** Whether `issueId` has an open issue blocking it. */
  async hasOpenBlockers(issueId: number, m?: EntityManager): Promise<boolean> {
    const row = await (m ?? this.db.manager)
      .createQueryBuilder(IssueDependencyEntity, 'd')
      .innerJoin(IssueEntity, 'i', 'i.id = d.dependency_id')
      .where('d.issue_id = :issueId AND i.is_closed = :open', { issueId, open: false })
      .getOne();
    return row !== null;
  }

  /** Whether `from` reaches `to` by following "is blocked by" links (a new link back would close a circle). */
  async reaches(from: number, to: number): Promise<boolean> {
    const seen = new Set<number>([from]);
    let frontier = [from];
    while (frontier.length > 0) {
      const rows = await this.db.manager
        .createQueryBuilder(IssueDependencyEntity, 'd')
        .where('d.issue_id IN (:...ids)', { ids: frontier })
        .getMany();
      frontier = [];
      for (const r of rows) {
        if (r.dependencyId === to) return true;
        if (!seen.has(r.dependencyId)) {
          seen.add(r.dependencyId);
          frontier.push(r.dependencyId);
        }
      }
    }
    return false;
  }

  /** Links of a deleted issue, both ways. */
  async deleteAllOf(m: EntityManager, issueIds: number[]): Promise<void> {
    await m.delete(IssueDependencyEntity, { issueId: In(issueIds) });
    await m.delete(IssueDependencyEntity, { dependencyId: In(issueIds) });
  }
}
