import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** hook_task.batch: the tasks one fan-out made for one event share it and one delivery job. */
export class HookTaskBatch1763800000900 implements MigrationInterface {
  name = 'HookTaskBatch1763800000900';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('hook_task', new TableColumn({ name: 'batch', type: 'varchar', length: '36', isNullable: true }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('hook_task', 'batch');
  }
}
