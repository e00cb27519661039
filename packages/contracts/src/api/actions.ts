import type { CommitStatusState } from './commit.js';
import type { Repository } from './repo.js';
import type { User } from './user.js';

/** Where an actions resource lives: the site (admin), an organization, a user (the caller), or a repository. */
export type ActionsScope =
  | { kind: 'admin' }
  | { kind: 'org'; org: string }
  | { kind: 'user' }
  | { kind: 'repo'; owner: string; repo: string };

export interface ActionRunnerLabel {
  id: number;
  name: string;
  type: 'custom';
}

/** Gitea's ActionRunner. `status` is `online`, `offline` or `idle`/`active` as Gitea's api shows it. */
export interface ActionRunner {
  id: number;
  name: string;
  status: string;
  busy: boolean;
  disabled: boolean;
  ephemeral: boolean;
  labels: ActionRunnerLabel[];
}

export interface ActionRunnersResponse {
  runners: ActionRunner[];
  total_count: number;
}

/** A workflow file of the default branch (Gitea's ActionWorkflow): its id is the file's name. */
export interface ActionWorkflow {
  id: string;
  name: string;
  path: string;
  /** `active`, or `disabled_manually` after `PUT …/disable`. */
  state: string;
  created_at: string;
  updated_at: string;
  url: string;
  html_url: string;
  badge_url: string;
}

export interface ActionWorkflowResponse {
  workflows: ActionWorkflow[];
  total_count: number;
}

/** What a dispatch started (Gitea's RunDetails, with `return_run_details`). */
export interface RunDetails {
  workflow_run_id: number;
  run_url: string;
  html_url: string;
}

export interface RegistrationToken {
  token: string;
}

/** Gitea's shapes: `omitempty` fields are left out when empty (a conclusion before the end, a job no runner took). */
export interface ActionWorkflowStep {
  name: string;
  number: number;
  status: string;
  conclusion?: string;
  started_at: string;
  completed_at: string;
}

export interface ActionWorkflowJob {
  id: number;
  run_id: number;
  run_url: string;
  run_attempt: number;
  name: string;
  head_branch?: string;
  head_sha: string;
  html_url: string;
  url: string;
  labels: string[];
  runner_id?: number;
  runner_name?: string;
  status: string;
  conclusion?: string;
  steps: ActionWorkflowStep[];
  created_at: string;
  started_at: string;
  completed_at: string;
}

export interface ActionWorkflowJobsResponse {
  jobs: ActionWorkflowJob[];
  total_count: number;
}

export interface ActionWorkflowRun {
  id: number;
  url: string;
  html_url: string;
  display_title: string;
  path: string;
  event: string;
  run_attempt: number;
  run_number: number;
  head_sha: string;
  head_branch?: string;
  status: string;
  conclusion?: string;
  actor?: User;
  trigger_actor?: User;
  repository?: Repository;
  started_at: string;
  completed_at: string;
  previous_attempt_url: string | null;
  pull_requests: unknown[];
}

export interface ActionWorkflowRunsResponse {
  workflow_runs: ActionWorkflowRun[];
  total_count: number;
}

/** Gitea's ActionTask (`GET /repos/{o}/{r}/actions/tasks`). */
export interface ActionTask {
  id: number;
  name: string;
  head_branch: string;
  head_sha: string;
  run_number: number;
  event: string;
  display_title: string;
  status: string;
  workflow_id: string;
  url: string;
  created_at: string;
  updated_at: string;
  run_started_at: string;
}

export interface ActionTaskResponse {
  workflow_runs: ActionTask[];
  total_count: number;
}

export interface ActionVariable {
  owner_id: number;
  repo_id: number;
  name: string;
  data: string;
  description: string;
}

export interface ActionSecret {
  name: string;
  description: string;
  created_at: string;
}

/** What repo-service reads for actions at one commit: the workflow files, and the paths a push changed. */
export interface WorkflowFilesRequest {
  repoId: number;
  /** The commit to read; or else `ref`, a branch or tag name (short or full), resolved here. */
  sha?: string;
  ref?: string;
  /** The commit before a push; with it, `changedPaths` lists what the push changed (null when unknown). */
  before?: string;
}

export interface WorkflowFile {
  /** `.gitea/workflows/ci.yml` */
  path: string;
  content: string;
}

export interface WorkflowFiles {
  /** The commit read, and the full ref name `ref` resolved to (null when it resolved to nothing). */
  sha: string | null;
  ref: string | null;
  /** The commit's author date with its zone (RFC 3339), which Gitea shows as a workflow's dates. */
  authoredAt?: string;
  files: WorkflowFile[];
  changedPaths: string[] | null;
}

/** The runner protocol as it crosses the transport: the gateway decodes protobuf and forwards plain JSON. */
export interface RunnerCredentials {
  uuid: string;
  token: string;
}

export interface RunnerMessage {
  id: number;
  uuid: string;
  token: string;
  name: string;
  version: string;
  labels: string[];
  ephemeral: boolean;
}

export interface RunnerTaskNeed {
  outputs: Record<string, string>;
  /** runner.v1 Result: 1 success, 2 failure, 3 cancelled, 4 skipped. */
  result: number;
}

export interface RunnerTaskMessage {
  id: number;
  workflowPayload: string;
  context: Record<string, unknown>;
  secrets: Record<string, string>;
  vars: Record<string, string>;
  needs: Record<string, RunnerTaskNeed>;
}

export interface RunnerFetchAnswer {
  task: RunnerTaskMessage | null;
  tasksVersion: number;
}

export interface RunnerStepState {
  id: number;
  result: number;
  startedAt: number | null;
  stoppedAt: number | null;
  logIndex: number;
  logLength: number;
}

export interface RunnerTaskState {
  id: number;
  result: number;
  startedAt: number | null;
  stoppedAt: number | null;
  steps: RunnerStepState[];
}

export interface RunnerUpdateTaskAnswer {
  state: { id: number; result: number };
  sentOutputs: string[];
}

export interface RunnerLogRow {
  /** Milliseconds since the epoch. */
  time: number;
  content: string;
}

/**
 * A job's commit status, written by actions-service through repo-service
 * (CommitStatusPatterns.createForActions) as the Actions user, whoever triggered the run.
 */
export interface ActionsCommitStatus {
  repoId: number;
  sha: string;
  state: CommitStatusState;
  description: string;
  context: string;
  /** The run's and the job's ids: the status links to `/{owner}/{repo}/actions/runs/{run}/jobs/{job}`, as Gitea's run.Link() does. */
  runId: number;
  jobId: number;
}
