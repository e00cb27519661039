import { Injectable } from '@nestjs/common';
import { MoreThan } from 'typeorm';
import { isRowIdRange } from '@gitforge/contracts';
import { Database, isUniqueViolation } from '@gitforge/platform';
import { LfsLockEntity, LfsMetaObjectEntity } from './lfs.entities.js';

@Injectable()
export class LfsRepository {
  constructor(private readonly db: Database) {}

  findMeta(repoId: number, oid: string): Promise<LfsMetaObjectEntity | null> {
    return this.db.manager.findOne(LfsMetaObjectEntity, { where: { repoId, oid } });
  }

  /** Records that the repository references the object; a second call is a no-op. */
  async addMeta(repoId: number, oid: string, size: number): Promise<void> {
    try {
      await this.db.manager.insert(LfsMetaObjectEntity, { repoId, oid, size, createdAt: new Date() });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }

  /** Locks of a repository by id, after `afterId`, oldest first; `path` or `id` narrow them. */
  listLocks(
    repoId: number,
    filter: { path?: string; id?: number },
    afterId: number,
    limit: number,
  ): Promise<LfsLockEntity[]> {
    // Beyond any row's id: nothing (PostgreSQL refuses to compare its integer ids with such numbers).
    if (!isRowIdRange(afterId) || (filter.id !== undefined && !isRowIdRange(filter.id))) return Promise.resolve([]);
    return this.db.manager.find(LfsLockEntity, {
      where: {
        repoId,
        ...(filter.path !== undefined ? { path: filter.path } : {}),
        ...(filter.id !== undefined ? { id: filter.id } : { id: MoreThan(afterId) }),
      },
      order: { id: 'ASC' },
      take: limit,
    });
  }

  findLock(repoId: number, id: number): Promise<LfsLockEntity | null> {
    if (!isRowIdRange(id)) return Promise.resolve(null);
    return this.db.manager.findOne(LfsLockEntity, { where: { repoId, id } });
  }

  findLockByPath(repoId: number, path: string): Promise<LfsLockEntity | null> {
    return this.db.manager.findOne(LfsLockEntity, { where: { repoId, path } });
  }

  /** The new lock, or null when the path is locked already (the unique index decides races). */
  async createLock(repoId: number, ownerId: number, path: string): Promise<LfsLockEntity | null> {
    try {
      const row = { repoId, ownerId, path, createdAt: new Date() };
      const result = await this.db.manager.insert(LfsLockEntity, row);
      return { ...row, id: Number(result.identifiers[0]!.id) };
    } catch (err) {
      if (isUniqueViolation(err)) return null;
      throw err;
    }
  }

  async deleteLock(id: number): Promise<void> {
    await this.db.manager.delete(LfsLockEntity, { id });
  }
}
