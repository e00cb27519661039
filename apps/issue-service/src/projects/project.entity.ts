import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** Gitea's project: a repository's (`repoId`) or an organization's (`ownerId`), never both. */
@Entity({ name: 'project' })
export class ProjectEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  title!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  @Column({ type: 'integer', default: 0 })
  ownerId!: number;

  @Column({ type: 'integer', default: 0 })
  repoId!: number;

  @Column({ type: 'integer' })
  creatorId!: number;

  @Column({ type: 'boolean', default: false })
  isClosed!: boolean;

  @Column({ type: 'varchar', length: 32, default: 'none' })
  templateType!: string;

  @Column({ type: 'varchar', length: 32, default: 'text_only' })
  cardType!: string;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn()
  updatedAt!: Date;

  @TimestampColumn({ nullable: true })
  closedAt!: Date | null;
}
