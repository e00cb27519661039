import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** The team a `review_request` history row names (Gitea's assignee_team_id); users go in assignee_id. */
export class ReviewTeamRequests1763800000311 implements MigrationInterface {
  name = 'ReviewTeamRequests1763800000311';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('comment', new TableColumn(col.int('assignee_team_id', { default: 0 })));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('comment', 'assignee_team_id');
  }
}
