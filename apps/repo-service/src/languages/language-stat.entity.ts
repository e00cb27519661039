import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** A repository's language statistics, for the commit of its default branch they were computed at. */
@Entity({ name: 'language_stat' })
export class LanguageStatEntity {
  @PrimaryColumn({ type: 'integer' })
  repoId!: number;

  @Column({ type: 'varchar', length: 64 })
  commitId!: string;

  /** Bytes per language. */
  @Column({ type: 'simple-json' })
  sizes!: Record<string, number>;

  @TimestampColumn()
  updatedAt!: Date;
}
