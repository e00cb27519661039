import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** The version of the star count repo-service last sent, so counts that cross each other settle on the newest. */
export class StarCountVersion1763800000130 implements MigrationInterface {
  name = 'StarCountVersion1763800000130';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('users', new TableColumn({ name: 'star_count_version', type: 'integer', default: 0 }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('users', 'star_count_version');
  }
}
