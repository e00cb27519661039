import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { notFound, type ListOptions, type UserStarCount } from '@gitforge/contracts';
import { Database } from '@gitforge/platform';
import { RepositoryEntity } from '../records/repository.entity.js';
import { StarEntity } from './star.entity.js';
import { UserStarCountEntity } from './user-star-count.entity.js';

/**
 * Locks a repository's row until the transaction ends (PostgreSQL; SQLite runs one writer at a
 * time): its num_stars or num_watches is then counted by a statement that starts after any
 * concurrent change of the same repository committed. False when the repository is gone.
 */
export async function lockRepositoryRow(db: Database, m: EntityManager, repoId: number): Promise<boolean> {
  return (await m.findOne(RepositoryEntity, { select: { id: true }, where: { id: repoId }, ...db.sql.rowLock('pessimistic_write') })) !== null;
}

/** The repository's row locked before a star or watch is added: one deleted meanwhile takes none (404). */
export async function lockRepositoryToAdd(db: Database, m: EntityManager, repoId: number): Promise<void> {
  if (!(await lockRepositoryRow(db, m, repoId))) throw notFound();
}

/** Stars, and the repository's num_stars recounted from them in the same transaction. */
@Injectable()
export class StarsRepository {
  constructor(private readonly db: Database) {}

  /** Adds the star unless it is there (a repeated PUT changes nothing); answers the user's new count. */
  async add(m: EntityManager, userId: number, repoId: number): Promise<UserStarCount> {
    await lockRepositoryToAdd(this.db, m, repoId);
    await m.createQueryBuilder().insert().into(StarEntity).values({ userId, repoId, createdAt: new Date() }).orIgnore().execute();
    await this.recount(m, repoId);
    return this.countUser(m, userId);
  }

  async remove(m: EntityManager, userId: number, repoId: number): Promise<UserStarCount> {
    await m.delete(StarEntity, { userId, repoId });
    await this.recount(m, repoId);
    return this.countUser(m, userId);
  }

  /** A deleted repository's stars go with it (Gitea's DeleteRepository); answers its stargazers' new counts. */
  async removeAllOfRepo(m: EntityManager, repoId: number): Promise<UserStarCount[]> {
    // In user order, so two deletions lock their stargazers' counts in the same order.
    const gazers = await m.find(StarEntity, { select: { userId: true }, where: { repoId }, order: { userId: 'ASC' } });
    await m.delete(StarEntity, { repoId });
    const counts: UserStarCount[] = [];
    for (const g of gazers) counts.push(await this.countUser(m, g.userId));
    return counts;
  }

  /** A deleted user's stars go with it (Gitea's DeleteUser): each repository it starred counts one less. */
  async removeAllOfUser(m: EntityManager, userId: number): Promise<void> {
    const starred = await m.find(StarEntity, { select: { repoId: true }, where: { userId }, order: { repoId: 'ASC' } });
    await m.delete(StarEntity, { userId });
    for (const s of starred) await this.recount(m, s.repoId);
    await m.delete(UserStarCountEntity, { userId });
  }

  /** Counts the user's stars and moves their version on (the row lock orders concurrent changes of one user). */
  private async countUser(m: EntityManager, userId: number): Promise<UserStarCount> {
    const p = (i: number): string => this.db.sql.param(i);
    // Lock (or create) the user's row first, and count in the next statement: on PostgreSQL a
    // statement counts what was committed when it began, so a count taken in the statement that
    // waited for another transaction's lock would miss that transaction's star.
    await m.query(
      `INSERT INTO user_star_count (user_id, num_stars, version) VALUES (${p(1)}, 0, 1)
       ON CONFLICT (user_id) DO UPDATE SET version = user_star_count.version + 1`,
      [userId],
    );
    await m.query(`UPDATE user_star_count SET num_stars = (SELECT COUNT(*) FROM star WHERE star.user_id = ${p(1)}) WHERE user_id = ${p(2)}`, [userId, userId]);
    const row = await m.findOneOrFail(UserStarCountEntity, { where: { userId } });
    return { userId, numStars: row.numStars, version: row.version };
  }

  async has(userId: number, repoId: number): Promise<boolean> {
    return (await this.db.manager.countBy(StarEntity, { userId, repoId })) > 0;
  }

  /** A page of the users who starred a repository, earliest first (Gitea's GetStargazers). */
  async stargazers(repoId: number, options: ListOptions): Promise<[number[], number]> {
    const [rows, total] = await this.db.manager.findAndCount(StarEntity, {
      where: { repoId },
      order: { createdAt: 'ASC', userId: 'ASC' },
      skip: (options.page - 1) * options.limit,
      take: options.limit,
    });
    return [rows.map((r) => r.userId), total];
  }

  private async recount(m: EntityManager, repoId: number): Promise<void> {
    // The row lock first, the count in the next statement (which then sees concurrent stars that committed meanwhile).
    await lockRepositoryRow(this.db, m, repoId);
    await m
      .createQueryBuilder()
      .update(RepositoryEntity)
      .set({ numStars: () => '(SELECT COUNT(*) FROM star WHERE star.repo_id = :repoId)' })
      .where('id = :repoId', { repoId })
      .execute();
  }
}
