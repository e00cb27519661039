import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import type { ListOptions } from '@gitforge/contracts';
import { AccessTokenEntity } from './access-token.entity.js';

@Injectable()
export class TokensRepository {
  constructor(private readonly db: Database) {}

  findByHash(tokenHash: string): Promise<AccessTokenEntity | null> {
    return this.db.findOneBy(AccessTokenEntity, { tokenHash });
  }

  findByName(userId: number, name: string, manager?: EntityManager): Promise<AccessTokenEntity | null> {
    return (manager ?? this.db.manager).findOne(AccessTokenEntity, { where: { userId, name } });
  }

  findById(userId: number, id: number): Promise<AccessTokenEntity | null> {
    return this.db.manager.findOne(AccessTokenEntity, { where: { userId, id } });
  }

  /** Tokens whose name matches exactly; Gitea lets DELETE name a token by name or id. */
  findAllByName(userId: number, name: string): Promise<AccessTokenEntity[]> {
    return this.db.manager.find(AccessTokenEntity, { where: { userId, name } });
  }

  list(userId: number, options: ListOptions): Promise<[AccessTokenEntity[], number]> {
    return this.db.manager.findAndCount(AccessTokenEntity, {
      where: { userId },
      order: { id: 'DESC' },
      skip: (options.page - 1) * options.limit,
      take: options.limit,
    });
  }

  insert(manager: EntityManager, token: Partial<AccessTokenEntity>): Promise<AccessTokenEntity> {
    return manager.save(AccessTokenEntity, manager.create(AccessTokenEntity, token));
  }

  async delete(manager: EntityManager, id: number): Promise<void> {
    await manager.delete(AccessTokenEntity, { id });
  }

  async deleteOfUser(manager: EntityManager, userId: number): Promise<void> {
    await manager.delete(AccessTokenEntity, { userId });
  }

  async touch(id: number, at: Date): Promise<void> {
    await this.db.transaction((m) => m.update(AccessTokenEntity, { id }, { lastUsedAt: at }).then(() => undefined));
  }
}
