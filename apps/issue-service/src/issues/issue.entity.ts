import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn, TimestampColumn } from '@gitforge/platform';

/** An issue or the issue side of a pull request (Gitea's issue table); `idx` is its number. */
@Entity({ name: 'issue' })
@Index('uq_issue_repo_index', ['repoId', 'idx'], { unique: true })
export class IssueEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  repoId!: number;

  @Column({ type: 'integer' })
  idx!: number;

  @Column({ type: 'integer' })
  posterId!: number;

  @Column({ type: 'varchar', length: 255, default: '' })
  originalAuthor!: string;

  @Column({ type: 'integer', default: 0 })
  originalAuthorId!: number;

  @Column({ type: 'varchar', length: 255 })
  title!: string;

  @Column({ type: 'text', default: '' })
  body!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  ref!: string;

  /** 0: none. */
  @Column({ type: 'integer', default: 0 })
  milestoneId!: number;

  @Column({ type: 'boolean', default: false })
  isPull!: boolean;

  @Column({ type: 'boolean', default: false })
  isClosed!: boolean;

  @Column({ type: 'boolean', default: false })
  isLocked!: boolean;

  @Column({ type: 'integer', default: 0 })
  numComments!: number;

  @Column({ type: 'integer', default: 0 })
  contentVersion!: number;

  /** 0: not pinned; pinned issues are ordered 1, 2, … per repository and kind. */
  @Column({ type: 'integer', default: 0 })
  pinOrder!: number;

  /** Seconds (Gitea's time_estimate). */
  @BigIntColumn({ default: 0 })
  timeEstimate!: number;

  @TimestampColumn({ nullable: true })
  deadline!: Date | null;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn()
  updatedAt!: Date;

  @TimestampColumn({ nullable: true })
  closedAt!: Date | null;
}
