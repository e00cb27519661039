import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import type { ListOptions } from '@gitforge/contracts';
import { Database } from '@gitforge/platform';
import { IssueWatchEntity } from './issue-watch.entity.js';

@Injectable()
export class IssueWatchesRepository {
  constructor(private readonly db: Database) {}

  find(issueId: number, userId: number, m?: EntityManager): Promise<IssueWatchEntity | null> {
    return this.db.findOneBy(IssueWatchEntity, { issueId, userId }, m);
  }

  /** Every explicit choice made about the issue. */
  choices(issueId: number): Promise<IssueWatchEntity[]> {
    return this.db.manager.find(IssueWatchEntity, { where: { issueId } });
  }

  /** One page of the users subscribed to an issue (in subscription order) and their number. */
  watching(issueId: number, options: ListOptions): Promise<[IssueWatchEntity[], number]> {
    return this.db.manager.findAndCount(IssueWatchEntity, {
      where: { issueId, isWatching: true },
      order: { id: 'ASC' },
      skip: (options.page - 1) * options.limit,
      take: options.limit,
    });
  }

  /** Records the user's choice, replacing an earlier one (one statement, so concurrent choices cannot collide). */
  async set(m: EntityManager, issueId: number, userId: number, isWatching: boolean, at: Date): Promise<void> {
    await m
      .createQueryBuilder()
      .insert()
      .into(IssueWatchEntity)
      .values({ issueId, userId, isWatching, createdAt: at, updatedAt: at })
      .orUpdate(['is_watching', 'updated_at'], ['issue_id', 'user_id'])
      .execute();
  }

  async deleteForIssues(m: EntityManager, issueIds: number[]): Promise<void> {
    await m.delete(IssueWatchEntity, { issueId: In(issueIds) });
  }
}
