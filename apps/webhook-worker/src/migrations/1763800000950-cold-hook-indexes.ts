import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Drops the indexes only cold paths read: the pending tasks' (state, id), read once at the
 * worker's start, and the creation and delivery times the daily retention job deletes by. Each
 * delivery wrote an entry into each of them (the task's state index twice: made, then settled);
 * those paths now scan by id instead, once per start or per run.
 */
export class ColdHookIndexes1763800000950 implements MigrationInterface {
  name = 'ColdHookIndexes1763800000950';

  async up(q: QueryRunner): Promise<void> {
    await q.dropIndex('hook_task', 'idx_hook_task_state');
    await q.dropIndex('hook_task', 'idx_hook_task_created');
    await q.dropIndex('hook_delivery', 'idx_hook_delivery_delivered');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.createIndex('hook_delivery', new TableIndex({ name: 'idx_hook_delivery_delivered', columnNames: ['delivered_at'] }));
    await q.createIndex('hook_task', new TableIndex({ name: 'idx_hook_task_created', columnNames: ['created_at'] }));
    await q.createIndex('hook_task', new TableIndex({ name: 'idx_hook_task_state', columnNames: ['state', 'id'] }));
  }
}
