import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/** An event's job finds the tasks an earlier run of it left pending by its event id. */
export class HookTaskEvent1763800000920 implements MigrationInterface {
  name = 'HookTaskEvent1763800000920';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex('hook_task', new TableIndex({ name: 'idx_hook_task_event', columnNames: ['event_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('hook_task', 'idx_hook_task_event');
  }
}
