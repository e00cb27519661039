import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** Gitea's milestone; its open and closed issue counts are counted when read, never stored. */
@Entity({ name: 'milestone' })
export class MilestoneEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  repoId!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text', default: '' })
  content!: string;

  @Column({ type: 'boolean', default: false })
  isClosed!: boolean;

  @TimestampColumn({ nullable: true })
  deadline!: Date | null;

  @TimestampColumn({ nullable: true })
  closedAt!: Date | null;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn()
  updatedAt!: Date;
}
