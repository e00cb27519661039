import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/**
 * hook_payload: the payload a fan-out's tasks share, stored once per batch rather than once per
 * hook (ten hooks made ten copies of every event, each compressed by PostgreSQL on its own).
 * hook_task.payload stays as it is for the tasks made before, and is empty on those made since:
 * left NOT NULL, so SQLite need not rebuild the table (which would let it hand out the ids of
 * deleted tasks again, and a retry job named by such an id is taken for one already done).
 */
export class HookPayload1763800000940 implements MigrationInterface {
  name = 'HookPayload1763800000940';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'hook_payload',
        columns: [
          col.varchar('batch', 36, { isPrimary: true }),
          col.varchar('event_id', 64),
          col.text('payload'),
          col.timestamp('created_at'),
        ],
      }),
    );
    await q.createIndex('hook_payload', new TableIndex({ name: 'idx_hook_payload_created', columnNames: ['created_at'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE hook_task SET payload = COALESCE((SELECT p.payload FROM hook_payload p WHERE p.batch = hook_task.batch), '') WHERE payload = ''`,
    );
    await q.dropTable('hook_payload');
  }
}
