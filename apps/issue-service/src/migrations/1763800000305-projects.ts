import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** Projects, their board columns, and the issues on them. */
export class Projects1763800000305 implements MigrationInterface {
  name = 'Projects1763800000305';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'project',
        columns: [
          col.id(),
          col.varchar('title', 255),
          col.text('description', { default: "''" }),
          col.int('owner_id', { default: 0 }),
          col.int('repo_id', { default: 0 }),
          col.int('creator_id'),
          col.bool('is_closed'),
          col.varchar('template_type', 32, { default: "'none'" }),
          col.varchar('card_type', 32, { default: "'text_only'" }),
          col.timestamp('created_at'),
          col.timestamp('updated_at'),
          col.timestamp('closed_at', { isNullable: true }),
        ],
      }),
    );
    await q.createIndex(
      'project',
      new TableIndex({ name: 'idx_project_repo', columnNames: ['repo_id', 'is_closed'] }),
    );
    await q.createIndex(
      'project',
      new TableIndex({ name: 'idx_project_owner', columnNames: ['owner_id', 'is_closed'] }),
    );

    await q.createTable(
      new Table({
        name: 'project_column',
        columns: [
          col.id(),
          col.int('project_id'),
          col.varchar('title', 255),
          col.bool('is_default'),
          col.int('sorting', { default: 0 }),
          col.varchar('color', 7, { default: "''" }),
          col.int('creator_id'),
          col.timestamp('created_at'),
          col.timestamp('updated_at'),
        ],
      }),
    );
    await q.createIndex(
      'project_column',
      new TableIndex({ name: 'idx_project_column_project', columnNames: ['project_id'] }),
    );

    await q.createTable(
      new Table({
        name: 'project_issue',
        columns: [
          col.id(),
          col.int('project_id'),
          col.int('issue_id'),
          col.int('column_id'),
          col.int('sorting', { default: 0 }),
        ],
      }),
    );
    await q.createIndex(
      'project_issue',
      new TableIndex({ name: 'uq_project_issue', columnNames: ['project_id', 'issue_id'], isUnique: true }),
    );
    await q.createIndex(
      'project_issue',
      new TableIndex({ name: 'idx_project_issue_issue', columnNames: ['issue_id'] }),
    );
    await q.createIndex(
      'project_issue',
      new TableIndex({ name: 'idx_project_issue_column', columnNames: ['column_id'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['project_issue', 'project_column', 'project']) await q.dropTable(table);
  }
}
