import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from './columns.js';

/** The tables every service has: the idempotency record and the outbox. Runs before the service's own migrations. */
export class PlatformTables1763800000000 implements MigrationInterface {
  name = 'PlatformTables1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'processed_request',
        columns: [
          col.varchar('key', 100, { isPrimary: true }),
          col.text('result', { isNullable: true }),
          col.timestamp('created_at'),
        ],
      }),
    );
    await q.createIndex('processed_request', new TableIndex({ name: 'idx_processed_request_created', columnNames: ['created_at'] }));
    await q.createTable(
      new Table({
        name: 'outbox_event',
        columns: [
          col.id('seq'),
          col.varchar('event_id', 36),
          col.varchar('name', 100),
          col.text('envelope'),
          col.timestamp('created_at'),
          col.timestamp('sent_at', { isNullable: true }),
          col.timestamp('locked_until', { isNullable: true }),
          col.int('attempts', { default: 0 }),
          col.text('last_error', { isNullable: true }),
        ],
      }),
    );
    await q.createIndex('outbox_event', new TableIndex({ name: 'idx_outbox_event_event_id', columnNames: ['event_id'], isUnique: true }));
    await q.createIndex('outbox_event', new TableIndex({ name: 'idx_outbox_event_unsent', columnNames: ['sent_at', 'seq'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('outbox_event');
    await q.dropTable('processed_request');
  }
}
