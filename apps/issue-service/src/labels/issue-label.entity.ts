import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'issue_label' })
@Index('uq_issue_label', ['issueId', 'labelId'], { unique: true })
export class IssueLabelEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  issueId!: number;

  @Column({ type: 'integer' })
  labelId!: number;
}
