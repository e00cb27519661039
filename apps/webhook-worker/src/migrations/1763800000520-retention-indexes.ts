import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/** cleanup_hook_task_table finds old rows by age. */
export class RetentionIndexes1763800000520 implements MigrationInterface {
  name = 'RetentionIndexes1763800000520';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex(
      'hook_delivery',
      new TableIndex({ name: 'idx_hook_delivery_delivered', columnNames: ['delivered_at'] }),
    );
    await q.createIndex(
      'hook_task',
      new TableIndex({ name: 'idx_hook_task_created', columnNames: ['created_at'] }),
    );
    await q.createIndex(
      'notification_event',
      new TableIndex({ name: 'idx_notification_event_created', columnNames: ['created_at'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('notification_event', 'idx_notification_event_created');
    await q.dropIndex('hook_task', 'idx_hook_task_created');
    await q.dropIndex('hook_delivery', 'idx_hook_delivery_delivered');
  }
}
