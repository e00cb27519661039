import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** A scheduled task's record, shared by the admin-service replicas (see the cron migration). */
@Entity({ name: 'cron_task' })
export class CronTaskEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ type: 'integer', default: 0 })
  execTimes!: number;

  @TimestampColumn({ nullable: true })
  prevAt!: Date | null;

  /** Set while a run holds the task; the run's own token, so only it can finish or renew. */
  @Column({ type: 'varchar', length: 36, nullable: true })
  runningToken!: string | null;

  @TimestampColumn({ nullable: true })
  heartbeatAt!: Date | null;
}
