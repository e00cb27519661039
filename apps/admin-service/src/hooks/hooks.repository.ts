import { Injectable } from '@nestjs/common';
import { Brackets, In, type EntityManager, type FindOptionsWhere } from 'typeorm';
import { Database } from '@gitforge/platform';
import type { HookKind, ListOptions } from '@gitforge/contracts';
import { WebhookEntity } from './webhook.entity.js';

/** Which hooks a route addresses: one repository's, one owner's, or the site-wide ones of some kinds. */
export type HookOwnerFilter = { repoId: number } | { ownerId: number } | { kinds: HookKind[] };

@Injectable()
export class HooksRepository {
  constructor(private readonly db: Database) {}

  private where(filter: HookOwnerFilter): FindOptionsWhere<WebhookEntity> {
    if ('repoId' in filter) return { repoId: filter.repoId };
    if ('ownerId' in filter) return { ownerId: filter.ownerId };
    return { kind: In(filter.kinds) };
  }

  list(filter: HookOwnerFilter, options: ListOptions): Promise<[WebhookEntity[], number]> {
    return this.db.manager.findAndCount(WebhookEntity, {
      where: this.where(filter),
      order: { id: 'ASC' },
      skip: (options.page - 1) * options.limit,
      take: options.limit,
    });
  }

  findOne(filter: HookOwnerFilter, id: number, manager?: EntityManager): Promise<WebhookEntity | null> {
    return (manager ?? this.db.manager).findOne(WebhookEntity, { where: { id, ...this.where(filter) } });
  }

  findById(id: number): Promise<WebhookEntity | null> {
    return this.db.manager.findOne(WebhookEntity, { where: { id } });
  }

  /** The active hooks events in `repoIds` (owned by `ownerIds`) may reach: those repositories', those owners', the system's; by id. */
  findActiveFor(repoIds: number[], ownerIds: number[]): Promise<WebhookEntity[]> {
    return this.db.manager
      .createQueryBuilder(WebhookEntity, 'w')
      .where('w.is_active = :active', { active: true })
      .andWhere(
        new Brackets((b) => {
          b.where('w.kind = :system', { system: 'system' });
          if (repoIds.length > 0) b.orWhere('(w.kind = :repoKind AND w.repo_id IN (:...repoIds))', { repoKind: 'repository', repoIds });
          if (ownerIds.length > 0) b.orWhere('(w.kind IN (:...ownerKinds) AND w.owner_id IN (:...ownerIds))', { ownerKinds: ['organization', 'user'], ownerIds });
        }),
      )
      .orderBy('w.id', 'ASC')
      .getMany();
  }

  findDefaults(manager: EntityManager): Promise<WebhookEntity[]> {
    return manager.find(WebhookEntity, { where: { kind: 'default' }, order: { id: 'ASC' } });
  }

  findCopies(manager: EntityManager, repoId: number): Promise<WebhookEntity[]> {
    return manager
      .createQueryBuilder(WebhookEntity, 'w')
      .where('w.repo_id = :repoId AND w.default_source_id IS NOT NULL', { repoId })
      .getMany();
  }

  insert(manager: EntityManager, hook: Partial<WebhookEntity>): Promise<WebhookEntity> {
    return manager.save(WebhookEntity, manager.create(WebhookEntity, hook));
  }

  async update(manager: EntityManager, id: number, changes: Partial<WebhookEntity>): Promise<void> {
    await manager.update(WebhookEntity, { id }, changes);
  }

  /** Hooks whose secret and authorization header are still in clear (written before they were sealed). */
  findUnsealed(): Promise<Array<Pick<WebhookEntity, 'id' | 'secret' | 'authorizationHeader'>>> {
    return this.db.manager.find(WebhookEntity, { select: { id: true, secret: true, authorizationHeader: true }, where: { secretsSealed: false } });
  }

  /** Stores a hook's sealed values, unless another writer (a replica's start-up pass, an edit) sealed it first. */
  async storeSealed(id: number, sealed: Pick<WebhookEntity, 'secret' | 'authorizationHeader'>): Promise<void> {
    await this.db.transaction((m) => m.update(WebhookEntity, { id, secretsSealed: false }, { ...sealed, secretsSealed: true }));
  }

  async delete(manager: EntityManager, id: number): Promise<void> {
    await manager.delete(WebhookEntity, { id });
  }
}
