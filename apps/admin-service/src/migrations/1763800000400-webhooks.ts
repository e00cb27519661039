import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

export class Webhooks1763800000400 implements MigrationInterface {
  name = 'Webhooks1763800000400';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'webhook',
        columns: [
          col.id(),
          col.varchar('kind', 16),
          col.int('repo_id', { default: 0 }),
          col.int('owner_id', { default: 0 }),
          col.varchar('name', 255, { default: "''" }),
          col.varchar('type', 16),
          col.text('url'),
          col.varchar('http_method', 10, { default: "'POST'" }),
          col.varchar('content_type', 10),
          col.text('secret', { default: "''" }),
          col.text('events'),
          col.text('branch_filter', { default: "''" }),
          col.bool('is_active'),
          col.text('meta', { default: "'{}'" }),
          col.text('authorization_header', { default: "''" }),
          col.int('default_source_id', { isNullable: true }),
          col.timestamp('created_at'),
          col.timestamp('updated_at'),
        ],
      }),
    );
    await q.createIndex('webhook', new TableIndex({ name: 'idx_webhook_repo', columnNames: ['repo_id'] }));
    await q.createIndex('webhook', new TableIndex({ name: 'idx_webhook_owner', columnNames: ['owner_id'] }));
    await q.createIndex('webhook', new TableIndex({ name: 'idx_webhook_kind', columnNames: ['kind'] }));
    // One copy of a default hook per repository, however often the copy is requested.
    await q.createIndex(
      'webhook',
      new TableIndex({ name: 'uq_webhook_default_copy', columnNames: ['repo_id', 'default_source_id'], isUnique: true }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('webhook');
  }
}
