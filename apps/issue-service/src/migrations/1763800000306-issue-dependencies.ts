import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

export class IssueDependencies1763800000306 implements MigrationInterface {
  name = 'IssueDependencies1763800000306';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'issue_dependency',
        columns: [col.id(), col.int('issue_id'), col.int('dependency_id'), col.int('creator_id'), col.timestamp('created_at')],
      }),
    );
    await q.createIndex('issue_dependency', new TableIndex({ name: 'uq_issue_dependency', columnNames: ['issue_id', 'dependency_id'], isUnique: true }));
    await q.createIndex('issue_dependency', new TableIndex({ name: 'idx_issue_dependency_dependency', columnNames: ['dependency_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('issue_dependency');
  }
}
