import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import type { ListOptions } from '@gitforge/contracts';
import { DeployKeyEntity, DeployPublicKeyEntity } from './deploy-key.entity.js';

export interface DeployKeyFilter {
  keyId?: number;
  fingerprint?: string;
}

@Injectable()
export class DeployKeysRepository {
  constructor(private readonly db: Database) {}

  list(repoId: number, filter: DeployKeyFilter, options: ListOptions): Promise<[DeployKeyEntity[], number]> {
    return this.db.manager.findAndCount(DeployKeyEntity, {
      where: {
        repoId,
        ...(filter.keyId ? { keyId: filter.keyId } : {}),
        ...(filter.fingerprint ? { fingerprint: filter.fingerprint } : {}),
      },
      order: { id: 'ASC' },
      skip: (options.page - 1) * options.limit,
      take: options.limit,
    });
  }

  findInRepo(repoId: number, id: number, manager?: EntityManager): Promise<DeployKeyEntity | null> {
    return (manager ?? this.db.manager).findOne(DeployKeyEntity, { where: { id, repoId } });
  }

  findByKeyAndRepo(manager: EntityManager, keyId: number, repoId: number): Promise<DeployKeyEntity | null> {
    return manager.findOne(DeployKeyEntity, { where: { keyId, repoId } });
  }

  findByName(manager: EntityManager, repoId: number, name: string): Promise<DeployKeyEntity | null> {
    return manager.findOne(DeployKeyEntity, { where: { repoId, name } });
  }

  findPublicKey(fingerprint: string, manager?: EntityManager): Promise<DeployPublicKeyEntity | null> {
    return (manager ?? this.db.manager).findOne(DeployPublicKeyEntity, { where: { fingerprint } });
  }

  publicKeysByFingerprints(fingerprints: string[]): Promise<DeployPublicKeyEntity[]> {
    return fingerprints.length === 0
      ? Promise.resolve([])
      : this.db.manager.find(DeployPublicKeyEntity, { where: { fingerprint: In(fingerprints) } });
  }

  byKeyIds(keyIds: number[]): Promise<DeployKeyEntity[]> {
    return keyIds.length === 0
      ? Promise.resolve([])
      : this.db.manager.find(DeployKeyEntity, { where: { keyId: In(keyIds) }, order: { id: 'ASC' } });
  }

  insertPublicKey(
    manager: EntityManager,
    key: Partial<DeployPublicKeyEntity>,
  ): Promise<DeployPublicKeyEntity> {
    return manager.save(DeployPublicKeyEntity, manager.create(DeployPublicKeyEntity, key));
  }

  insert(manager: EntityManager, key: Partial<DeployKeyEntity>): Promise<DeployKeyEntity> {
    return manager.save(DeployKeyEntity, manager.create(DeployKeyEntity, key));
  }

  /** Deletes a deploy key, and its public key when no repository uses it any more (as Gitea). */
  async delete(manager: EntityManager, key: DeployKeyEntity): Promise<void> {
    await manager.delete(DeployKeyEntity, { id: key.id });
    if ((await manager.count(DeployKeyEntity, { where: { keyId: key.keyId } })) === 0) {
      await manager.delete(DeployPublicKeyEntity, { id: key.keyId });
    }
  }
}
