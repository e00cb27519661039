import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** Issue history (comments and events), reactions and issue subscriptions. */
export class Comments1763800000302 implements MigrationInterface {
  name = 'Comments1763800000302';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'comment',
        columns: [
          col.id(),
          col.int('type', { default: 0 }),
          col.int('issue_id'),
          col.int('poster_id'),
          col.varchar('original_author', 255, { default: "''" }),
          col.int('original_author_id', { default: 0 }),
          col.text('content', { default: "''" }),
          col.int('content_version', { default: 0 }),
          col.timestamp('created_at'),
          col.timestamp('updated_at'),
        ],
      }),
    );
    // An issue's comments and timeline, oldest first.
    await q.createIndex(
      'comment',
      new TableIndex({ name: 'idx_comment_issue_created', columnNames: ['issue_id', 'created_at'] }),
    );
    await q.createIndex(
      'comment',
      new TableIndex({ name: 'idx_comment_poster', columnNames: ['poster_id'] }),
    );
    await q.createIndex(
      'comment',
      new TableIndex({ name: 'idx_comment_updated', columnNames: ['updated_at'] }),
    );

    await q.createTable(
      new Table({
        name: 'reaction',
        columns: [
          col.id(),
          col.varchar('type', 255),
          col.int('issue_id'),
          col.int('comment_id', { default: 0 }),
          col.int('user_id'),
          col.int('original_author_id', { default: 0 }),
          col.varchar('original_author', 255, { default: "''" }),
          col.timestamp('created_at'),
        ],
      }),
    );
    await q.createIndex(
      'reaction',
      new TableIndex({
        name: 'uq_reaction',
        columnNames: ['type', 'issue_id', 'comment_id', 'user_id', 'original_author_id', 'original_author'],
        isUnique: true,
      }),
    );
    await q.createIndex(
      'reaction',
      new TableIndex({ name: 'idx_reaction_issue_comment', columnNames: ['issue_id', 'comment_id'] }),
    );
    await q.createIndex(
      'reaction',
      new TableIndex({ name: 'idx_reaction_comment', columnNames: ['comment_id'] }),
    );

    await q.createTable(
      new Table({
        name: 'issue_watch',
        columns: [
          col.id(),
          col.int('user_id'),
          col.int('issue_id'),
          col.bool('is_watching'),
          col.timestamp('created_at'),
          col.timestamp('updated_at'),
        ],
      }),
    );
    await q.createIndex(
      'issue_watch',
      new TableIndex({ name: 'uq_issue_watch', columnNames: ['user_id', 'issue_id'], isUnique: true }),
    );
    await q.createIndex(
      'issue_watch',
      new TableIndex({ name: 'idx_issue_watch_issue', columnNames: ['issue_id'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['issue_watch', 'reaction', 'comment']) await q.dropTable(table);
  }
}
