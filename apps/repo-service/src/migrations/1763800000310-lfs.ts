import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/**
 * Git LFS: which repositories reference which objects (the bytes live once in the BlobStore,
 * keyed by oid; an object is served only through a repository that has it here), and file locks.
 */
export class Lfs1763800000310 implements MigrationInterface {
  name = 'Lfs1763800000310';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'lfs_meta_object',
        columns: [
          col.id(),
          col.int('repo_id'),
          col.varchar('oid', 64),
          col.bigint('size'),
          col.timestamp('created_at'),
        ],
      }),
    );
    await q.createIndex(
      'lfs_meta_object',
      new TableIndex({
        name: 'uq_lfs_meta_object_repo_oid',
        columnNames: ['repo_id', 'oid'],
        isUnique: true,
      }),
    );
    await q.createIndex(
      'lfs_meta_object',
      new TableIndex({ name: 'ix_lfs_meta_object_oid', columnNames: ['oid'] }),
    );
    await q.createTable(
      new Table({
        name: 'lfs_lock',
        columns: [
          col.id(),
          col.int('repo_id'),
          col.int('owner_id'),
          col.text('path'),
          col.timestamp('created_at'),
        ],
      }),
    );
    await q.createIndex(
      'lfs_lock',
      new TableIndex({ name: 'uq_lfs_lock_repo_path', columnNames: ['repo_id', 'path'], isUnique: true }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('lfs_lock');
    await q.dropTable('lfs_meta_object');
  }
}
