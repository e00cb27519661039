import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** Notification threads (one per user and subject) and the events the projector has applied. */
export class Notifications1763800000510 implements MigrationInterface {
  name = 'Notifications1763800000510';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'notification',
        columns: [
          col.id(),
          col.int('user_id'),
          col.int('repo_id'),
          col.int('source'),
          col.varchar('subject_key', 120),
          col.int('status'),
          col.text('title'),
          col.varchar('state', 10),
          col.text('subject_url'),
          col.text('subject_html_url'),
          col.text('latest_comment_url'),
          col.text('latest_comment_html_url'),
          col.bigint('snapshot_at'),
          col.timestamp('created_at'),
          col.timestamp('updated_at'),
        ],
      }),
    );
    await q.createIndex('notification', new TableIndex({ name: 'uq_notification_user_subject', columnNames: ['user_id', 'subject_key'], isUnique: true }));
    await q.createIndex('notification', new TableIndex({ name: 'idx_notification_user_status_updated', columnNames: ['user_id', 'status', 'updated_at'] }));
    await q.createIndex('notification', new TableIndex({ name: 'idx_notification_subject', columnNames: ['subject_key'] }));
    await q.createIndex('notification', new TableIndex({ name: 'idx_notification_repo', columnNames: ['repo_id'] }));
    await q.createTable(new Table({ name: 'notification_event', columns: [col.varchar('event_id', 64, { isPrimary: true }), col.timestamp('created_at')] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('notification_event');
    await q.dropTable('notification');
  }
}
