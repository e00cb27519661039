import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn, TimestampColumn } from '@gitforge/platform';

/** A package of an owner (user or organization): one name of one type, with its versions (Gitea's package). */
@Entity({ name: 'package' })
@Index('uq_package_owner_type_name', ['ownerId', 'type', 'lowerName'], { unique: true })
export class PackageEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  ownerId!: number;

  /** The linked repository, 0 when none. */
  @Column({ type: 'integer' })
  repoId!: number;

  @Column({ type: 'varchar', length: 32 })
  type!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 255 })
  lowerName!: string;

  @TimestampColumn()
  createdAt!: Date;
}

/** One version of a package; `metadata` is the registry's own JSON about it (npm: the version's manifest). */
@Entity({ name: 'package_version' })
@Index('uq_package_version', ['packageId', 'lowerVersion'], { unique: true })
export class PackageVersionEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  packageId!: number;

  @Column({ type: 'integer' })
  creatorId!: number;

  @Column({ type: 'varchar', length: 255 })
  version!: string;

  @Column({ type: 'varchar', length: 255 })
  lowerVersion!: string;

  @Column({ type: 'text' })
  metadata!: string;

  @TimestampColumn()
  createdAt!: Date;
}

/** A file of a version; its bytes are a content-addressed blob shared by every file with the same bytes. */
@Entity({ name: 'package_file' })
@Index('uq_package_file', ['versionId', 'lowerName'], { unique: true })
export class PackageFileEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  versionId!: number;

  @Column({ type: 'integer' })
  @Index('ix_package_file_blob')
  blobId!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 255 })
  lowerName!: string;

  @TimestampColumn()
  createdAt!: Date;
}

/**
 * Stored bytes, once per sha256 (Gitea's package_blob): the BlobStore key is
 * `packages/{xx}/{uuid}` ({@link packageBlobKey}), written before the row; a blob no file
 * references any more is dropped with its last file or by the cleanup_packages task, which also
 * drops stored bytes no row names.
 */
@Entity({ name: 'package_blob' })
export class PackageBlobEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 64 })
  @Index('uq_package_blob_sha256', { unique: true })
  sha256!: string;

  @Column({ type: 'varchar', length: 40 })
  @Index('uq_package_blob_uuid', { unique: true })
  uuid!: string;

  @BigIntColumn()
  size!: number;

  @Column({ type: 'varchar', length: 32 })
  md5!: string;

  @Column({ type: 'varchar', length: 40 })
  sha1!: string;

  @Column({ type: 'varchar', length: 128 })
  sha512!: string;

  @TimestampColumn()
  createdAt!: Date;
}

/** A named pointer of a package to one of its versions (npm's dist-tags, `latest` among them). */
@Entity({ name: 'package_tag' })
@Index('uq_package_tag', ['packageId', 'tag'], { unique: true })
export class PackageTagEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  packageId!: number;

  @Column({ type: 'varchar', length: 255 })
  tag!: string;

  @Column({ type: 'integer' })
  versionId!: number;
}

/** The store's kind for package bytes: every blob key starts with it. */
export const PACKAGE_BLOB_PREFIX = 'packages';
export const packageBlobKey = (uuid: string): string => `${PACKAGE_BLOB_PREFIX}/${uuid.slice(0, 2)}/${uuid}`;
