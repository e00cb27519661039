import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/**
 * Gitea's repository status (0 ready, 2 pending transfer): reading a repository then needs no
 * look at `repo_transfer` unless a transfer waits. Repositories with a pending transfer now are
 * marked from that table.
 */
export class RepositoryStatus1763800000860 implements MigrationInterface {
  name = 'RepositoryStatus1763800000860';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('repository', new TableColumn(col.int('status', { default: 0 })));
    await q.query('UPDATE repository SET status = 2 WHERE id IN (SELECT repo_id FROM repo_transfer)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('repository', 'status');
  }
}
