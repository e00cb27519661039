import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/**
 * The detected licenses of each repository's default branch, with the blob they were read from.
 * Existing repositories start with none and an unknown blob, so their next push to the default
 * branch (or the sync_repo_licenses task) reads their license file.
 */
export class RepositoryLicenses1763800000870 implements MigrationInterface {
  name = 'RepositoryLicenses1763800000870';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumns('repository', [
      new TableColumn(col.text('licenses', { default: "'[]'" })),
      new TableColumn(col.varchar('license_blob', 64, { default: "''" })),
    ]);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('repository', 'license_blob');
    await q.dropColumn('repository', 'licenses');
  }
}
