import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

export class Repositories1763800000200 implements MigrationInterface {
  name = 'Repositories1763800000200';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'repository',
        columns: [
          col.id(),
          col.int('owner_id'),
          col.varchar('lower_name'),
          col.varchar('name'),
          col.text('description', { default: "''" }),
          col.varchar('website', 1024, { default: "''" }),
          col.varchar('default_branch'),
          col.bool('is_private'),
          col.bool('is_empty', true),
          col.bool('is_archived'),
          col.timestamp('archived_at', { isNullable: true }),
          col.bool('is_mirror'),
          col.bool('is_fork'),
          col.int('fork_id', { isNullable: true }),
          col.bool('is_template'),
          col.bigint('size_kib', { default: 0 }),
          col.int('num_branches', { default: 0 }),
          col.int('num_stars', { default: 0 }),
          col.int('num_forks', { default: 0 }),
          col.int('num_watches', { default: 0 }),
          col.int('num_open_issues', { default: 0 }),
          col.int('num_open_pulls', { default: 0 }),
          col.int('num_releases', { default: 0 }),
          col.varchar('object_format', 10, { default: "'sha1'" }),
          col.text('settings'),
          col.text('topics'),
          col.timestamp('created_at'),
          col.timestamp('updated_at'),
        ],
      }),
    );
    await q.createIndex('repository', new TableIndex({ name: 'uq_repository_owner_name', columnNames: ['owner_id', 'lower_name'], isUnique: true }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('repository');
  }
}
