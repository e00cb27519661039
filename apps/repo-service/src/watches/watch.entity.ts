import { Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** A user watching a repository (Gitea's `watch` in its normal mode): who repository notifications reach. */
@Entity({ name: 'watch' })
export class WatchEntity {
  @PrimaryColumn({ type: 'integer' })
  userId!: number;

  @PrimaryColumn({ type: 'integer' })
  repoId!: number;

  @TimestampColumn()
  createdAt!: Date;
}
