import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** Who may create, move or delete the tags a pattern matches (Gitea's protected_tag). */
@Entity({ name: 'protected_tag' })
export class TagProtectionEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  repoId!: number;

  /** A glob, or a regular expression between slashes. */
  @Column({ type: 'varchar', length: 255 })
  namePattern!: string;

  @Column({ type: 'simple-json' })
  allowlistUserIds!: number[];

  @Column({ type: 'simple-json' })
  allowlistTeamIds!: number[];

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn()
  updatedAt!: Date;
}
