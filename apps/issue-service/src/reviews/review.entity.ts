import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** Gitea's ReviewType, stored as its number. */
export const ReviewType = {
  pending: 0,
  approve: 1,
  comment: 2,
  reject: 3,
  /** A review requested of a user or a team (not yet given). */
  request: 4,
} as const;
export type ReviewType = (typeof ReviewType)[keyof typeof ReviewType];

/** A review of a pull request, or a request for one (Gitea's review table). */
@Entity({ name: 'review' })
@Index('idx_review_issue', ['issueId'])
@Index('idx_review_reviewer', ['reviewerId'])
export class ReviewEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  type!: number;

  /** 0 for a team's review request. */
  @Column({ type: 'integer', default: 0 })
  reviewerId!: number;

  @Column({ type: 'integer', default: 0 })
  reviewerTeamId!: number;

  @Column({ type: 'integer' })
  issueId!: number;

  @Column({ type: 'text', default: '' })
  content!: string;

  /** The reviewer's approval or rejection counts toward branch protection. */
  @Column({ type: 'boolean', default: false })
  official!: boolean;

  @Column({ type: 'varchar', length: 64, default: '' })
  commitId!: string;

  /** The head moved since the review. */
  @Column({ type: 'boolean', default: false })
  stale!: boolean;

  @Column({ type: 'boolean', default: false })
  dismissed!: boolean;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn()
  updatedAt!: Date;
}
