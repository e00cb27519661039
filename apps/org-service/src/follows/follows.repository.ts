import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FollowEntity } from './follow.entity.js';
import { UserEntity } from '../users/user.entity.js';

/** Follow rows and the follower/following counters they keep on `users`. */
@Injectable()
export class FollowsRepository {
  async add(m: EntityManager, userId: number, followId: number): Promise<void> {
    await m.insert(FollowEntity, { userId, followId, createdAt: new Date() });
    await m.increment(UserEntity, { id: followId }, 'numFollowers', 1);
    await m.increment(UserEntity, { id: userId }, 'numFollowing', 1);
  }

  async remove(m: EntityManager, userId: number, followId: number): Promise<void> {
    const res = await m.delete(FollowEntity, { userId, followId });
    if (!res.affected) return;
    await m.decrement(UserEntity, { id: followId }, 'numFollowers', 1);
    await m.decrement(UserEntity, { id: userId }, 'numFollowing', 1);
  }

  /** Removes every follow from and to `userId`, keeping the other side's counters right. */
  async removeAllOf(m: EntityManager, userId: number): Promise<void> {
    const rows = await m
      .createQueryBuilder(FollowEntity, 'f')
      .where('f.user_id = :userId OR f.follow_id = :userId', { userId })
      .getMany();
    for (const row of rows) await this.remove(m, row.userId, row.followId);
  }
}
