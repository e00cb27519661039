import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/**
 * Cross references (Gitea's issue_ref, comment_ref and pull_ref rows): the issue, and the
 * comment, whose text named the issue the row is on, and what the reference said to do.
 */
export class CommentCrossReferences1763800000313 implements MigrationInterface {
  name = 'CommentCrossReferences1763800000313';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumns('comment', [
      new TableColumn(col.int('ref_repo_id', { default: 0 })),
      new TableColumn(col.int('ref_issue_id', { default: 0 })),
      new TableColumn(col.int('ref_comment_id', { default: 0 })),
      new TableColumn(col.int('ref_action', { default: 0 })),
      new TableColumn(col.bool('ref_is_pull')),
    ]);
    await q.createIndex('comment', new TableIndex({ name: 'idx_comment_ref_issue', columnNames: ['ref_issue_id', 'ref_comment_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('comment', 'idx_comment_ref_issue');
    await q.dropColumns('comment', ['ref_repo_id', 'ref_issue_id', 'ref_comment_id', 'ref_action', 'ref_is_pull']);
  }
}
