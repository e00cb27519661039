import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/**
 * A release keeps one time, as Gitea's CreatedUnix: `created_at`, set again when a draft is edited
 * or published. The separate publication time had become state nothing read.
 */
export class ReleaseOneTime1763800000890 implements MigrationInterface {
  name = 'ReleaseOneTime1763800000890';

  async up(q: QueryRunner): Promise<void> {
    await q.dropColumn('release', 'published_at');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.addColumn('release', new TableColumn(col.timestamp('published_at', { isNullable: true })));
  }
}
