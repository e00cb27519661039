import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import { BranchProtectionEntity } from './branch-protection.entity.js';
import { TagProtectionEntity } from './tag-protection.entity.js';

@Injectable()
export class ProtectionsRepository {
  constructor(private readonly db: Database) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.db.manager;
  }

  tagProtections(repoId: number, manager?: EntityManager): Promise<TagProtectionEntity[]> {
    return this.m(manager).find(TagProtectionEntity, { where: { repoId }, order: { id: 'ASC' } });
  }

  tagProtection(repoId: number, id: number, manager?: EntityManager): Promise<TagProtectionEntity | null> {
    return this.m(manager).findOne(TagProtectionEntity, { where: { repoId, id } });
  }

  tagProtectionByPattern(repoId: number, namePattern: string, manager?: EntityManager): Promise<TagProtectionEntity | null> {
    return this.m(manager).findOne(TagProtectionEntity, { where: { repoId, namePattern } });
  }

  async insertTagProtection(manager: EntityManager, row: Partial<TagProtectionEntity>): Promise<number> {
    return (await manager.save(TagProtectionEntity, manager.create(TagProtectionEntity, row))).id;
  }

  async updateTagProtection(manager: EntityManager, id: number, changes: Partial<TagProtectionEntity>): Promise<void> {
    await manager.update(TagProtectionEntity, { id }, changes);
  }

  async deleteTagProtection(manager: EntityManager, id: number): Promise<void> {
    await manager.delete(TagProtectionEntity, { id });
  }

  /** Rules in the order they are tried: priority, then age. */
  branchProtections(repoId: number, manager?: EntityManager): Promise<BranchProtectionEntity[]> {
    return this.m(manager).find(BranchProtectionEntity, { where: { repoId }, order: { priority: 'ASC', id: 'ASC' } });
  }

  branchProtection(repoId: number, ruleName: string, manager?: EntityManager): Promise<BranchProtectionEntity | null> {
    return this.m(manager).findOne(BranchProtectionEntity, { where: { repoId, ruleName } });
  }

  async maxBranchPriority(manager: EntityManager, repoId: number): Promise<number> {
    const row = await manager
      .createQueryBuilder(BranchProtectionEntity, 'b')
      .select('MAX(b.priority)', 'max')
      .where('b.repo_id = :repoId', { repoId })
      .getRawOne<{ max: number | string | null }>();
    return Number(row?.max ?? 0) || 0;
  }

  async insertBranchProtection(manager: EntityManager, row: Partial<BranchProtectionEntity>): Promise<number> {
    return (await manager.save(BranchProtectionEntity, manager.create(BranchProtectionEntity, row))).id;
  }

  async updateBranchProtection(manager: EntityManager, id: number, changes: Partial<BranchProtectionEntity>): Promise<void> {
    await manager.update(BranchProtectionEntity, { id }, changes);
  }

  async deleteBranchProtection(manager: EntityManager, id: number): Promise<void> {
    await manager.delete(BranchProtectionEntity, { id });
  }
}
