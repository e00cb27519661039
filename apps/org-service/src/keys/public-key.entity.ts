import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** A user's SSH key (Gitea's `public_key` of type user). */
@Entity({ name: 'public_key' })
export class PublicKeyEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  ownerId!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** Unique across users: one key authenticates one account. */
  @Column({ type: 'varchar', length: 255 })
  fingerprint!: string;

  @Column({ type: 'text' })
  content!: string;

  @TimestampColumn()
  createdAt!: Date;

  /** Gitea's `updated_unix`, answered as `last_used_at`; the SSH server will touch it. */
  @TimestampColumn()
  updatedAt!: Date;
}
