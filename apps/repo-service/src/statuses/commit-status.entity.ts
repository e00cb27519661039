import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** One status reported for one commit (Gitea's commit_status). */
@Entity({ name: 'commit_status' })
@Index('uq_commit_status_index', ['repoId', 'sha', 'idx'], { unique: true })
export class CommitStatusEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  repoId!: number;

  /** Sequence number within (repository, sha): the `id` the API shows. */
  @Column({ type: 'integer' })
  idx!: number;

  @Column({ type: 'varchar', length: 64 })
  sha!: string;

  @Column({ type: 'varchar', length: 10 })
  state!: string;

  @Column({ type: 'text' })
  targetUrl!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'text' })
  context!: string;

  /** sha1 of the context: contexts are grouped by it (the latest status per context). */
  @Column({ type: 'varchar', length: 64 })
  contextHash!: string;

  @Column({ type: 'integer' })
  creatorId!: number;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn()
  updatedAt!: Date;
}
