import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** `issueId` cannot close while `dependencyId` is open (Gitea's issue_dependency). */
@Entity({ name: 'issue_dependency' })
@Index('uq_issue_dependency', ['issueId', 'dependencyId'], { unique: true })
export class IssueDependencyEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  issueId!: number;

  @Column({ type: 'integer' })
  dependencyId!: number;

  @Column({ type: 'integer' })
  creatorId!: number;

  @TimestampColumn()
  createdAt!: Date;
}
