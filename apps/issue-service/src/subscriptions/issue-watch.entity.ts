import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/**
 * A user's explicit choice about one issue (Gitea's issue_watch): subscribed, or unsubscribed
 * even though they take part in it. Without a row, taking part decides.
 */
@Entity({ name: 'issue_watch' })
@Index('uq_issue_watch', ['userId', 'issueId'], { unique: true })
export class IssueWatchEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  userId!: number;

  @Column({ type: 'integer' })
  issueId!: number;

  @Column({ type: 'boolean' })
  isWatching!: boolean;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn()
  updatedAt!: Date;
}
