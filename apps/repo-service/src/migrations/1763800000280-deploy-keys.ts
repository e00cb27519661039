import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** Deploy keys: one public key row per distinct key, one deploy_key row per repository using it. */
export class DeployKeys1763800000280 implements MigrationInterface {
  name = 'DeployKeys1763800000280';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'deploy_public_key',
        columns: [col.id(), col.varchar('fingerprint'), col.text('content'), col.timestamp('created_at')],
      }),
    );
    await q.createIndex(
      'deploy_public_key',
      new TableIndex({
        name: 'uq_deploy_public_key_fingerprint',
        columnNames: ['fingerprint'],
        isUnique: true,
      }),
    );
    await q.createTable(
      new Table({
        name: 'deploy_key',
        columns: [
          col.id(),
          col.int('key_id'),
          col.int('repo_id'),
          col.varchar('name'),
          col.varchar('fingerprint'),
          col.text('content'),
          col.bool('read_only'),
          col.timestamp('created_at'),
        ],
      }),
    );
    // Gitea's checkDeployKey: a key once per repository, a title once per repository.
    await q.createIndex(
      'deploy_key',
      new TableIndex({ name: 'uq_deploy_key_key_repo', columnNames: ['key_id', 'repo_id'], isUnique: true }),
    );
    await q.createIndex(
      'deploy_key',
      new TableIndex({ name: 'uq_deploy_key_repo_name', columnNames: ['repo_id', 'name'], isUnique: true }),
    );
    await q.createIndex(
      'deploy_key',
      new TableIndex({ name: 'ix_deploy_key_fingerprint', columnNames: ['fingerprint'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('deploy_key');
    await q.dropTable('deploy_public_key');
  }
}
