import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** The workflows a repository turned off (Gitea's ActionsConfig.DisabledWorkflows), by file name. */
export class DisabledWorkflows1763800000910 implements MigrationInterface {
  name = 'DisabledWorkflows1763800000910';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'action_workflow_disabled',
        columns: [col.id(), col.int('repo_id'), col.varchar('workflow_id', 255), col.timestamp('created_at')],
      }),
    );
    await q.createIndex('action_workflow_disabled', new TableIndex({ name: 'uq_action_workflow_disabled', columnNames: ['repo_id', 'workflow_id'], isUnique: true }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('action_workflow_disabled');
  }
}
