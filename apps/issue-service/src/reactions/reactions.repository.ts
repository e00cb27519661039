import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import type { ListOptions } from '@gitforge/contracts';
import { Database } from '@gitforge/platform';
import { ReactionEntity } from './reaction.entity.js';

/** The reactions of an issue itself (`commentId` 0) or of one of its comments. */
export interface ReactionTarget {
  issueId: number;
  commentId: number;
}

@Injectable()
export class ReactionsRepository {
  constructor(private readonly db: Database) {}

  /** Oldest first, of the given contents only; one page when options are given, else all. */
  list(
    target: ReactionTarget,
    types: readonly string[],
    options?: ListOptions,
  ): Promise<[ReactionEntity[], number]> {
    return this.db.manager.findAndCount(ReactionEntity, {
      where: { issueId: target.issueId, commentId: target.commentId, type: In([...types]) },
      order: { createdAt: 'ASC', id: 'ASC' },
      ...(options ? { skip: (options.page - 1) * options.limit, take: options.limit } : {}),
    });
  }

  find(
    target: ReactionTarget,
    userId: number,
    type: string,
    m?: EntityManager,
  ): Promise<ReactionEntity | null> {
    return this.db.findOneBy(ReactionEntity, { ...target, userId, type, originalAuthorId: 0 }, m);
  }

  /** Adds the reaction unless the user already gave it; the row either way, and whether it is new. */
  async add(
    m: EntityManager,
    target: ReactionTarget,
    userId: number,
    type: string,
    at: Date,
  ): Promise<{ row: ReactionEntity; created: boolean }> {
    const existing = await this.find(target, userId, type, m);
    if (existing) return { row: existing, created: false };
    // A concurrent twin is ignored by the unique index rather than failing the request.
    await m
      .createQueryBuilder()
      .insert()
      .into(ReactionEntity)
      .values({ ...target, userId, type, originalAuthorId: 0, originalAuthor: '', createdAt: at })
      .orIgnore()
      .execute();
    return { row: (await this.find(target, userId, type, m))!, created: true };
  }

  async remove(m: EntityManager, target: ReactionTarget, userId: number, type: string): Promise<void> {
    await m.delete(ReactionEntity, { ...target, userId, type, originalAuthorId: 0 });
  }

  async deleteForComment(m: EntityManager, commentId: number): Promise<void> {
    await m.delete(ReactionEntity, { commentId });
  }

  async deleteForIssues(m: EntityManager, issueIds: number[]): Promise<void> {
    await m.delete(ReactionEntity, { issueId: In(issueIds) });
  }
}
