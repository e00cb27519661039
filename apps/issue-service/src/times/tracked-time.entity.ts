import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn, TimestampColumn } from '@gitforge/platform';

/** Time a user spent on an issue (Gitea's tracked_time); deleting one only flags it, as Gitea does. */
@Entity({ name: 'tracked_time' })
@Index('idx_tracked_time_issue', ['issueId'])
@Index('idx_tracked_time_user', ['userId'])
export class TrackedTimeEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  issueId!: number;

  @Column({ type: 'integer' })
  userId!: number;

  /** Seconds; negative amounts take time off. */
  @BigIntColumn()
  time!: number;

  /** Whole seconds, as Gitea keeps it (since/before compare against it). */
  @TimestampColumn()
  createdAt!: Date;

  @Column({ type: 'boolean', default: false })
  deleted!: boolean;
}
