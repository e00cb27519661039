import { Injectable } from '@nestjs/common';
import { Brackets, In, type EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import type { ListOptions } from '@gitforge/contracts';
import { CollaborationEntity } from '../access/collaboration.entity.js';
import { BranchProtectionEntity } from '../protections/branch-protection.entity.js';
import { TagProtectionEntity } from '../protections/tag-protection.entity.js';
import { RepositoryEntity } from './repository.entity.js';

export interface RepoListFilter {
  ownerIds: number[];
  /** Repositories reached otherwise (collaborations, team links). */
  alsoIds?: number[];
  /** Which private repositories the viewer may list: all of them, none, or these ids. */
  privateVisible: 'all' | 'none' | number[];
}

@Injectable()
export class ReposRepository {
  constructor(private readonly db: Database) {}

  findByOwnerAndName(ownerId: number, name: string, manager?: EntityManager): Promise<RepositoryEntity | null> {
    return (manager ?? this.db.manager).findOne(RepositoryEntity, { where: { ownerId, lowerName: name.toLowerCase() } });
  }

  findById(id: number, manager?: EntityManager): Promise<RepositoryEntity | null> {
    return (manager ?? this.db.manager).findOne(RepositoryEntity, { where: { id } });
  }

  findByIds(ids: number[]): Promise<RepositoryEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.manager.find(RepositoryEntity, { where: { id: In(ids) } });
  }

  /** Repositories of some owners (and some other ids), oldest first, one page and the total. */
  list(filter: RepoListFilter, options: ListOptions): Promise<[RepositoryEntity[], number]> {
    const qb = this.db.manager.createQueryBuilder(RepositoryEntity, 'r');
    qb.where(
      new Brackets((w) => {
        w.where('1 = 0');
        if (filter.ownerIds.length > 0) w.orWhere('r.owner_id IN (:...ownerIds)', { ownerIds: filter.ownerIds });
        if (filter.alsoIds && filter.alsoIds.length > 0) w.orWhere('r.id IN (:...alsoIds)', { alsoIds: filter.alsoIds });
      }),
    );
    const pv = filter.privateVisible;
    if (pv === 'none' || (Array.isArray(pv) && pv.length === 0)) qb.andWhere('r.is_private = :no', { no: false });
    else if (Array.isArray(pv)) qb.andWhere('(r.is_private = :no OR r.id IN (:...privateIds))', { no: false, privateIds: pv });
    return qb
      .orderBy('r.id', 'ASC')
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  /**
   * The row, locked until the transaction ends (PostgreSQL; SQLite transactions are serialised
   * already): replicas that finish pushes to one repository update it one after the other.
   */
  lockById(manager: EntityManager, id: number): Promise<RepositoryEntity | null> {
    const postgres = manager.connection.options.type === 'postgres';
    return manager.findOne(RepositoryEntity, { where: { id }, ...(postgres ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  insert(manager: EntityManager, repo: Partial<RepositoryEntity>): Promise<RepositoryEntity> {
    return manager.save(RepositoryEntity, manager.create(RepositoryEntity, repo));
  }

  async update(manager: EntityManager, id: number, changes: Partial<RepositoryEntity>): Promise<void> {
    await manager.update(RepositoryEntity, { id }, changes);
  }

  async delete(manager: EntityManager, id: number): Promise<void> {
    await manager.delete(RepositoryEntity, { id });
    // Grants and rules die with the repository, so a later repository can never inherit them.
    await manager.delete(CollaborationEntity, { repoId: id });
    await manager.delete(BranchProtectionEntity, { repoId: id });
    await manager.delete(TagProtectionEntity, { repoId: id });
  }
}
