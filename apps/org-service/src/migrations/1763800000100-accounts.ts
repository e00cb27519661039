import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

export class Accounts1763800000100 implements MigrationInterface {
  name = 'Accounts1763800000100';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'users',
        columns: [
          col.id(),
          col.varchar('lower_name'),
          col.varchar('name'),
          col.varchar('full_name', 255, { default: "''" }),
          col.varchar('email', 255, { default: "''" }),
          col.bool('keep_email_private'),
          col.text('password_hash', { isNullable: true }),
          col.bool('must_change_password'),
          col.int('login_source', { default: 0 }),
          col.varchar('login_name', 255, { default: "''" }),
          col.int('type', { default: 0 }),
          col.varchar('location', 255, { default: "''" }),
          col.varchar('website', 255, { default: "''" }),
          col.text('description', { default: "''" }),
          col.varchar('language', 32, { default: "''" }),
          col.varchar('visibility', 10, { default: "'public'" }),
          col.bool('is_active', true),
          col.bool('is_admin'),
          col.bool('is_restricted'),
          col.bool('prohibit_login'),
          col.bool('repo_admin_change_team_access'),
          col.int('num_followers', { default: 0 }),
          col.int('num_following', { default: 0 }),
          col.int('num_stars', { default: 0 }),
          col.timestamp('created_at'),
          col.timestamp('updated_at'),
          col.timestamp('last_login_at', { isNullable: true }),
        ],
      }),
    );
    await q.createIndex('users', new TableIndex({ name: 'uq_users_lower_name', columnNames: ['lower_name'], isUnique: true }));
    await q.createIndex('users', new TableIndex({ name: 'idx_users_email', columnNames: ['email'] }));

    await q.createTable(
      new Table({
        name: 'access_token',
        columns: [
          col.id(),
          col.int('user_id'),
          col.varchar('name'),
          col.varchar('token_hash', 64),
          col.varchar('token_last_eight', 8),
          col.varchar('scopes', 1024),
          col.timestamp('created_at'),
          col.timestamp('last_used_at', { isNullable: true }),
        ],
      }),
    );
    await q.createIndex('access_token', new TableIndex({ name: 'uq_access_token_hash', columnNames: ['token_hash'], isUnique: true }));
    await q.createIndex('access_token', new TableIndex({ name: 'uq_access_token_user_name', columnNames: ['user_id', 'name'], isUnique: true }));

    await q.createTable(
      new Table({
        name: 'org_user',
        columns: [col.int('org_id', { isPrimary: true }), col.int('user_id', { isPrimary: true }), col.bool('is_public')],
      }),
    );
    await q.createIndex('org_user', new TableIndex({ name: 'idx_org_user_user', columnNames: ['user_id'] }));

    await q.createTable(
      new Table({
        name: 'team',
        columns: [
          col.id(),
          col.int('org_id'),
          col.varchar('lower_name'),
          col.varchar('name'),
          col.text('description', { default: "''" }),
          col.int('access_mode'),
          col.bool('includes_all_repositories'),
          col.bool('can_create_org_repo'),
          col.varchar('visibility', 10, { default: "'public'" }),
          col.text('units', { default: "'{}'" }),
        ],
      }),
    );
    await q.createIndex('team', new TableIndex({ name: 'uq_team_org_name', columnNames: ['org_id', 'lower_name'], isUnique: true }));

    await q.createTable(
      new Table({
        name: 'team_user',
        columns: [col.int('team_id', { isPrimary: true }), col.int('user_id', { isPrimary: true }), col.int('org_id')],
      }),
    );
    await q.createIndex('team_user', new TableIndex({ name: 'idx_team_user_user', columnNames: ['user_id', 'org_id'] }));

    await q.createTable(
      new Table({
        name: 'team_repo',
        columns: [col.int('team_id', { isPrimary: true }), col.int('repo_id', { isPrimary: true }), col.int('org_id')],
      }),
    );
    await q.createIndex('team_repo', new TableIndex({ name: 'idx_team_repo_repo', columnNames: ['repo_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['team_repo', 'team_user', 'team', 'org_user', 'access_token', 'users']) await q.dropTable(t);
  }
}
