import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Forks are found by their parent (the forks list, a user's fork of a repository, detaching forks of a deleted parent). */
export class ForkIndex1763800000250 implements MigrationInterface {
  name = 'ForkIndex1763800000250';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex('repository', new TableIndex({ name: 'ix_repository_fork_id', columnNames: ['fork_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('repository', 'ix_repository_fork_id');
  }
}
