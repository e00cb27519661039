import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/**
 * One public key used as a deploy key, shared by every repository that adds it (Gitea's
 * `public_key` row of type deploy): its id is the DeployKey's `key_id`.
 */
@Entity({ name: 'deploy_public_key' })
export class DeployPublicKeyEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  fingerprint!: string;

  @Column({ type: 'text' })
  content!: string;

  @TimestampColumn()
  createdAt!: Date;
}

/** A deploy key of one repository (Gitea's `deploy_key`). */
@Entity({ name: 'deploy_key' })
export class DeployKeyEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  keyId!: number;

  @Column({ type: 'integer' })
  repoId!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 255 })
  fingerprint!: string;

  @Column({ type: 'text' })
  content!: string;

  @Column({ type: 'boolean', default: false })
  readOnly!: boolean;

  @TimestampColumn()
  createdAt!: Date;
}
