import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import type { ListOptions } from '@gitforge/contracts';
import { PublicKeyEntity } from './public-key.entity.js';

@Injectable()
export class UserKeysRepository {
  constructor(private readonly db: Database) {}

  /** A user's keys (or, with `ownerId` absent and a fingerprint, anyone's key with it), oldest first. */
  list(
    filter: { ownerId?: number; fingerprint?: string },
    options: ListOptions,
  ): Promise<[PublicKeyEntity[], number]> {
    return this.db.manager.findAndCount(PublicKeyEntity, {
      where: {
        ...(filter.ownerId !== undefined ? { ownerId: filter.ownerId } : {}),
        ...(filter.fingerprint !== undefined ? { fingerprint: filter.fingerprint } : {}),
      },
      order: { id: 'ASC' },
      skip: (options.page - 1) * options.limit,
      take: options.limit,
    });
  }

  findById(id: number, manager?: EntityManager): Promise<PublicKeyEntity | null> {
    return (manager ?? this.db.manager).findOne(PublicKeyEntity, { where: { id } });
  }

  findByFingerprint(manager: EntityManager, fingerprint: string): Promise<PublicKeyEntity | null> {
    return manager.findOne(PublicKeyEntity, { where: { fingerprint } });
  }

  findByName(manager: EntityManager, ownerId: number, name: string): Promise<PublicKeyEntity | null> {
    return manager.findOne(PublicKeyEntity, { where: { ownerId, name } });
  }

  byFingerprints(fingerprints: string[]): Promise<PublicKeyEntity[]> {
    return fingerprints.length === 0
      ? Promise.resolve([])
      : this.db.manager.find(PublicKeyEntity, { where: { fingerprint: In(fingerprints) } });
  }

  insert(manager: EntityManager, key: Partial<PublicKeyEntity>): Promise<PublicKeyEntity> {
    return manager.save(PublicKeyEntity, manager.create(PublicKeyEntity, key));
  }

  async delete(manager: EntityManager, id: number): Promise<void> {
    await manager.delete(PublicKeyEntity, { id });
  }
}
