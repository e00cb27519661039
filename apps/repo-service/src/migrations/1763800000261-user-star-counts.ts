import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/**
 * How many repositories each user starred, counted in the transaction that changes a star, with a
 * version that orders the counts sent to org-service (User.starred_repos_count).
 */
export class UserStarCounts1763800000261 implements MigrationInterface {
  name = 'UserStarCounts1763800000261';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'user_star_count',
        columns: [col.int('user_id', { isPrimary: true }), col.int('num_stars', { default: 0 }), col.int('version', { default: 0 })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('user_star_count');
  }
}
