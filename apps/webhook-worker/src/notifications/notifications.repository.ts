import { Injectable } from '@nestjs/common';
import { In, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import type { ListOptions } from '@gitforge/contracts';
import { chunksOf, Database } from '@gitforge/platform';
import {
  NotificationEntity,
  NotificationEventEntity,
  NotificationStatus,
  type NotificationSourceValue,
  type NotificationStatusValue,
} from './notification.entity.js';

/** A subject as an event shows it: what every thread about it displays. */
export interface SubjectSnapshot {
  repoId: number;
  source: NotificationSourceValue;
  subjectKey: string;
  title: string;
  state: string;
  subjectUrl: string;
  subjectHtmlUrl: string;
  latestCommentUrl: string;
  latestCommentHtmlUrl: string;
  /** When the event happened (epoch ms). */
  at: number;
}

/** Which of a user's threads a list or a bulk change takes, before the viewer's access is applied. */
export interface ThreadFilter {
  userId: number;
  repoId?: number;
  statuses?: NotificationStatusValue[];
  sources?: NotificationSourceValue[];
  /** updated_at >= since (epoch ms). */
  since?: number;
  /** updated_at <= before (epoch ms). */
  before?: number;
}

const THREAD_COLUMNS = [
  'user_id',
  'repo_id',
  'source',
  'subject_key',
  'status',
  'title',
  'state',
  'subject_url',
  'subject_html_url',
  'latest_comment_url',
  'latest_comment_html_url',
  'snapshot_at',
  'created_at',
  'updated_at',
] as const;

/** Rows per statement: 14 parameters each stays far below SQLite's and PostgreSQL's limits. */
const ROWS_PER_STATEMENT = 500;

@Injectable()
export class NotificationsRepository {
  constructor(private readonly db: Database) {}

  private p(i: number): string {
    return this.db.sql.param(i);
  }

  /**
   * Serialises the events about one subject (PostgreSQL; SQLite runs one writer at a time): two
   * events writing threads for different users and then refreshing every thread of the subject
   * would otherwise each wait for rows the other holds (a deadlock).
   */
  async lockSubject(m: EntityManager, subjectKey: string): Promise<void> {
    await this.db.sql.lockForTransaction(m, `gitforge:notification:${subjectKey}`);
  }

  /** Records the event as applied; false when it already was (a replay), in which case nothing else is written. */
  async claimEvent(m: EntityManager, eventId: string): Promise<boolean> {
    if (await m.findOne(NotificationEventEntity, { where: { eventId } })) return false;
    // Two workers applying the same event at once: one insert fails, its transaction rolls back, and the retry finds the claim.
    await m.insert(NotificationEventEntity, { eventId, createdAt: new Date() });
    return true;
  }

  /**
   * The projector's batch writer: one thread per user about the subject, in multi-row upserts.
   * A new thread is unread; an existing read one turns unread again, a pinned or unread one stays
   * as it is; either way it moves to the top (Gitea's updateIssueNotification).
   */
  async writeThreads(m: EntityManager, subject: SubjectSnapshot, userIds: number[], now: Date): Promise<void> {
    for (const slice of chunksOf(userIds, ROWS_PER_STATEMENT)) {
      const { sql, values } = this.insertStatement(subject, slice, now);
      await m.query(
        `${sql} ON CONFLICT (user_id, subject_key) DO UPDATE SET
           status = CASE WHEN notification.status = ${NotificationStatus.read} THEN ${NotificationStatus.unread} ELSE notification.status END,
           updated_at = excluded.updated_at`,
        values,
      );
    }
  }

  /** The same rows as {@link writeThreads} as plain inserts, no conflict handling: the benchmark's reference. */
  async insertPlain(m: EntityManager, subject: SubjectSnapshot, userIds: number[], now: Date): Promise<void> {
    for (const slice of chunksOf(userIds, ROWS_PER_STATEMENT)) {
      const { sql, values } = this.insertStatement(subject, slice, now);
      await m.query(sql, values);
    }
  }

  private insertStatement(subject: SubjectSnapshot, userIds: number[], now: Date): { sql: string; values: unknown[] } {
    const values: unknown[] = [];
    const rows = userIds.map((userId) => {
      const start = values.length;
      values.push(
        userId,
        subject.repoId,
        subject.source,
        subject.subjectKey,
        NotificationStatus.unread,
        subject.title,
        subject.state,
        subject.subjectUrl,
        subject.subjectHtmlUrl,
        subject.latestCommentUrl,
        subject.latestCommentHtmlUrl,
        subject.at,
        now.getTime(),
        now.getTime(),
      );
      return `(${THREAD_COLUMNS.map((_, i) => this.p(start + i + 1)).join(', ')})`;
    });
    return { sql: `INSERT INTO notification (${THREAD_COLUMNS.join(', ')}) VALUES ${rows.join(', ')}`, values };
  }

  /** Every thread about the subject shows it as the event did, unless a later event already wrote it. */
  async refreshSubject(m: EntityManager, s: SubjectSnapshot): Promise<void> {
    await m
      .createQueryBuilder()
      .update(NotificationEntity)
      .set({
        title: s.title,
        state: s.state,
        subjectUrl: s.subjectUrl,
        subjectHtmlUrl: s.subjectHtmlUrl,
        latestCommentUrl: s.latestCommentUrl,
        latestCommentHtmlUrl: s.latestCommentHtmlUrl,
        snapshotAt: s.at,
      })
      .where('subject_key = :key AND snapshot_at <= :at', { key: s.subjectKey, at: s.at })
      .execute();
  }

  /**
   * Threads written by an event older than what other threads of the subject already show (a
   * retried job applied after a newer event) take the newest snapshot, so no thread shows a state
   * the subject has left.
   */
  async adoptNewestSnapshot(m: EntityManager, s: SubjectSnapshot): Promise<void> {
    const newest = await m
      .createQueryBuilder(NotificationEntity, 'n')
      .where('n.subject_key = :key AND n.snapshot_at > :at', { key: s.subjectKey, at: s.at })
      .orderBy('n.snapshot_at', 'DESC')
      .getOne();
    if (!newest) return;
    await this.refreshSubject(m, {
      ...s,
      title: newest.title,
      state: newest.state,
      subjectUrl: newest.subjectUrl,
      subjectHtmlUrl: newest.subjectHtmlUrl,
      latestCommentUrl: newest.latestCommentUrl,
      latestCommentHtmlUrl: newest.latestCommentHtmlUrl,
      at: Number(newest.snapshotAt),
    });
  }

  async deleteForSubject(m: EntityManager, subjectKey: string): Promise<void> {
    await m.delete(NotificationEntity, { subjectKey });
  }

  async deleteForRepo(m: EntityManager, repoId: number): Promise<void> {
    await m.delete(NotificationEntity, { repoId });
  }

  findById(id: number): Promise<NotificationEntity | null> {
    return this.db.manager.findOne(NotificationEntity, { where: { id } });
  }

  private query(f: ThreadFilter): SelectQueryBuilder<NotificationEntity> {
    const qb = this.db.manager.createQueryBuilder(NotificationEntity, 'n').where('n.user_id = :userId', { userId: f.userId });
    if (f.repoId !== undefined) qb.andWhere('n.repo_id = :repoId', { repoId: f.repoId });
    if (f.statuses) qb.andWhere(f.statuses.length > 0 ? 'n.status IN (:...statuses)' : '1 = 0', { statuses: f.statuses });
    if (f.sources) qb.andWhere(f.sources.length > 0 ? 'n.source IN (:...sources)' : '1 = 0', { sources: f.sources });
    if (f.since !== undefined) qb.andWhere('n.updated_at >= :since', { since: f.since });
    if (f.before !== undefined) qb.andWhere('n.updated_at <= :before', { before: f.before });
    return qb;
  }


  /** Newest first (Gitea's updated_unix DESC). */
  page(f: ThreadFilter, options: ListOptions): Promise<[NotificationEntity[], number]> {
    return this.query(f)
      .orderBy('n.updated_at', 'DESC')
      .addOrderBy('n.id', 'DESC')
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  all(f: ThreadFilter): Promise<NotificationEntity[]> {
    return this.query(f).orderBy('n.updated_at', 'DESC').addOrderBy('n.id', 'DESC').getMany();
  }

  count(f: ThreadFilter): Promise<number> {
    return this.query(f).getCount();
  }

  /** Sets the status of some threads (and moves them to the top, as Gitea's update does). */
  async setStatus(m: EntityManager, ids: number[], status: NotificationStatusValue, now: Date): Promise<void> {
    for (const slice of chunksOf(ids)) await m.update(NotificationEntity, { id: In(slice) }, { status, updatedAt: now });
  }
}
