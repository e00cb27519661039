import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { containsPattern, Database } from '@gitforge/platform';
import type { ListOptions } from '@gitforge/contracts';
import { TopicEntity } from './topic.entity.js';

/** The `topic` rows: which topics are in use and by how many repositories. */
@Injectable()
export class TopicsRepository {
  constructor(private readonly db: Database) {}

  /** Gitea's FindTopics: names containing the keyword, most used first. */
  search(keyword: string, options: ListOptions): Promise<[TopicEntity[], number]> {
    const qb = this.db.manager.createQueryBuilder(TopicEntity, 't');
    if (keyword !== '') qb.where(`LOWER(t.name) LIKE :kw ESCAPE '\\'`, { kw: containsPattern(keyword) });
    return qb
      .orderBy('t.repo_count', 'DESC')
      .addOrderBy('t.id', 'ASC')
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  /** Counts a repository's topic changes: `added` gain one repository, `removed` lose one (and go when none is left). */
  async recount(manager: EntityManager, added: string[], removed: string[]): Promise<void> {
    const now = new Date();
    for (const name of added) {
      // The row first if it is missing, then one more: two repositories taking a new topic at
      // once both count (a read-then-insert let the second one fail on the unique name).
      await manager.createQueryBuilder().insert().into(TopicEntity).values({ name, repoCount: 0, createdAt: now, updatedAt: now }).orIgnore().execute();
      const bumped = await manager.increment(TopicEntity, { name }, 'repoCount', 1);
      // A deletion of the last repository with it took the row in between: it starts again.
      if (bumped.affected === 0) await manager.insert(TopicEntity, { name, repoCount: 1, createdAt: now, updatedAt: now });
    }
    if (added.length > 0) await manager.update(TopicEntity, { name: In(added) }, { updatedAt: now });
    if (removed.length === 0) return;
    await manager.decrement(TopicEntity, { name: In(removed) }, 'repoCount', 1);
    await manager.delete(TopicEntity, { name: In(removed), repoCount: 0 });
  }
}
