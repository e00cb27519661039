import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import type { ListOptions } from '@gitforge/contracts';
import { BadgeEntity } from './badge.entity.js';
import { UserBadgeEntity } from './user-badge.entity.js';

/** The badge catalogue and users' badges. */
@Injectable()
export class BadgesRepository {
  constructor(private readonly db: Database) {}

  /** The catalogue, oldest first. */
  list(options: ListOptions): Promise<[BadgeEntity[], number]> {
    return this.db.manager.findAndCount(BadgeEntity, {
      order: { id: 'ASC' },
      skip: (options.page - 1) * options.limit,
      take: options.limit,
    });
  }

  findBySlug(slug: string, manager?: EntityManager): Promise<BadgeEntity | null> {
    return this.db.findOneBy(BadgeEntity, { slug }, manager);
  }

  findBySlugs(manager: EntityManager, slugs: string[]): Promise<BadgeEntity[]> {
    return slugs.length === 0
      ? Promise.resolve([])
      : manager.find(BadgeEntity, { where: { slug: In(slugs) } });
  }

  insert(
    manager: EntityManager,
    badge: Pick<BadgeEntity, 'slug' | 'description' | 'imageUrl'>,
  ): Promise<BadgeEntity> {
    return manager.save(BadgeEntity, manager.create(BadgeEntity, badge));
  }

  async update(
    manager: EntityManager,
    id: number,
    changes: Partial<Pick<BadgeEntity, 'description' | 'imageUrl'>>,
  ): Promise<void> {
    if (Object.keys(changes).length > 0) await manager.update(BadgeEntity, { id }, changes);
  }

  /** The badge and every user's holding of it (Gitea's DeleteBadge). */
  async delete(manager: EntityManager, id: number): Promise<void> {
    await manager.delete(UserBadgeEntity, { badgeId: id });
    await manager.delete(BadgeEntity, { id });
  }

  /** A user's badges in the order they were given. */
  ofUser(userId: number): Promise<BadgeEntity[]> {
    return this.db.manager
      .createQueryBuilder(BadgeEntity, 'b')
      .innerJoin(UserBadgeEntity, 'ub', 'ub.badge_id = b.id')
      .where('ub.user_id = :userId', { userId })
      .orderBy('ub.id', 'ASC')
      .getMany();
  }

  /** Which of `badgeIds` the user has. */
  async heldBy(manager: EntityManager, userId: number, badgeIds: number[]): Promise<Set<number>> {
    if (badgeIds.length === 0) return new Set();
    const rows = await manager.find(UserBadgeEntity, { where: { userId, badgeId: In(badgeIds) } });
    return new Set(rows.map((r) => r.badgeId));
  }

  async give(manager: EntityManager, userId: number, badgeIds: number[]): Promise<void> {
    if (badgeIds.length > 0)
      await manager.insert(
        UserBadgeEntity,
        badgeIds.map((badgeId) => ({ userId, badgeId })),
      );
  }

  async take(manager: EntityManager, userId: number, badgeIds: number[]): Promise<void> {
    if (badgeIds.length > 0) await manager.delete(UserBadgeEntity, { userId, badgeId: In(badgeIds) });
  }
}
