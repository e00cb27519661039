import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** The package registry: packages, versions, files, content-addressed blobs and tags (the bytes live in the BlobStore). */
export class Packages1763800000700 implements MigrationInterface {
  name = 'Packages1763800000700';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'package',
        columns: [col.id(), col.int('owner_id'), col.int('repo_id'), col.varchar('type', 32), col.varchar('name', 255), col.varchar('lower_name', 255), col.timestamp('created_at')],
      }),
    );
    await q.createIndex('package', new TableIndex({ name: 'uq_package_owner_type_name', columnNames: ['owner_id', 'type', 'lower_name'], isUnique: true }));
    await q.createTable(
      new Table({
        name: 'package_version',
        columns: [
          col.id(),
          col.int('package_id'),
          col.int('creator_id'),
          col.varchar('version', 255),
          col.varchar('lower_version', 255),
          col.text('metadata'),
          col.timestamp('created_at'),
        ],
      }),
    );
    await q.createIndex('package_version', new TableIndex({ name: 'uq_package_version', columnNames: ['package_id', 'lower_version'], isUnique: true }));
    await q.createTable(
      new Table({
        name: 'package_file',
        columns: [col.id(), col.int('version_id'), col.int('blob_id'), col.varchar('name', 255), col.varchar('lower_name', 255), col.timestamp('created_at')],
      }),
    );
    await q.createIndex('package_file', new TableIndex({ name: 'uq_package_file', columnNames: ['version_id', 'lower_name'], isUnique: true }));
    await q.createIndex('package_file', new TableIndex({ name: 'ix_package_file_blob', columnNames: ['blob_id'] }));
    await q.createTable(
      new Table({
        name: 'package_blob',
        columns: [
          col.id(),
          col.varchar('sha256', 64),
          col.varchar('uuid', 40),
          col.bigint('size'),
          col.varchar('md5', 32),
          col.varchar('sha1', 40),
          col.varchar('sha512', 128),
          col.timestamp('created_at'),
        ],
      }),
    );
    await q.createIndex('package_blob', new TableIndex({ name: 'uq_package_blob_sha256', columnNames: ['sha256'], isUnique: true }));
    await q.createTable(
      new Table({
        name: 'package_tag',
        columns: [col.id(), col.int('package_id'), col.varchar('tag', 255), col.int('version_id')],
      }),
    );
    await q.createIndex('package_tag', new TableIndex({ name: 'uq_package_tag', columnNames: ['package_id', 'tag'], isUnique: true }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['package_tag', 'package_blob', 'package_file', 'package_version', 'package']) await q.dropTable(table);
  }
}
