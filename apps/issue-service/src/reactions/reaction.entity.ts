import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** A user's reaction to an issue (`commentId` 0) or to one of its comments (Gitea's reaction table). */
@Entity({ name: 'reaction' })
@Index('uq_reaction', ['type', 'issueId', 'commentId', 'userId', 'originalAuthorId', 'originalAuthor'], {
  unique: true,
})
export class ReactionEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  type!: string;

  @Column({ type: 'integer' })
  issueId!: number;

  @Column({ type: 'integer', default: 0 })
  commentId!: number;

  @Column({ type: 'integer' })
  userId!: number;

  @Column({ type: 'integer', default: 0 })
  originalAuthorId!: number;

  @Column({ type: 'varchar', length: 255, default: '' })
  originalAuthor!: string;

  @TimestampColumn()
  createdAt!: Date;
}
