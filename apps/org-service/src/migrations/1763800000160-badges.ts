import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** User badges: the catalogue (a slug is used once) and which users have which (once each). */
export class Badges1763800000160 implements MigrationInterface {
  name = 'Badges1763800000160';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'badge',
        columns: [
          col.id(),
          col.varchar('slug', 100),
          col.text('description', { default: "''" }),
          col.text('image_url', { default: "''" }),
        ],
      }),
    );
    await q.createIndex(
      'badge',
      new TableIndex({ name: 'uq_badge_slug', columnNames: ['slug'], isUnique: true }),
    );

    await q.createTable(
      new Table({
        name: 'user_badge',
        columns: [col.id(), col.int('badge_id'), col.int('user_id')],
      }),
    );
    await q.createIndex(
      'user_badge',
      new TableIndex({
        name: 'uq_user_badge_user_badge',
        columnNames: ['user_id', 'badge_id'],
        isUnique: true,
      }),
    );
    // Deleting a badge from the catalogue deletes its holders' rows by badge.
    await q.createIndex(
      'user_badge',
      new TableIndex({ name: 'ix_user_badge_badge', columnNames: ['badge_id'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('user_badge');
    await q.dropTable('badge');
  }
}
