import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The last status index given out per commit (Gitea's resource index). Taking the next one
 * updates this row first, so concurrent reports on one commit take turns instead of colliding.
 */
@Entity({ name: 'commit_status_index' })
export class CommitStatusIndexEntity {
  @PrimaryColumn({ type: 'integer' })
  repoId!: number;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  sha!: string;

  @Column({ type: 'integer' })
  maxIndex!: number;
}
