import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

export class HookTasks1763800000500 implements MigrationInterface {
  name = 'HookTasks1763800000500';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'hook_task',
        columns: [
          col.id(),
          col.int('hook_id'),
          col.varchar('event_id', 64),
          col.varchar('uuid', 36),
          col.varchar('event_type', 64),
          col.text('payload'),
          col.int('repo_id', { isNullable: true }),
          col.varchar('state', 16),
          col.timestamp('created_at'),
        ],
      }),
    );
    await q.createIndex('hook_task', new TableIndex({ name: 'uq_hook_task_hook_event', columnNames: ['hook_id', 'event_id'], isUnique: true }));
    await q.createIndex('hook_task', new TableIndex({ name: 'idx_hook_task_state', columnNames: ['state', 'id'] }));

    await q.createTable(
      new Table({
        name: 'hook_delivery',
        columns: [
          col.id(),
          col.int('task_id'),
          col.int('hook_id'),
          col.varchar('attempt_key', 200),
          col.varchar('guid', 36),
          col.varchar('event_type', 64),
          col.varchar('action', 64, { isNullable: true }),
          col.int('repo_id', { isNullable: true }),
          col.bool('redelivery'),
          col.text('url'),
          col.text('request_headers', { default: "'{}'" }),
          col.text('request_body', { default: "''" }),
          col.int('response_status', { default: 0 }),
          col.text('response_headers', { default: "'{}'" }),
          col.text('response_body', { isNullable: true }),
          col.int('duration_ms', { default: 0 }),
          col.varchar('outcome', 16),
          col.text('status_text', { default: "''" }),
          col.timestamp('delivered_at'),
        ],
      }),
    );
    // A job run again after a crash writes its attempt's record instead of a second one.
    await q.createIndex(
      'hook_delivery',
      new TableIndex({ name: 'uq_hook_delivery_attempt', columnNames: ['task_id', 'attempt_key'], isUnique: true }),
    );
    await q.createIndex('hook_delivery', new TableIndex({ name: 'idx_hook_delivery_hook', columnNames: ['hook_id', 'id'] }));

  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('hook_delivery');
    await q.dropTable('hook_task');
  }
}
