import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/**
 * One row of an issue's history (Gitea's comment table): a plain comment, or an event such as a
 * close or reopen, told apart by `type` (CommentType).
 */
@Entity({ name: 'comment' })
@Index('idx_comment_issue_created', ['issueId', 'createdAt'])
export class CommentEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer', default: 0 })
  type!: number;

  @Column({ type: 'integer' })
  issueId!: number;

  @Column({ type: 'integer' })
  posterId!: number;

  @Column({ type: 'varchar', length: 255, default: '' })
  originalAuthor!: string;

  @Column({ type: 'integer', default: 0 })
  originalAuthorId!: number;

  @Column({ type: 'text', default: '' })
  content!: string;

  @Column({ type: 'integer', default: 0 })
  contentVersion!: number;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn()
  updatedAt!: Date;
}
