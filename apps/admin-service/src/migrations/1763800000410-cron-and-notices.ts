import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

export class CronAndNotices1763800000410 implements MigrationInterface {
  name = 'CronAndNotices1763800000410';

  async up(q: QueryRunner): Promise<void> {
    // One row per scheduled task, shared by every admin-service replica: the run counter, the last
    // start, and the lease of the run in progress (token and heartbeat), so a task runs once at a time.
    await q.createTable(
      new Table({
        name: 'cron_task',
        columns: [
          col.varchar('name', 64, { isPrimary: true }),
          col.int('exec_times', { default: 0 }),
          col.timestamp('prev_at', { isNullable: true }),
          col.varchar('running_token', 36, { isNullable: true }),
          col.timestamp('heartbeat_at', { isNullable: true }),
        ],
      }),
    );
    // Gitea's `notice` table: what the forge tells its administrators (failed health checks, task errors).
    await q.createTable(
      new Table({
        name: 'system_notice',
        columns: [col.id(), col.int('type'), col.text('description'), col.timestamp('created_at')],
      }),
    );
    await q.createIndex(
      'system_notice',
      new TableIndex({ name: 'idx_system_notice_created', columnNames: ['created_at'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('system_notice');
    await q.dropTable('cron_task');
  }
}
