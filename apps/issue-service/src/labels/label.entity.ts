import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** A repository label (`repoId` set) or an organization label (`orgId` set), as Gitea's label table. */
@Entity({ name: 'label' })
export class LabelEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  /** 0 for an organization label. */
  @Column({ type: 'integer', default: 0 })
  repoId!: number;

  /** 0 for a repository label. */
  @Column({ type: 'integer', default: 0 })
  orgId!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'boolean', default: false })
  exclusive!: boolean;

  /** `#rrggbb`, lower case. */
  @Column({ type: 'varchar', length: 7 })
  color!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  @TimestampColumn({ nullable: true })
  archivedAt!: Date | null;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn()
  updatedAt!: Date;
}
