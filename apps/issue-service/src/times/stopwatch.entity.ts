import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** A user's running stopwatch on an issue (Gitea's stopwatch); stopping it turns it into a tracked time. */
@Entity({ name: 'stopwatch' })
@Index('uq_stopwatch_user_issue', ['userId', 'issueId'], { unique: true })
@Index('idx_stopwatch_issue', ['issueId'])
export class StopwatchEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  issueId!: number;

  @Column({ type: 'integer' })
  userId!: number;

  @TimestampColumn()
  createdAt!: Date;
}
