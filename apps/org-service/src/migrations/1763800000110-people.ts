import { Table, TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/**
 * User settings and permissions Gitea keeps on the account, e-mail addresses (the primary one
 * mirrored from `users.email`) and follows.
 */
export class People1763800000110 implements MigrationInterface {
  name = 'People1763800000110';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumns('users', [
      new TableColumn(col.varchar('theme', 30, { default: "'gitea-auto'" })),
      new TableColumn(col.varchar('diff_view_style', 8, { default: "''" })),
      new TableColumn(col.bool('keep_activity_private')),
      new TableColumn(col.bool('allow_create_organization', true)),
    ]);

    await q.createTable(
      new Table({
        name: 'email_address',
        columns: [
          col.id(),
          col.int('uid'),
          col.varchar('email'),
          col.varchar('lower_email'),
          col.bool('is_activated'),
          col.bool('is_primary'),
        ],
      }),
    );
    await q.createIndex('email_address', new TableIndex({ name: 'uq_email_address_lower', columnNames: ['lower_email'], isUnique: true }));
    await q.createIndex('email_address', new TableIndex({ name: 'idx_email_address_uid', columnNames: ['uid'] }));

    // Accounts made before this migration get their primary address as a row. `(1 = 1)` is a
    // boolean on PostgreSQL and 1 on SQLite, so one statement serves both.
    await q.query(
      `INSERT INTO email_address (uid, email, lower_email, is_activated, is_primary)
       SELECT id, email, LOWER(email), (1 = 1), (1 = 1) FROM users WHERE type = 0 AND email <> ''`,
    );

    await q.createTable(
      new Table({
        name: 'follow',
        columns: [col.id(), col.int('user_id'), col.int('follow_id'), col.timestamp('created_at')],
      }),
    );
    await q.createIndex('follow', new TableIndex({ name: 'uq_follow_pair', columnNames: ['user_id', 'follow_id'], isUnique: true }));
    await q.createIndex('follow', new TableIndex({ name: 'idx_follow_follow', columnNames: ['follow_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('follow');
    await q.dropTable('email_address');
    for (const c of ['allow_create_organization', 'keep_activity_private', 'diff_view_style', 'theme']) await q.dropColumn('users', c);
  }
}
