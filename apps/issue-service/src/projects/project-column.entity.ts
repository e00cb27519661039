import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** A column of a project board (Gitea's project_board); one per project is the default. */
@Entity({ name: 'project_column' })
export class ProjectColumnEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  projectId!: number;

  @Column({ type: 'varchar', length: 255 })
  title!: string;

  /** Issues added without a column land here (`default` is a reserved word in SQL). */
  @Column({ type: 'boolean', default: false })
  isDefault!: boolean;

  @Column({ type: 'integer', default: 0 })
  sorting!: number;

  @Column({ type: 'varchar', length: 7, default: '' })
  color!: string;

  @Column({ type: 'integer' })
  creatorId!: number;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn()
  updatedAt!: Date;
}
