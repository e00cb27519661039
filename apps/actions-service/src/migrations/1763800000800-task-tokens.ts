import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/**
 * Each task's token (Gitea's ActionTask token columns): stored as a salted hash with its last
 * eight characters, which find the candidate rows; and whether the task runs a pull request
 * from a fork, which makes the token read-only.
 */
export class TaskTokens1763800000800 implements MigrationInterface {
  name = 'TaskTokens1763800000800';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumns('action_task', [
      new TableColumn(col.varchar('token_hash', 64, { default: "''" })),
      new TableColumn(col.varchar('token_salt', 32, { default: "''" })),
      new TableColumn(col.varchar('token_last_eight', 8, { default: "''" })),
      new TableColumn(col.bool('is_fork_pull_request')),
    ]);
    await q.createIndex('action_task', new TableIndex({ name: 'idx_action_task_token_last_eight', columnNames: ['token_last_eight'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('action_task', 'idx_action_task_token_last_eight');
    for (const name of ['is_fork_pull_request', 'token_last_eight', 'token_salt', 'token_hash']) await q.dropColumn('action_task', name);
  }
}
