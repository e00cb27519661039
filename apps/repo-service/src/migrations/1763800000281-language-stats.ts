import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** Language statistics, one row per repository, keyed to the commit they describe. */
export class LanguageStats1763800000281 implements MigrationInterface {
  name = 'LanguageStats1763800000281';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'language_stat',
        columns: [
          { ...col.int('repo_id'), isPrimary: true },
          col.varchar('commit_id', 64),
          col.text('sizes'),
          col.timestamp('updated_at'),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('language_stat');
  }
}
