import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

const ids = (name: string) => col.text(name, { default: "'[]'" });

export class Protections1763800000210 implements MigrationInterface {
  name = 'Protections1763800000210';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'protected_tag',
        columns: [
          col.id(),
          col.int('repo_id'),
          col.varchar('name_pattern'),
          ids('allowlist_user_ids'),
          ids('allowlist_team_ids'),
          col.timestamp('created_at'),
          col.timestamp('updated_at'),
        ],
      }),
    );
    await q.createIndex('protected_tag', new TableIndex({ name: 'idx_protected_tag_repo', columnNames: ['repo_id'] }));
    await q.createTable(
      new Table({
        name: 'protected_branch',
        columns: [
          col.id(),
          col.int('repo_id'),
          col.varchar('rule_name'),
          col.int('priority', { default: 0 }),
          col.bool('can_push'),
          col.bool('enable_whitelist'),
          ids('whitelist_user_ids'),
          ids('whitelist_team_ids'),
          col.bool('whitelist_deploy_keys'),
          col.bool('can_force_push'),
          col.bool('enable_force_push_allowlist'),
          ids('force_push_allowlist_user_ids'),
          ids('force_push_allowlist_team_ids'),
          col.bool('force_push_allowlist_deploy_keys'),
          col.bool('enable_merge_whitelist'),
          ids('merge_whitelist_user_ids'),
          ids('merge_whitelist_team_ids'),
          col.bool('enable_bypass_allowlist'),
          ids('bypass_allowlist_user_ids'),
          ids('bypass_allowlist_team_ids'),
          col.bool('enable_status_check'),
          ids('status_check_contexts'),
          col.bool('enable_approvals_whitelist'),
          ids('approvals_whitelist_user_ids'),
          ids('approvals_whitelist_team_ids'),
          col.int('required_approvals', { default: 0 }),
          col.bool('block_on_rejected_reviews'),
          col.bool('block_on_official_review_requests'),
          col.bool('block_on_outdated_branch'),
          col.bool('dismiss_stale_approvals'),
          col.bool('ignore_stale_approvals'),
          col.bool('require_signed_commits'),
          col.text('protected_file_patterns', { default: "''" }),
          col.text('unprotected_file_patterns', { default: "''" }),
          col.bool('block_admin_merge_override'),
          col.timestamp('created_at'),
          col.timestamp('updated_at'),
        ],
      }),
    );
    await q.createIndex(
      'protected_branch',
      new TableIndex({ name: 'uq_protected_branch_repo_rule', columnNames: ['repo_id', 'rule_name'], isUnique: true }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('protected_branch');
    await q.dropTable('protected_tag');
  }
}
