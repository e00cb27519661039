import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** A personal access token; only its SHA-256 is stored. */
@Entity({ name: 'access_token' })
export class AccessTokenEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  userId!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** Hex SHA-256 of the token: tokens are 160 random bits, so a fast hash is enough to keep them unusable if read. */
  @Column({ type: 'varchar', length: 64 })
  tokenHash!: string;

  @Column({ type: 'varchar', length: 8 })
  tokenLastEight!: string;

  /** Comma-separated, normalised scopes. */
  @Column({ type: 'varchar', length: 1024 })
  scopes!: string;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn({ nullable: true })
  lastUsedAt!: Date | null;
}
