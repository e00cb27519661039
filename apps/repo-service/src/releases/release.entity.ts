import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn, TimestampColumn } from '@gitforge/platform';

/**
 * A release (Gitea's release row without its tag-only twins: a tag without a release is only a
 * ref here). `sha` is the commit its tag pointed at when published ("" for a draft).
 */
@Entity({ name: 'release' })
@Index('uq_release_tag', ['repoId', 'lowerTagName'], { unique: true })
export class ReleaseEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  repoId!: number;

  @Column({ type: 'integer' })
  publisherId!: number;

  @Column({ type: 'varchar', length: 255 })
  tagName!: string;

  /** Tag names are unique per repository whatever their case, as Gitea's lower_tag_name. */
  @Column({ type: 'varchar', length: 255 })
  lowerTagName!: string;

  /** `target_commitish` as given (a branch, tag or commit id). */
  @Column({ type: 'varchar', length: 255 })
  target!: string;

  @Column({ type: 'varchar', length: 255 })
  title!: string;

  @Column({ type: 'text' })
  note!: string;

  @Column({ type: 'varchar', length: 64 })
  sha!: string;

  @Column({ type: 'boolean' })
  isDraft!: boolean;

  @Column({ type: 'boolean' })
  isPrerelease!: boolean;

  /** Gitea's CreatedUnix, the one time a release keeps (its API's created_at and published_at): set again when a draft is edited or published. */
  @TimestampColumn()
  createdAt!: Date;
}

/** A file attached to a release: its bytes in the BlobStore under `releases/{uuid}`. */
@Entity({ name: 'release_asset' })
export class ReleaseAssetEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 40 })
  @Index('uq_release_asset_uuid', { unique: true })
  uuid!: string;

  @Column({ type: 'integer' })
  @Index('ix_release_asset_release')
  releaseId!: number;

  @Column({ type: 'integer' })
  repoId!: number;

  @Column({ type: 'integer' })
  uploaderId!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @BigIntColumn()
  size!: number;

  @Column({ type: 'integer' })
  downloadCount!: number;

  @TimestampColumn()
  createdAt!: Date;
}

export const releaseAssetBlobKey = (uuid: string): string => `releases/${uuid}`;
