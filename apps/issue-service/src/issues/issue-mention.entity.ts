import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A user mentioned (`@login`) in an issue's body or one of its comments (Gitea's issue_user.is_mentioned). */
@Entity({ name: 'issue_mention' })
@Index('uq_issue_mention', ['issueId', 'userId'], { unique: true })
export class IssueMentionEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  issueId!: number;

  @Column({ type: 'integer' })
  userId!: number;
}
