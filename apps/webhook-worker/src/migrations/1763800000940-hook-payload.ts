import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/**
 * hook_payload: the payload a fan-out's tasks share, stored once per batch rather than once per
 * hook (ten hooks made ten copies of every event, each compressed by PostgreSQL on its own).
 * hook_task.payload stays for the tasks made before, and is null on those made since.
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
    await this.setNullable(q, true);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE hook_task SET payload = (SELECT p.payload FROM hook_payload p WHERE p.batch = hook_task.batch) WHERE payload IS NULL`);
    await q.query(`UPDATE hook_task SET payload = '' WHERE payload IS NULL`);
    await this.setNullable(q, false);
    await q.dropTable('hook_payload');
  }

  private async setNullable(q: QueryRunner, nullable: boolean): Promise<void> {
    const table = (await q.getTable('hook_task'))!;
    const column = table.findColumnByName('payload')!;
    const changed = column.clone();
    changed.isNullable = nullable;
    await q.changeColumn(table, column, changed);
  }
}
