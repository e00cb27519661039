import { Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** A user's star on a repository (Gitea's `star`). */
@Entity({ name: 'star' })
export class StarEntity {
  @PrimaryColumn({ type: 'integer' })
  userId!: number;

  @PrimaryColumn({ type: 'integer' })
  repoId!: number;

  @TimestampColumn()
  createdAt!: Date;
}
