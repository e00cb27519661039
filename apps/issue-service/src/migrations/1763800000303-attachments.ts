import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** Attachments of issues and comments (and later releases); the bytes are in the BlobStore. */
export class Attachments1763800000303 implements MigrationInterface {
  name = 'Attachments1763800000303';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'attachment',
        columns: [
          col.id(),
          col.varchar('uuid', 40),
          col.int('repo_id'),
          col.int('issue_id', { default: 0 }),
          col.int('comment_id', { default: 0 }),
          col.int('release_id', { default: 0 }),
          col.int('uploader_id'),
          col.varchar('name', 255),
          col.bigint('size'),
          col.bigint('download_count', { default: 0 }),
          col.timestamp('created_at'),
        ],
      }),
    );
    await q.createIndex('attachment', new TableIndex({ name: 'uq_attachment_uuid', columnNames: ['uuid'], isUnique: true }));
    // The assets of a page of issues (or of a comment) in one query.
    await q.createIndex('attachment', new TableIndex({ name: 'idx_attachment_issue', columnNames: ['issue_id', 'comment_id'] }));
    await q.createIndex('attachment', new TableIndex({ name: 'idx_attachment_release', columnNames: ['release_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('attachment');
  }
}
