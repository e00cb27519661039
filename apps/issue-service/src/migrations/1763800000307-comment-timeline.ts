import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** What the timeline's event rows refer to: labels, milestones, assignees, titles, refs, dependencies. */
export class CommentTimeline1763800000307 implements MigrationInterface {
  name = 'CommentTimeline1763800000307';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumns('comment', [
      new TableColumn(col.int('label_id', { default: 0 })),
      new TableColumn(col.int('old_milestone_id', { default: 0 })),
      new TableColumn(col.int('milestone_id', { default: 0 })),
      new TableColumn(col.int('assignee_id', { default: 0 })),
      new TableColumn(col.bool('removed_assignee')),
      new TableColumn(col.varchar('old_title', 255, { default: "''" })),
      new TableColumn(col.varchar('new_title', 255, { default: "''" })),
      new TableColumn(col.varchar('old_ref', 255, { default: "''" })),
      new TableColumn(col.varchar('new_ref', 255, { default: "''" })),
      new TableColumn(col.int('dependent_issue_id', { default: 0 })),
    ]);
    // A deleted issue takes the dependency rows naming it on other issues with it.
    await q.createIndex(
      'comment',
      new TableIndex({ name: 'idx_comment_dependent_issue', columnNames: ['dependent_issue_id'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('comment', 'idx_comment_dependent_issue');
    for (const name of [
      'label_id',
      'old_milestone_id',
      'milestone_id',
      'assignee_id',
      'removed_assignee',
      'old_title',
      'new_title',
      'old_ref',
      'new_ref',
      'dependent_issue_id',
    ]) {
      await q.dropColumn('comment', name);
    }
  }
}
