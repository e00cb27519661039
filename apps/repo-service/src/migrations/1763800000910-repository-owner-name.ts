import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/**
 * Each repository keeps its owner's login (Gitea's owner_name), which repository search matches
 * and sorts by. Existing rows start empty; repo-service fills them from the directory at start.
 */
export class RepositoryOwnerName1763800000910 implements MigrationInterface {
  name = 'RepositoryOwnerName1763800000910';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('repository', new TableColumn(col.varchar('owner_name', 255, { default: "''" })));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('repository', 'owner_name');
  }
}
