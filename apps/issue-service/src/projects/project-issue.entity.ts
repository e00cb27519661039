import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An issue on a project board, in one of its columns (Gitea's project_issue); once per project. */
@Entity({ name: 'project_issue' })
@Index('uq_project_issue', ['projectId', 'issueId'], { unique: true })
export class ProjectIssueEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  projectId!: number;

  @Column({ type: 'integer' })
  issueId!: number;

  @Column({ type: 'integer' })
  columnId!: number;

  @Column({ type: 'integer', default: 0 })
  sorting!: number;
}
