import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** Issues with their counters, assignees, labels and milestones. */
export class Issues1763800000300 implements MigrationInterface {
  name = 'Issues1763800000300';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'issue_counter',
        columns: [
          col.int('repo_id', { isPrimary: true }),
          col.int('last_index', { default: 0 }),
          col.int('num_issues', { default: 0 }),
          col.int('num_closed_issues', { default: 0 }),
          col.int('num_pulls', { default: 0 }),
          col.int('num_closed_pulls', { default: 0 }),
          col.int('version', { default: 0 }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'issue',
        columns: [
          col.id(),
          col.int('repo_id'),
          col.int('idx'),
          col.int('poster_id'),
          col.varchar('original_author', 255, { default: "''" }),
          col.int('original_author_id', { default: 0 }),
          col.varchar('title', 255),
          col.text('body', { default: "''" }),
          col.varchar('ref', 255, { default: "''" }),
          col.int('milestone_id', { default: 0 }),
          col.bool('is_pull'),
          col.bool('is_closed'),
          col.bool('is_locked'),
          col.int('num_comments', { default: 0 }),
          col.int('content_version', { default: 0 }),
          col.int('pin_order', { default: 0 }),
          col.bigint('time_estimate', { default: 0 }),
          col.timestamp('deadline', { isNullable: true }),
          col.timestamp('created_at'),
          col.timestamp('updated_at'),
          col.timestamp('closed_at', { isNullable: true }),
        ],
      }),
    );
    await q.createIndex('issue', new TableIndex({ name: 'uq_issue_repo_index', columnNames: ['repo_id', 'idx'], isUnique: true }));
    // The default listing: a repository's open (or closed) issues, newest first.
    await q.createIndex('issue', new TableIndex({ name: 'idx_issue_repo_state', columnNames: ['repo_id', 'is_closed', 'created_at'] }));
    await q.createIndex('issue', new TableIndex({ name: 'idx_issue_poster', columnNames: ['poster_id'] }));
    // Milestones' open and closed counts are counted on read: an index answers them alone.
    await q.createIndex('issue', new TableIndex({ name: 'idx_issue_milestone', columnNames: ['milestone_id', 'is_closed'] }));
    await q.createIndex('issue', new TableIndex({ name: 'idx_issue_updated', columnNames: ['updated_at'] }));

    await q.createTable(
      new Table({ name: 'issue_assignee', columns: [col.id(), col.int('issue_id'), col.int('assignee_id')] }),
    );
    await q.createIndex('issue_assignee', new TableIndex({ name: 'uq_issue_assignee', columnNames: ['issue_id', 'assignee_id'], isUnique: true }));
    await q.createIndex('issue_assignee', new TableIndex({ name: 'idx_issue_assignee_user', columnNames: ['assignee_id'] }));

    await q.createTable(new Table({ name: 'issue_mention', columns: [col.id(), col.int('issue_id'), col.int('user_id')] }));
    await q.createIndex('issue_mention', new TableIndex({ name: 'uq_issue_mention', columnNames: ['issue_id', 'user_id'], isUnique: true }));
    await q.createIndex('issue_mention', new TableIndex({ name: 'idx_issue_mention_user', columnNames: ['user_id'] }));

    await q.createTable(
      new Table({
        name: 'label',
        columns: [
          col.id(),
          col.int('repo_id', { default: 0 }),
          col.int('org_id', { default: 0 }),
          col.varchar('name', 255),
          col.bool('exclusive'),
          col.varchar('color', 7),
          col.text('description', { default: "''" }),
          col.timestamp('archived_at', { isNullable: true }),
          col.timestamp('created_at'),
          col.timestamp('updated_at'),
        ],
      }),
    );
    await q.createIndex('label', new TableIndex({ name: 'idx_label_repo', columnNames: ['repo_id'] }));
    await q.createIndex('label', new TableIndex({ name: 'idx_label_org', columnNames: ['org_id'] }));

    await q.createTable(new Table({ name: 'issue_label', columns: [col.id(), col.int('issue_id'), col.int('label_id')] }));
    await q.createIndex('issue_label', new TableIndex({ name: 'uq_issue_label', columnNames: ['issue_id', 'label_id'], isUnique: true }));
    await q.createIndex('issue_label', new TableIndex({ name: 'idx_issue_label_label', columnNames: ['label_id'] }));

    await q.createTable(
      new Table({
        name: 'milestone',
        columns: [
          col.id(),
          col.int('repo_id'),
          col.varchar('name', 255),
          col.text('content', { default: "''" }),
          col.bool('is_closed'),
          col.timestamp('deadline', { isNullable: true }),
          col.timestamp('closed_at', { isNullable: true }),
          col.timestamp('created_at'),
          col.timestamp('updated_at'),
        ],
      }),
    );
    await q.createIndex('milestone', new TableIndex({ name: 'idx_milestone_repo', columnNames: ['repo_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['milestone', 'issue_label', 'label', 'issue_mention', 'issue_assignee', 'issue', 'issue_counter']) await q.dropTable(table);
  }
}
