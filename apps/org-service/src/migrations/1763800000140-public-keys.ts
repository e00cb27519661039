import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** Users' SSH keys: a fingerprint belongs to one user, a title is used once per user. */
export class PublicKeys1763800000140 implements MigrationInterface {
  name = 'PublicKeys1763800000140';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'public_key',
        columns: [
          col.id(),
          col.int('owner_id'),
          col.varchar('name'),
          col.varchar('fingerprint'),
          col.text('content'),
          col.timestamp('created_at'),
          col.timestamp('updated_at'),
        ],
      }),
    );
    await q.createIndex(
      'public_key',
      new TableIndex({ name: 'uq_public_key_fingerprint', columnNames: ['fingerprint'], isUnique: true }),
    );
    await q.createIndex(
      'public_key',
      new TableIndex({ name: 'uq_public_key_owner_name', columnNames: ['owner_id', 'name'], isUnique: true }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('public_key');
  }
}
