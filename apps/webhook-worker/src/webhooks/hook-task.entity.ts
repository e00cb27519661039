import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

export type HookTaskState = 'pending' | 'delivered' | 'failed';

/**
 * One event for one hook (Gitea's hook_task), written before anything is sent: unique on
 * (hook, event), so an event fanned out twice yields one task. `uuid` is the delivery id
 * (`X-Gitea-Delivery`) shared by its attempts.
 */
@Entity({ name: 'hook_task' })
@Index('idx_hook_task_event', ['eventId'])
export class HookTaskEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  hookId!: number;

  @Column({ type: 'varchar', length: 64 })
  eventId!: string;

  @Column({ type: 'varchar', length: 36 })
  uuid!: string;

  /** Gitea's hook event type (`push`, `issue_label`, …). */
  @Column({ type: 'varchar', length: 64 })
  eventType!: string;

  /**
   * The Gitea payload as sent to gitea/gogs hooks (JSON text); other hook types convert it. Empty
   * on tasks made since payloads are stored once per batch ({@link HookPayloadEntity}).
   */
  @Column({ type: 'text' })
  payload!: string;

  @Column({ type: 'integer', nullable: true })
  repoId!: number | null;

  @Column({ type: 'varchar', length: 16 })
  state!: HookTaskState;

  /**
   * The fan-out that made the task: the tasks one fan-out made for one event share it, their
   * payload and one delivery job. Null on tasks made before tasks were grouped (a job each).
   */
  @Column({ type: 'varchar', length: 36, nullable: true })
  batch!: string | null;

  @TimestampColumn()
  createdAt!: Date;
}

/** The payload the tasks of one batch (one fan-out of one event) share, stored once for them. */
@Entity({ name: 'hook_payload' })
@Index('idx_hook_payload_created', ['createdAt'])
export class HookPayloadEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  batch!: string;

  /** The event of the batch: a finished batch's tasks are found by it (see the retention job). */
  @Column({ type: 'varchar', length: 64 })
  eventId!: string;

  @Column({ type: 'text' })
  payload!: string;

  @TimestampColumn()
  createdAt!: Date;
}

/**
 * One delivery attempt (a GitHub "delivery"): recorded once its answer is in, with the request
 * sent and what came back.
 */
@Entity({ name: 'hook_delivery' })
export class HookDeliveryEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  taskId!: number;

  @Column({ type: 'integer' })
  hookId!: number;

  /** Job id and attempt number: a job that runs again after a crash writes its attempt's record, not a second one. */
  @Column({ type: 'varchar', length: 200 })
  attemptKey!: string;

  @Column({ type: 'varchar', length: 36 })
  guid!: string;

  /** The task's hook event type, and the payload's `action` when it has one (GitHub's `action`). */
  @Column({ type: 'varchar', length: 64 })
  eventType!: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  action!: string | null;

  @Column({ type: 'integer', nullable: true })
  repoId!: number | null;

  @Column({ type: 'boolean', default: false })
  redelivery!: boolean;

  @Column({ type: 'text' })
  url!: string;

  /** JSON object of the headers sent (Authorization masked). */
  @Column({ type: 'text', default: '{}' })
  requestHeaders!: string;

  /** The JSON sent (signed); null when it was the task's payload as stored, read from there. */
  @Column({ type: 'text', nullable: true })
  requestBody!: string | null;

  @Column({ type: 'integer', default: 0 })
  responseStatus!: number;

  @Column({ type: 'text', default: '{}' })
  responseHeaders!: string;

  @Column({ type: 'text', nullable: true })
  responseBody!: string | null;

  @Column({ type: 'integer', default: 0 })
  durationMs!: number;

  /** `sending` only on records of workers from before attempts were recorded once answered. */
  @Column({ type: 'varchar', length: 16 })
  outcome!: 'sending' | 'success' | 'failure' | 'refused';

  @Column({ type: 'text', default: '' })
  statusText!: string;

  /** When the attempt started. */
  @TimestampColumn()
  deliveredAt!: Date;
}
