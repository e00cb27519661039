import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** Pending repository transfers, and the old names (owner and name) of renamed or transferred repositories. */
export class TransfersRedirects1763800000290 implements MigrationInterface {
  name = 'TransfersRedirects1763800000290';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'repo_transfer',
        columns: [
          col.id(),
          col.int('repo_id', { isUnique: true }),
          col.int('doer_id'),
          col.int('recipient_id'),
          col.text('team_ids'),
          col.timestamp('created_at'),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'repo_redirect',
        columns: [col.int('owner_id', { isPrimary: true }), col.varchar('lower_name', 255, { isPrimary: true }), col.int('redirect_repo_id')],
      }),
    );
    await q.createIndex('repo_redirect', new TableIndex({ name: 'ix_repo_redirect_repo', columnNames: ['redirect_repo_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('repo_redirect');
    await q.dropTable('repo_transfer');
  }
}
