import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'issue_assignee' })
@Index('uq_issue_assignee', ['issueId', 'assigneeId'], { unique: true })
export class IssueAssigneeEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  issueId!: number;

  @Column({ type: 'integer' })
  assigneeId!: number;
}
