import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from './columns.js';

/**
 * A transport request whose transaction committed: a retried request (claimed from a replica
 * that died before replying) finds it and answers the stored result instead of applying twice.
 */
@Entity({ name: 'processed_request' })
export class ProcessedRequestEntity {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  key!: string;

  @Column({ type: 'text', nullable: true })
  result!: string | null;

  @TimestampColumn()
  createdAt!: Date;
}

/** A domain event written in the same transaction as the change it describes. */
@Entity({ name: 'outbox_event' })
export class OutboxEventEntity {
  @PrimaryGeneratedColumn()
  seq!: number;

  @Index({ unique: true })
  @Column({ type: 'varchar', length: 36 })
  eventId!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  /** The whole EventEnvelope as JSON. */
  @Column({ type: 'text' })
  envelope!: string;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn({ nullable: true })
  sentAt!: Date | null;

  /** A relay replica holds the row until then; another may take it after. */
  @TimestampColumn({ nullable: true })
  lockedUntil!: Date | null;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ type: 'text', nullable: true })
  lastError!: string | null;
}

export const PlatformEntities = [ProcessedRequestEntity, OutboxEventEntity];
