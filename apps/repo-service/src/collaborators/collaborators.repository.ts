import { Injectable } from '@nestjs/common';
import { MoreThanOrEqual, type EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import type { ListOptions } from '@gitforge/contracts';
import { CollaborationEntity } from '../access/collaboration.entity.js';

@Injectable()
export class CollaboratorsRepository {
  constructor(private readonly db: Database) {}

  page(repoId: number, options: ListOptions): Promise<[CollaborationEntity[], number]> {
    return this.db.manager.findAndCount(CollaborationEntity, {
      where: { repoId },
      order: { userId: 'ASC' },
      skip: (options.page - 1) * options.limit,
      take: options.limit,
    });
  }

  /** Every collaborator of the repository with at least `mode`. */
  async userIds(repoId: number, mode: number): Promise<number[]> {
    const rows = await this.db.manager.find(CollaborationEntity, { where: { repoId, mode: MoreThanOrEqual(mode) }, order: { userId: 'ASC' } });
    return rows.map((r) => r.userId);
  }

  find(repoId: number, userId: number, manager?: EntityManager): Promise<CollaborationEntity | null> {
    return (manager ?? this.db.manager).findOne(CollaborationEntity, { where: { repoId, userId } });
  }

  async upsert(manager: EntityManager, repoId: number, userId: number, mode: number): Promise<void> {
    const existing = await this.find(repoId, userId, manager);
    if (!existing) await manager.insert(CollaborationEntity, { repoId, userId, mode });
    else if (existing.mode !== mode) await manager.update(CollaborationEntity, { repoId, userId }, { mode });
  }

  async deleteOfUser(manager: EntityManager, userId: number): Promise<void> {
    await manager.delete(CollaborationEntity, { userId });
  }

  async delete(manager: EntityManager, repoId: number, userId: number): Promise<void> {
    await manager.delete(CollaborationEntity, { repoId, userId });
  }
}
