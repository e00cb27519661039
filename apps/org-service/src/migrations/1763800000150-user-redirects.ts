import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** Old logins of renamed users and organizations (Gitea's user_redirect). */
export class UserRedirects1763800000150 implements MigrationInterface {
  name = 'UserRedirects1763800000150';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'user_redirect',
        columns: [col.varchar('lower_name', 255, { isPrimary: true }), col.int('redirect_user_id')],
      }),
    );
    await q.createIndex('user_redirect', new TableIndex({ name: 'ix_user_redirect_user', columnNames: ['redirect_user_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('user_redirect');
  }
}
