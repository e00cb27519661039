import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** Tracked times and stopwatches of issues. */
export class Times1763800000304 implements MigrationInterface {
  name = 'Times1763800000304';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'tracked_time',
        columns: [col.id(), col.int('issue_id'), col.int('user_id'), col.bigint('time'), col.timestamp('created_at'), col.bool('deleted')],
      }),
    );
    await q.createIndex('tracked_time', new TableIndex({ name: 'idx_tracked_time_issue', columnNames: ['issue_id'] }));
    await q.createIndex('tracked_time', new TableIndex({ name: 'idx_tracked_time_user', columnNames: ['user_id'] }));

    await q.createTable(new Table({ name: 'stopwatch', columns: [col.id(), col.int('issue_id'), col.int('user_id'), col.timestamp('created_at')] }));
    await q.createIndex('stopwatch', new TableIndex({ name: 'uq_stopwatch_user_issue', columnNames: ['user_id', 'issue_id'], isUnique: true }));
    await q.createIndex('stopwatch', new TableIndex({ name: 'idx_stopwatch_issue', columnNames: ['issue_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('stopwatch');
    await q.dropTable('tracked_time');
  }
}
