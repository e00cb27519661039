import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** Whether a pull's head branch is gone (its head then shows as refs/pull/{index}/head). */
export class PullHeadBranchDeleted1763800000312 implements MigrationInterface {
  name = 'PullHeadBranchDeleted1763800000312';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('pull_request', new TableColumn(col.bool('head_branch_deleted')));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('pull_request', 'head_branch_deleted');
  }
}
