import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** Time-tracking rows of the timeline (Gitea's TimeID): the tracked time an add_time_manual or stop_tracking row made. */
export class CommentTrackedTime1763800000314 implements MigrationInterface {
  name = 'CommentTrackedTime1763800000314';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('comment', new TableColumn(col.int('time_id', { default: 0 })));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('comment', 'time_id');
  }
}
