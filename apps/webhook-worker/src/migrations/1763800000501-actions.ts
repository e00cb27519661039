import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

export class Actions1763800000501 implements MigrationInterface {
  name = 'Actions1763800000501';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'action',
        columns: [
          col.id(),
          col.varchar('event_id', 64),
          col.int('event_seq', { default: 0 }),
          col.int('user_id'),
          col.varchar('op_type', 64),
          col.int('act_user_id'),
          col.int('repo_id'),
          col.int('comment_id', { default: 0 }),
          col.varchar('ref_name', 255, { default: "''" }),
          col.bool('is_private'),
          col.text('content', { default: "''" }),
          col.timestamp('created_at'),
        ],
      }),
    );
    await q.createIndex('action', new TableIndex({ name: 'uq_action_event_receiver', columnNames: ['event_id', 'event_seq', 'user_id'], isUnique: true }));
    await q.createIndex('action', new TableIndex({ name: 'idx_action_user_created', columnNames: ['user_id', 'created_at'] }));
    await q.createIndex('action', new TableIndex({ name: 'idx_action_repo_created', columnNames: ['repo_id', 'created_at'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('action');
  }
}
