import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn, TimestampColumn } from '@gitforge/platform';

/** Gitea's NotificationStatus values. */
export const NotificationStatus = { unread: 1, read: 2, pinned: 3 } as const;
export type NotificationStatusValue = (typeof NotificationStatus)[keyof typeof NotificationStatus];

/** Gitea's NotificationSource values. */
export const NotificationSource = { issue: 1, pull: 2, commit: 3, repository: 4 } as const;
export type NotificationSourceValue = (typeof NotificationSource)[keyof typeof NotificationSource];

/**
 * One notification thread: one user and one subject (an issue or pull, a commit, a repository),
 * Gitea's notification row. The subject's title, state and URLs are kept on the row as the latest
 * event told them (a read model); `snapshot_at` keeps an older event from overwriting a newer one.
 */
@Entity({ name: 'notification' })
@Index('uq_notification_user_subject', ['userId', 'subjectKey'], { unique: true })
export class NotificationEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  userId!: number;

  @Column({ type: 'integer' })
  repoId!: number;

  @Column({ type: 'integer' })
  source!: NotificationSourceValue;

  /** `issue:<id>`, `commit:<repo id>:<sha>` or `repo:<id>`: what the thread is about, unique per user. */
  @Column({ type: 'varchar', length: 120 })
  subjectKey!: string;

  @Column({ type: 'integer' })
  status!: NotificationStatusValue;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'varchar', length: 10 })
  state!: string;

  @Column({ type: 'text' })
  subjectUrl!: string;

  @Column({ type: 'text' })
  subjectHtmlUrl!: string;

  @Column({ type: 'text' })
  latestCommentUrl!: string;

  @Column({ type: 'text' })
  latestCommentHtmlUrl!: string;

  /** When the event that last wrote the subject's fields happened (epoch ms). */
  @BigIntColumn()
  snapshotAt!: number;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn()
  updatedAt!: Date;
}

/** The events the projector has applied: claimed in the transaction that writes their threads, so a replay changes nothing. */
@Entity({ name: 'notification_event' })
export class NotificationEventEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  eventId!: string;

  @TimestampColumn()
  createdAt!: Date;
}
