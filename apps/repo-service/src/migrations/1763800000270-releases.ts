import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** Releases and their assets (the assets' bytes live in the BlobStore). */
export class Releases1763800000270 implements MigrationInterface {
  name = 'Releases1763800000270';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'release',
        columns: [
          col.id(),
          col.int('repo_id'),
          col.int('publisher_id'),
          col.varchar('tag_name', 255),
          col.varchar('lower_tag_name', 255),
          col.varchar('target', 255),
          col.varchar('title', 255),
          col.text('note'),
          col.varchar('sha', 64),
          col.bool('is_draft'),
          col.bool('is_prerelease'),
          col.timestamp('created_at'),
          col.timestamp('published_at', { isNullable: true }),
        ],
      }),
    );
    await q.createIndex('release', new TableIndex({ name: 'uq_release_tag', columnNames: ['repo_id', 'lower_tag_name'], isUnique: true }));
    await q.createTable(
      new Table({
        name: 'release_asset',
        columns: [
          col.id(),
          col.varchar('uuid', 40),
          col.int('release_id'),
          col.int('repo_id'),
          col.int('uploader_id'),
          col.varchar('name', 255),
          col.bigint('size'),
          col.int('download_count'),
          col.timestamp('created_at'),
        ],
      }),
    );
    await q.createIndex('release_asset', new TableIndex({ name: 'uq_release_asset_uuid', columnNames: ['uuid'], isUnique: true }));
    await q.createIndex('release_asset', new TableIndex({ name: 'ix_release_asset_release', columnNames: ['release_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('release_asset');
    await q.dropTable('release');
  }
}
