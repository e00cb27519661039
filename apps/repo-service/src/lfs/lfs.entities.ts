import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn, TimestampColumn } from '@gitforge/platform';

/** A repository's reference to an LFS object (Gitea's `lfs_meta_object`); the bytes are in the BlobStore under lfsBlobKey(oid). */
@Entity({ name: 'lfs_meta_object' })
export class LfsMetaObjectEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  repoId!: number;

  @Column({ type: 'varchar', length: 64 })
  oid!: string;

  @BigIntColumn()
  size!: number;

  @TimestampColumn()
  createdAt!: Date;
}

/** A file lock of the LFS locking API (Gitea's `lfs_lock`). */
@Entity({ name: 'lfs_lock' })
export class LfsLockEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  repoId!: number;

  @Column({ type: 'integer' })
  ownerId!: number;

  @Column({ type: 'text' })
  path!: string;

  @TimestampColumn()
  createdAt!: Date;
}

/** Where an object's bytes are: one blob per oid, shared by every repository that references it. */
export const lfsBlobKey = (oid: string): string =>
  `lfs/${oid.slice(0, 2)}/${oid.slice(2, 4)}/${oid.slice(4)}`;
