import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** Per-commit status index rows (seeded from the statuses on first use, so no backfill is needed). */
export class CommitStatusIndex1763800000240 implements MigrationInterface {
  name = 'CommitStatusIndex1763800000240';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'commit_status_index',
        columns: [col.int('repo_id', { isPrimary: true }), col.varchar('sha', 64, { isPrimary: true }), col.int('max_index')],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('commit_status_index');
  }
}
