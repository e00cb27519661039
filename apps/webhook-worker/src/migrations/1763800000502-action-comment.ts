import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** A comment entry keeps its comment, so the feed shows Gitea's `comment` without asking issue-service. */
export class ActionComment1763800000502 implements MigrationInterface {
  name = 'ActionComment1763800000502';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('action', new TableColumn(col.text('comment_json', { isNullable: true })));
    await q.createIndex('action', new TableIndex({ name: 'idx_action_comment', columnNames: ['comment_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('action', 'idx_action_comment');
    await q.dropColumn('action', 'comment_json');
  }
}
