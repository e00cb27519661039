import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';
import { Actions1763800000600 } from './migrations/1763800000600-actions.js';
import { TaskTokens1763800000800 } from './migrations/1763800000800-task-tokens.js';
import { DisabledWorkflows1763800000910 } from './migrations/1763800000910-disabled-workflows.js';

/**
 * A runner. Scope as Gitea's: ownerId 0 and repoId 0 is an instance runner, ownerId an
 * organization's or user's, repoId a repository's. The token is stored as a SHA-256 digest
 * (it is random, 40 hex characters); the runner sends it with every call.
 */
@Entity({ name: 'action_runner' })
export class ActionRunnerEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 36 }) uuid!: string;
  @Column({ type: 'varchar', length: 64 }) tokenHash!: string;
  @Column({ type: 'varchar', length: 255 }) name!: string;
  @Column({ type: 'integer', default: 0 }) ownerId!: number;
  @Column({ type: 'integer', default: 0 }) repoId!: number;
  @Column({ type: 'varchar', length: 64, default: '' }) version!: string;
  /** JSON array of label names. */
  @Column({ type: 'text', default: '[]' }) labels!: string;
  @Column({ type: 'boolean', default: false }) ephemeral!: boolean;
  @Column({ type: 'boolean', default: false }) disabled!: boolean;
  @TimestampColumn({ nullable: true }) lastOnline!: Date | null;
  @TimestampColumn({ nullable: true }) lastActive!: Date | null;
  @TimestampColumn() createdAt!: Date;
  @TimestampColumn() updatedAt!: Date;
}

/** A registration token of a scope, sealed (SecretBox) because the API shows it again; one use. */
@Entity({ name: 'action_runner_token' })
export class ActionRunnerTokenEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 64 }) tokenHash!: string;
  @Column({ type: 'text' }) sealed!: string;
  @Column({ type: 'integer', default: 0 }) ownerId!: number;
  @Column({ type: 'integer', default: 0 }) repoId!: number;
  @Column({ type: 'boolean', default: true }) isActive!: boolean;
  @TimestampColumn() createdAt!: Date;
  @TimestampColumn() expiresAt!: Date;
}

/** A workflow run: one workflow file triggered by one event at one commit. */
@Entity({ name: 'action_run' })
export class ActionRunEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'integer' }) repoId!: number;
  @Column({ type: 'integer' }) ownerId!: number;
  /** The run's number in its repository (Gitea's index, the API's run_number). */
  @Column({ type: 'integer' }) idx!: number;
  @Column({ type: 'varchar', length: 255 }) title!: string;
  /** The workflow's file name (`ci.yml`), Gitea's WorkflowID. */
  @Column({ type: 'varchar', length: 255 }) workflowId!: string;
  @Column({ type: 'varchar', length: 255 }) workflowPath!: string;
  @Column({ type: 'integer' }) triggerUserId!: number;
  /** Full ref name (`refs/heads/main`). */
  @Column({ type: 'varchar', length: 255 }) ref!: string;
  @Column({ type: 'varchar', length: 64 }) commitSha!: string;
  @Column({ type: 'varchar', length: 64 }) event!: string;
  /** The event id (or a dispatch's own id) with the workflow path: a redelivered event starts nothing twice. */
  @Column({ type: 'varchar', length: 255 }) triggerKey!: string;
  /** JSON of the event payload the jobs see as `github.event`. */
  @Column({ type: 'text' }) eventPayload!: string;
  @Column({ type: 'integer' }) status!: number;
  /** Why a run failed before any job ran (a malformed workflow file). */
  @Column({ type: 'text', default: '' }) error!: string;
  @Column({ type: 'integer', default: 1 }) attempt!: number;
  @TimestampColumn({ nullable: true }) started!: Date | null;
  @TimestampColumn({ nullable: true }) stopped!: Date | null;
  @TimestampColumn() createdAt!: Date;
  @TimestampColumn() updatedAt!: Date;
}

/** A job of a run. */
@Entity({ name: 'action_run_job' })
export class ActionRunJobEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'integer' }) runId!: number;
  @Column({ type: 'integer' }) repoId!: number;
  @Column({ type: 'integer' }) ownerId!: number;
  @Column({ type: 'varchar', length: 64 }) commitSha!: string;
  @Column({ type: 'varchar', length: 255 }) name!: string;
  /** The job's key in `jobs:`. */
  @Column({ type: 'varchar', length: 255 }) jobId!: string;
  @Column({ type: 'integer', default: 1 }) attempt!: number;
  /** The workflow as act_runner wants it: this one job, its `on:` and the top-level settings. */
  @Column({ type: 'text' }) workflowPayload!: string;
  /** JSON array of the job keys this job needs. */
  @Column({ type: 'text', default: '[]' }) needs!: string;
  /** JSON array of the labels of `runs-on`. */
  @Column({ type: 'text', default: '[]' }) runsOn!: string;
  /** JSON array of the steps' names, which the API lists with the task's step states. */
  @Column({ type: 'text', default: '[]' }) stepNames!: string;
  /** The job's `if:` as written. */
  @Column({ type: 'text', default: '' }) condition!: string;
  @Column({ type: 'integer', default: 0 }) taskId!: number;
  @Column({ type: 'integer' }) status!: number;
  @TimestampColumn({ nullable: true }) started!: Date | null;
  @TimestampColumn({ nullable: true }) stopped!: Date | null;
  @TimestampColumn() createdAt!: Date;
  @TimestampColumn() updatedAt!: Date;
}

/** One attempt of a job on a runner, with its steps, outputs and log. */
@Entity({ name: 'action_task' })
export class ActionTaskEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'integer' }) jobId!: number;
  @Column({ type: 'integer' }) runId!: number;
  @Column({ type: 'integer' }) repoId!: number;
  @Column({ type: 'integer' }) runnerId!: number;
  @Column({ type: 'integer', default: 1 }) attempt!: number;
  @Column({ type: 'integer' }) status!: number;
  /** JSON array of StoredStep. */
  @Column({ type: 'text', default: '[]' }) steps!: string;
  /** JSON object of the job's outputs. */
  @Column({ type: 'text', default: '{}' }) outputs!: string;
  /** The log rows received so far, one per line. */
  @Column({ type: 'text', default: '' }) log!: string;
  @Column({ type: 'integer', default: 0 }) logLength!: number;
  @Column({ type: 'boolean', default: false }) logComplete!: boolean;
  /** The task's token as SHA-256 of salt and token (hex); the token itself is handed to the runner once. */
  @Column({ type: 'varchar', length: 64, default: '' }) tokenHash!: string;
  @Column({ type: 'varchar', length: 32, default: '' }) tokenSalt!: string;
  /** The token's last eight characters: the indexed part its lookup narrows the rows by. */
  @Column({ type: 'varchar', length: 8, default: '' }) tokenLastEight!: string;
  /** A pull request from a fork: its token only reads (Gitea's IsForkPullRequest). */
  @Column({ type: 'boolean', default: false }) isForkPullRequest!: boolean;
  @TimestampColumn({ nullable: true }) started!: Date | null;
  @TimestampColumn({ nullable: true }) stopped!: Date | null;
  @TimestampColumn() createdAt!: Date;
  @TimestampColumn() updatedAt!: Date;
}

/** A variable (ownerId for an organization's or user's, repoId for a repository's). */
@Entity({ name: 'action_variable' })
export class ActionVariableEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'integer', default: 0 }) ownerId!: number;
  @Column({ type: 'integer', default: 0 }) repoId!: number;
  @Column({ type: 'varchar', length: 255 }) name!: string;
  @Column({ type: 'text' }) data!: string;
  @Column({ type: 'text', default: '' }) description!: string;
  @TimestampColumn() createdAt!: Date;
  @TimestampColumn() updatedAt!: Date;
}

/** A secret, sealed with SecretBox; the API never shows `data`. */
@Entity({ name: 'action_secret' })
export class ActionSecretEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'integer', default: 0 }) ownerId!: number;
  @Column({ type: 'integer', default: 0 }) repoId!: number;
  @Column({ type: 'varchar', length: 255 }) name!: string;
  @Column({ type: 'text' }) data!: string;
  @Column({ type: 'text', default: '' }) description!: string;
  @TimestampColumn() createdAt!: Date;
  @TimestampColumn() updatedAt!: Date;
}

/** A workflow's `on: schedule` of a repository's default branch, as its last push there left it. */
@Entity({ name: 'action_schedule' })
export class ActionScheduleEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'integer' }) repoId!: number;
  @Column({ type: 'integer' }) ownerId!: number;
  @Column({ type: 'varchar', length: 255 }) workflowId!: string;
  /** JSON array of the cron specs (UTC, five fields). */
  @Column({ type: 'text' }) specs!: string;
  @Column({ type: 'varchar', length: 255 }) ref!: string;
  @Column({ type: 'varchar', length: 64 }) commitSha!: string;
  @Column({ type: 'integer' }) triggerUserId!: number;
  @TimestampColumn() nextRun!: Date;
  @TimestampColumn() createdAt!: Date;
}

/** A workflow a repository turned off (`PUT …/actions/workflows/{id}/disable`): nothing starts its runs. */
@Entity({ name: 'action_workflow_disabled' })
export class ActionWorkflowDisabledEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'integer' }) repoId!: number;
  @Column({ type: 'varchar', length: 255 }) workflowId!: string;
  @TimestampColumn() createdAt!: Date;
}

/** One row (id 1): bumped whenever a job becomes waiting, so idle runners skip the query (Gitea's tasks_version). */
@Entity({ name: 'action_tasks_version' })
export class ActionTasksVersionEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'integer', default: 0 }) version!: number;
}

export const ActionsServiceEntities = [
  ActionRunnerEntity,
  ActionRunnerTokenEntity,
  ActionRunEntity,
  ActionRunJobEntity,
  ActionTaskEntity,
  ActionVariableEntity,
  ActionSecretEntity,
  ActionTasksVersionEntity,
  ActionScheduleEntity,
  ActionWorkflowDisabledEntity,
];
export const ActionsServiceMigrations = [Actions1763800000600, TaskTokens1763800000800, DisabledWorkflows1763800000910];
