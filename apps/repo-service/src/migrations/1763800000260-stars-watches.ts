import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/**
 * Gitea's star and watch tables: one row per user and repository. The repository's num_stars and
 * num_watches are recounted from these rows in the transaction that changes them.
 */
export class StarsWatches1763800000260 implements MigrationInterface {
  name = 'StarsWatches1763800000260';

  async up(q: QueryRunner): Promise<void> {
    for (const name of ['star', 'watch']) {
      await q.createTable(
        new Table({
          name,
          columns: [col.int('user_id', { isPrimary: true }), col.int('repo_id', { isPrimary: true }), col.timestamp('created_at')],
        }),
      );
      await q.createIndex(name, new TableIndex({ name: `ix_${name}_repo`, columnNames: ['repo_id', 'created_at'] }));
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('watch');
    await q.dropTable('star');
  }
}
