import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

export class Collaboration1763800000201 implements MigrationInterface {
  name = 'Collaboration1763800000201';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'collaboration',
        columns: [col.int('repo_id', { isPrimary: true }), col.int('user_id', { isPrimary: true }), col.int('mode')],
      }),
    );
    await q.createIndex('collaboration', new TableIndex({ name: 'idx_collaboration_user', columnNames: ['user_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('collaboration');
  }
}
