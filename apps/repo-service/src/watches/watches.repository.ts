import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ListOptions } from '@gitforge/contracts';
import { Database } from '@gitforge/platform';
import { RepositoryEntity } from '../records/repository.entity.js';
import { lockRepositoryRow, lockRepositoryToAdd } from '../stars/stars.repository.js';
import { WatchEntity } from './watch.entity.js';

/** Watches, and the repository's num_watches recounted from them in the same transaction. */
@Injectable()
export class WatchesRepository {
  constructor(private readonly db: Database) {}

  /** Adds the watch unless it is there (a repeated PUT changes nothing). */
  async add(m: EntityManager, userId: number, repoId: number): Promise<void> {
    await lockRepositoryToAdd(this.db, m, repoId);
    await m.createQueryBuilder().insert().into(WatchEntity).values({ userId, repoId, createdAt: new Date() }).orIgnore().execute();
    await this.recount(m, repoId);
  }

  async remove(m: EntityManager, userId: number, repoId: number): Promise<void> {
    await m.delete(WatchEntity, { userId, repoId });
    await this.recount(m, repoId);
  }

  /** A deleted user's watches go with it (Gitea's DeleteUser): each repository it watched counts one less. */
  async removeAllOfUser(m: EntityManager, userId: number): Promise<void> {
    const watched = await m.find(WatchEntity, { select: { repoId: true }, where: { userId }, order: { repoId: 'ASC' } });
    await m.delete(WatchEntity, { userId });
    for (const w of watched) await this.recount(m, w.repoId);
  }

  async has(userId: number, repoId: number): Promise<boolean> {
    return (await this.db.manager.countBy(WatchEntity, { userId, repoId })) > 0;
  }

  /** A page of the users who watch a repository, earliest first (Gitea's GetRepoWatchers). */
  async subscribers(repoId: number, options: ListOptions): Promise<[number[], number]> {
    const [rows, total] = await this.db.manager.findAndCount(WatchEntity, {
      where: { repoId },
      order: { createdAt: 'ASC', userId: 'ASC' },
      skip: (options.page - 1) * options.limit,
      take: options.limit,
    });
    return [rows.map((r) => r.userId), total];
  }

  /** Every watcher of a repository (who its notifications reach), for the notification projector. */
  async watcherIds(repoId: number): Promise<number[]> {
    const rows = await this.db.manager.find(WatchEntity, { select: { userId: true }, where: { repoId } });
    return rows.map((r) => r.userId);
  }

  private async recount(m: EntityManager, repoId: number): Promise<void> {
    await lockRepositoryRow(this.db, m, repoId);
    await m
      .createQueryBuilder()
      .update(RepositoryEntity)
      .set({ numWatches: () => '(SELECT COUNT(*) FROM watch WHERE watch.repo_id = :repoId)' })
      .where('id = :repoId', { repoId })
      .execute();
  }
}
