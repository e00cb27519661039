import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Owners teams are limited, as Gitea's CreateOrganization makes them: those made before were
 * public. Their visibility cannot be edited, so every public one is one of ours to correct.
 */
export class LimitedOwnerTeams1763800000170 implements MigrationInterface {
  name = 'LimitedOwnerTeams1763800000170';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE team SET visibility = 'limited' WHERE lower_name = 'owners' AND visibility = 'public'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE team SET visibility = 'public' WHERE lower_name = 'owners' AND visibility = 'limited'`);
  }
}
