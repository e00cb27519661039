import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/**
 * Hook secrets and authorization headers are stored sealed (SecretBox) from now on. Rows written
 * before hold them in clear until admin-service seals them at start (`secrets_sealed` says which).
 */
export class SealedHookSecrets1763800000420 implements MigrationInterface {
  name = 'SealedHookSecrets1763800000420';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('webhook', new TableColumn(col.bool('secrets_sealed')));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('webhook', 'secrets_sealed');
  }
}
