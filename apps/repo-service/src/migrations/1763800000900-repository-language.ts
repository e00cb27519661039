import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/**
 * The primary language of each repository's default branch (Gitea's PrimaryLanguage, the largest
 * of its language statistics), shown as the Repository's `language`. Existing repositories start
 * with none; the next computation of their statistics sets it.
 */
export class RepositoryLanguage1763800000900 implements MigrationInterface {
  name = 'RepositoryLanguage1763800000900';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('repository', new TableColumn(col.varchar('primary_language', 64, { default: "''" })));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('repository', 'primary_language');
  }
}
