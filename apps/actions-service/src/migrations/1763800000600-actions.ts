import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

export class Actions1763800000600 implements MigrationInterface {
  name = 'Actions1763800000600';

  async up(q: QueryRunner): Promise<void> {
    const scope = [col.int('owner_id', { default: 0 }), col.int('repo_id', { default: 0 })];
    const times = [col.timestamp('created_at'), col.timestamp('updated_at')];
    await q.createTable(
      new Table({
        name: 'action_runner',
        columns: [
          col.id(),
          col.varchar('uuid', 36),
          col.varchar('token_hash', 64),
          col.varchar('name', 255),
          ...scope,
          col.varchar('version', 64, { default: "''" }),
          col.text('labels', { default: "'[]'" }),
          col.bool('ephemeral'),
          col.bool('disabled'),
          col.timestamp('last_online', { isNullable: true }),
          col.timestamp('last_active', { isNullable: true }),
          ...times,
        ],
      }),
    );
    await q.createIndex('action_runner', new TableIndex({ name: 'uq_action_runner_uuid', columnNames: ['uuid'], isUnique: true }));
    await q.createIndex('action_runner', new TableIndex({ name: 'idx_action_runner_scope', columnNames: ['owner_id', 'repo_id'] }));
    await q.createTable(
      new Table({
        name: 'action_runner_token',
        columns: [
          col.id(),
          col.varchar('token_hash', 64),
          col.text('sealed'),
          ...scope,
          col.bool('is_active', true),
          col.timestamp('created_at'),
          col.timestamp('expires_at'),
        ],
      }),
    );
    await q.createIndex('action_runner_token', new TableIndex({ name: 'uq_action_runner_token_hash', columnNames: ['token_hash'], isUnique: true }));
    await q.createIndex('action_runner_token', new TableIndex({ name: 'idx_action_runner_token_scope', columnNames: ['owner_id', 'repo_id'] }));
    await q.createTable(
      new Table({
        name: 'action_run',
        columns: [
          col.id(),
          col.int('repo_id'),
          col.int('owner_id'),
          col.int('idx'),
          col.varchar('title', 255),
          col.varchar('workflow_id', 255),
          col.varchar('workflow_path', 255),
          col.int('trigger_user_id'),
          col.varchar('ref', 255),
          col.varchar('commit_sha', 64),
          col.varchar('event', 64),
          col.varchar('trigger_key', 255),
          col.text('event_payload'),
          col.int('status'),
          col.text('error', { default: "''" }),
          col.int('attempt', { default: 1 }),
          col.timestamp('started', { isNullable: true }),
          col.timestamp('stopped', { isNullable: true }),
          ...times,
        ],
      }),
    );
    await q.createIndex('action_run', new TableIndex({ name: 'uq_action_run_repo_idx', columnNames: ['repo_id', 'idx'], isUnique: true }));
    await q.createIndex('action_run', new TableIndex({ name: 'uq_action_run_trigger', columnNames: ['repo_id', 'trigger_key'], isUnique: true }));
    await q.createIndex('action_run', new TableIndex({ name: 'idx_action_run_status', columnNames: ['status'] }));
    await q.createTable(
      new Table({
        name: 'action_run_job',
        columns: [
          col.id(),
          col.int('run_id'),
          col.int('repo_id'),
          col.int('owner_id'),
          col.varchar('commit_sha', 64),
          col.varchar('name', 255),
          col.varchar('job_id', 255),
          col.int('attempt', { default: 1 }),
          col.text('workflow_payload'),
          col.text('needs', { default: "'[]'" }),
          col.text('runs_on', { default: "'[]'" }),
          col.text('step_names', { default: "'[]'" }),
          col.text('condition', { default: "''" }),
          col.int('task_id', { default: 0 }),
          col.int('status'),
          col.timestamp('started', { isNullable: true }),
          col.timestamp('stopped', { isNullable: true }),
          ...times,
        ],
      }),
    );
    await q.createIndex('action_run_job', new TableIndex({ name: 'idx_action_run_job_run', columnNames: ['run_id'] }));
    await q.createIndex('action_run_job', new TableIndex({ name: 'idx_action_run_job_status', columnNames: ['status'] }));
    await q.createTable(
      new Table({
        name: 'action_task',
        columns: [
          col.id(),
          col.int('job_id'),
          col.int('run_id'),
          col.int('repo_id'),
          col.int('runner_id'),
          col.int('attempt', { default: 1 }),
          col.int('status'),
          col.text('steps', { default: "'[]'" }),
          col.text('outputs', { default: "'{}'" }),
          col.text('log', { default: "''" }),
          col.int('log_length', { default: 0 }),
          col.bool('log_complete'),
          col.timestamp('started', { isNullable: true }),
          col.timestamp('stopped', { isNullable: true }),
          ...times,
        ],
      }),
    );
    await q.createIndex('action_task', new TableIndex({ name: 'idx_action_task_job', columnNames: ['job_id'] }));
    await q.createIndex('action_task', new TableIndex({ name: 'idx_action_task_status', columnNames: ['status', 'updated_at'] }));
    for (const name of ['action_variable', 'action_secret']) {
      await q.createTable(
        new Table({ name, columns: [col.id(), ...scope, col.varchar('name', 255), col.text('data'), col.text('description', { default: "''" }), ...times] }),
      );
      await q.createIndex(name, new TableIndex({ name: `uq_${name}_name`, columnNames: ['owner_id', 'repo_id', 'name'], isUnique: true }));
    }
    await q.createTable(new Table({ name: 'action_tasks_version', columns: [col.id(), col.int('version', { default: 0 })] }));
    await q.createTable(
      new Table({
        name: 'action_schedule',
        columns: [
          col.id(),
          col.int('repo_id'),
          col.int('owner_id'),
          col.varchar('workflow_id', 255),
          col.text('specs'),
          col.varchar('ref', 255),
          col.varchar('commit_sha', 64),
          col.int('trigger_user_id'),
          col.timestamp('next_run'),
          col.timestamp('created_at'),
        ],
      }),
    );
    await q.createIndex('action_schedule', new TableIndex({ name: 'idx_action_schedule_repo', columnNames: ['repo_id'] }));
    await q.createIndex('action_schedule', new TableIndex({ name: 'idx_action_schedule_next', columnNames: ['next_run'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const name of [
      'action_schedule',
      'action_tasks_version',
      'action_secret',
      'action_variable',
      'action_task',
      'action_run_job',
      'action_run',
      'action_runner_token',
      'action_runner',
    ])
      await q.dropTable(name);
  }
}
