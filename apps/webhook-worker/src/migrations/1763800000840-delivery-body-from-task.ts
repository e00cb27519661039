import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * hook_delivery.request_body may be NULL: the request sent was the task's payload as stored
 * (gitea and gogs hooks, the usual case), so it is not written a second time per attempt.
 */
export class DeliveryBodyFromTask1763800000840 implements MigrationInterface {
  name = 'DeliveryBodyFromTask1763800000840';

  async up(q: QueryRunner): Promise<void> {
    await this.setNullable(q, true);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE hook_delivery SET request_body = (SELECT t.payload FROM hook_task t WHERE t.id = hook_delivery.task_id) WHERE request_body IS NULL`);
    await q.query(`UPDATE hook_delivery SET request_body = '' WHERE request_body IS NULL`);
    await this.setNullable(q, false);
  }

  private async setNullable(q: QueryRunner, nullable: boolean): Promise<void> {
    const table = (await q.getTable('hook_delivery'))!;
    const column = table.findColumnByName('request_body')!;
    const changed = column.clone();
    changed.isNullable = nullable;
    await q.changeColumn(table, column, changed);
  }
}
