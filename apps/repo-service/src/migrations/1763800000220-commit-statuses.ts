import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

export class CommitStatuses1763800000220 implements MigrationInterface {
  name = 'CommitStatuses1763800000220';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'commit_status',
        columns: [
          col.id(),
          col.int('repo_id'),
          col.int('idx'),
          col.varchar('sha', 64),
          col.varchar('state', 10),
          col.text('target_url'),
          col.text('description'),
          col.text('context'),
          col.varchar('context_hash', 64),
          col.int('creator_id'),
          col.timestamp('created_at'),
          col.timestamp('updated_at'),
        ],
      }),
    );
    await q.createIndex('commit_status', new TableIndex({ name: 'uq_commit_status_index', columnNames: ['repo_id', 'sha', 'idx'], isUnique: true }));
    await q.createIndex('commit_status', new TableIndex({ name: 'idx_commit_status_context', columnNames: ['repo_id', 'sha', 'context_hash'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('commit_status');
  }
}
