import { Table, TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** Pull requests beside their issues, scheduled merges, reviews, and review comments on lines. */
export class Pulls1763800000308 implements MigrationInterface {
  name = 'Pulls1763800000308';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'pull_request',
        columns: [
          col.id(),
          col.int('issue_id'),
          col.int('idx'),
          col.int('base_repo_id'),
          col.varchar('base_branch', 255),
          col.int('head_repo_id'),
          col.varchar('head_branch', 255),
          col.varchar('head_sha', 64, { default: "''" }),
          col.varchar('base_sha', 64, { default: "''" }),
          col.varchar('merge_base', 64, { default: "''" }),
          col.int('status', { default: 1 }),
          col.text('conflicted_files', { default: "'[]'" }),
          col.int('commits_ahead', { default: 0 }),
          col.int('commits_behind', { default: 0 }),
          col.int('additions', { default: 0 }),
          col.int('deletions', { default: 0 }),
          col.int('changed_files', { default: 0 }),
          col.bool('allow_maintainer_edit'),
          col.bool('has_merged'),
          col.varchar('merged_commit_id', 64, { default: "''" }),
          col.int('merger_id', { default: 0 }),
          col.timestamp('merged_at', { isNullable: true }),
        ],
      }),
    );
    await q.createIndex('pull_request', new TableIndex({ name: 'uq_pull_request_issue', columnNames: ['issue_id'], isUnique: true }));
    // A push finds the pulls it moves: by base branch, and by head branch.
    await q.createIndex('pull_request', new TableIndex({ name: 'idx_pull_request_base', columnNames: ['base_repo_id', 'base_branch'] }));
    await q.createIndex('pull_request', new TableIndex({ name: 'idx_pull_request_head', columnNames: ['head_repo_id', 'head_branch'] }));

    await q.createTable(
      new Table({
        name: 'pull_auto_merge',
        columns: [
          col.id(),
          col.int('pull_id'),
          col.int('doer_id'),
          col.varchar('merge_style', 32),
          col.text('message', { default: "''" }),
          col.bool('delete_branch_after_merge'),
          col.timestamp('created_at'),
        ],
      }),
    );
    await q.createIndex('pull_auto_merge', new TableIndex({ name: 'uq_pull_auto_merge_pull', columnNames: ['pull_id'], isUnique: true }));

    await q.createTable(
      new Table({
        name: 'review',
        columns: [
          col.id(),
          col.int('type'),
          col.int('reviewer_id', { default: 0 }),
          col.int('reviewer_team_id', { default: 0 }),
          col.int('issue_id'),
          col.text('content', { default: "''" }),
          col.bool('official'),
          col.varchar('commit_id', 64, { default: "''" }),
          col.bool('stale'),
          col.bool('dismissed'),
          col.timestamp('created_at'),
          col.timestamp('updated_at'),
        ],
      }),
    );
    await q.createIndex('review', new TableIndex({ name: 'idx_review_issue', columnNames: ['issue_id'] }));
    await q.createIndex('review', new TableIndex({ name: 'idx_review_reviewer', columnNames: ['reviewer_id'] }));

    // Review comments are comments (type `code`) on a line of a file at a commit.
    await q.addColumns('comment', [
      new TableColumn(col.int('review_id', { default: 0 })),
      new TableColumn(col.varchar('tree_path', 4096, { default: "''" })),
      /** The line: positive on the head side, negative on the base side. */
      new TableColumn(col.int('line', { default: 0 })),
      new TableColumn(col.varchar('commit_sha', 64, { default: "''" })),
      new TableColumn(col.text('patch', { default: "''" })),
      new TableColumn(col.int('resolve_doer_id', { default: 0 })),
      new TableColumn(col.bool('invalidated')),
    ]);
    await q.createIndex('comment', new TableIndex({ name: 'idx_comment_review', columnNames: ['review_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('comment', 'idx_comment_review');
    for (const name of ['review_id', 'tree_path', 'line', 'commit_sha', 'patch', 'resolve_doer_id', 'invalidated']) await q.dropColumn('comment', name);
    for (const table of ['review', 'pull_auto_merge', 'pull_request']) await q.dropTable(table);
  }
}
