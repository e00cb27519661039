import { Injectable } from '@nestjs/common';
import { In, MoreThan, type EntityManager } from 'typeorm';
import {
  ContractError,
  invalid,
  notFound,
  RepoFactPatterns,
  type ActionsTaskGrant,
  type RepoAccess,
  type RunnerCredentials,
  type RunnerFetchAnswer,
  type RunnerLogRow,
  type RunnerTaskMessage,
  type RunnerTaskNeed,
  type RunnerTaskState,
  type RunnerUpdateTaskAnswer,
} from '@gitforge/contracts';
import { Database, DirectoryClient, PlatformConfig, RpcClient } from '@gitforge/platform';
import { ActionRunEntity, ActionRunJobEntity, ActionRunnerEntity, ActionTaskEntity } from '../entities.js';
import { labelNames, RunnersService } from '../runners/runners.service.js';
import { RunEngine } from '../runs/run-engine.service.js';
import { aggregate, isDone, resultOfStatus, Status, statusOfResult } from '../runs/status.js';
import { VariablesService } from '../variables/variables.service.js';
import { generateTaskToken, looksLikeTaskToken, taskTokenMatches } from './task-token.js';

/** A step's state as stored on its task (runner.v1 StepState, times in ms). */
export interface StoredStep {
  id: number;
  status: number;
  started: number | null;
  stopped: number | null;
  logIndex: number;
  logLength: number;
}

/** What a task's context reads of a pull request event. */
interface PullEventShape {
  pull_request?: { head?: { ref?: string; repo_id?: number }; base?: { ref?: string } };
}

/** A pull request from a fork runs code its author wrote: no secrets, and a read-only token (Gitea's IsForkPullRequest). */
function isForkPullRequest(run: ActionRunEntity): boolean {
  const event = JSON.parse(run.eventPayload) as PullEventShape;
  return run.event === 'pull_request' && event.pull_request?.head?.repo_id !== run.repoId;
}

/** Rolls back a task an ephemeral runner took while another of its fetches took one already. */
class EphemeralRunnerSpent extends Error {}

/** Most log rows kept per task; later rows are acknowledged and dropped (Gitea caps a log's size too). */
const MAX_LOG_ROWS = 100_000;

/** The runner protocol's second half: handing out jobs as tasks and taking their reports. */
@Injectable()
export class TasksService {
  constructor(
    private readonly db: Database,
    private readonly runners: RunnersService,
    private readonly engine: RunEngine,
    private readonly variables: VariablesService,
    private readonly rpc: RpcClient,
    private readonly directory: DirectoryClient,
    private readonly config: PlatformConfig,
  ) {}

  /**
   * Jobs a runner may take, oldest first: its scope's (a repository's runner only that
   * repository's), waiting, labels matching. Read a batch at a time, so that jobs waiting for
   * labels no runner has do not hide the ones behind them.
   */
  private async *candidates(runner: ActionRunnerEntity): AsyncGenerator<ActionRunJobEntity> {
    const where = runner.repoId ? { repoId: runner.repoId } : runner.ownerId ? { ownerId: runner.ownerId } : {};
    const labels = new Set(labelNames(JSON.parse(runner.labels) as string[]));
    for (let after = 0; ; ) {
      const jobs = await this.db.manager.find(ActionRunJobEntity, {
        where: { ...where, status: Status.waiting, id: MoreThan(after) },
        order: { id: 'ASC' },
        take: 200,
      });
      for (const job of jobs) {
        if ((JSON.parse(job.runsOn) as string[]).every((l) => labels.has(l))) yield job;
      }
      if (jobs.length < 200) return;
      after = jobs[jobs.length - 1]!.id;
    }
  }

  /** runner.v1 FetchTask: nothing while the runner's tasks_version is current, else the oldest job it can take. */
  async fetch(credentials: RunnerCredentials, tasksVersion: number): Promise<RunnerFetchAnswer> {
    const runner = await this.runners.authenticate(credentials);
    const latest = await this.engine.tasksVersion();
    if (runner.disabled || (tasksVersion > 0 && tasksVersion === latest)) return { task: null, tasksVersion: latest };
    for await (const job of this.candidates(runner)) {
      // The task's own token (Gitea generates it with the task): the runner gets it once, in the task's secrets and context.
      const { token, stored } = generateTaskToken();
      const taskId = await this.db.transaction(async (m) => {
        const now = new Date();
        const run = await m.findOneBy(ActionRunEntity, { id: job.runId });
        const task = await m.save(
          m.create(ActionTaskEntity, {
            jobId: job.id,
            runId: job.runId,
            repoId: job.repoId,
            runnerId: runner.id,
            attempt: job.attempt,
            status: Status.running,
            steps: JSON.stringify(
              (JSON.parse(job.stepNames) as string[]).map((_, i): StoredStep => ({ id: i, status: Status.waiting, started: null, stopped: null, logIndex: 0, logLength: 0 })),
            ),
            outputs: '{}',
            log: '',
            logLength: 0,
            logComplete: false,
            ...stored,
            isForkPullRequest: run ? isForkPullRequest(run) : false,
            started: now,
            stopped: null,
            createdAt: now,
            updatedAt: now,
          }),
        );
        // Only one runner takes a job, however many ask at once.
        const taken = await m.update(ActionRunJobEntity, { id: job.id, status: Status.waiting }, { status: Status.running, taskId: task.id, started: now, updatedAt: now });
        if (taken.affected !== 1) {
          await m.delete(ActionTaskEntity, { id: task.id });
          return null;
        }
        // An ephemeral runner runs one task: of its fetches at once, one claims it, the others undo theirs.
        if (runner.ephemeral) {
          const claimed = await m.update(ActionRunnerEntity, { id: runner.id, disabled: false }, { disabled: true });
          if (claimed.affected !== 1) throw new EphemeralRunnerSpent();
        }
        await this.engine.advance(m, job.runId);
        return task.id;
      }).catch((err: unknown) => {
        if (err instanceof EphemeralRunnerSpent) return undefined;
        throw err;
      });
      if (taskId === undefined) break;
      if (taskId === null) continue;
      await this.runners.authenticate(credentials, true);
      let message: RunnerTaskMessage;
      try {
        message = await this.message(taskId, token);
      } catch (err) {
        // The runner never gets this task: the job waits again instead of running nowhere until stop_zombie_tasks fails it.
        await this.release(runner, job, taskId);
        throw err;
      }
      await this.engine.reportStatuses(job.runId, [job.id]);
      return { task: message, tasksVersion: latest };
    }
    return { task: null, tasksVersion: latest };
  }

  /** Undoes a hand-out whose task could not be sent (Gitea builds the task in the transaction that takes the job). */
  private async release(runner: ActionRunnerEntity, job: ActionRunJobEntity, taskId: number): Promise<void> {
    await this.db.transaction(async (m) => {
      const back = await m.update(ActionRunJobEntity, { id: job.id, taskId, status: Status.running }, { status: Status.waiting, taskId: 0, started: null, updatedAt: new Date() });
      if (back.affected !== 1) return;
      await m.delete(ActionTaskEntity, { id: taskId });
      if (runner.ephemeral) await m.update(ActionRunnerEntity, { id: runner.id }, { disabled: false });
      await this.engine.bumpTasksVersion(m);
      await this.engine.advance(m, job.runId);
    });
  }

  /**
   * The task as act_runner runs it: payload, `github` context, the secrets and variables its
   * repository may see, needs' results, and the task's token (Gitea's getSecretsOfTask and
   * generateTaskContext).
   */
  private async message(taskId: number, token: string): Promise<RunnerTaskMessage> {
    const task = await this.db.manager.findOneByOrFail(ActionTaskEntity, { id: taskId });
    const job = await this.db.manager.findOneByOrFail(ActionRunJobEntity, { id: task.jobId });
    const run = await this.db.manager.findOneByOrFail(ActionRunEntity, { id: job.runId });
    // The repository as the user who triggered the run sees it (the run exists because they could push).
    const [account] = await this.directory.accountsByIds(null, [run.triggerUserId]);
    const actor = account ? { id: account.id, login: account.login, isAdmin: account.isAdmin, scopes: null } : null;
    const repos = await this.rpc.call<RepoAccess[], Record<string, string>, { ids: number[] }>(RepoFactPatterns.accessMany, {
      actor,
      body: { ids: [run.repoId] },
    });
    const repo = repos[0];
    const fullName = repo ? `${repo.ownerLogin}/${repo.name}` : '';
    const root = this.config.rootUrl;
    const event = JSON.parse(run.eventPayload) as PullEventShape;
    const refName = run.ref.replace(/^refs\/(heads|tags)\//, '');
    const context: Record<string, unknown> = {
      event,
      event_name: run.event,
      ref: run.ref,
      ref_name: refName,
      ref_type: run.ref.startsWith('refs/tags/') ? 'tag' : 'branch',
      sha: run.commitSha,
      repository: fullName,
      repository_owner: repo?.ownerLogin ?? '',
      repositoryUrl: repo ? `${root}${fullName}.git` : '',
      actor: account?.login ?? '',
      triggering_actor: account?.login ?? '',
      workflow: run.workflowId,
      run_id: String(run.id),
      run_number: String(run.idx),
      run_attempt: String(job.attempt),
      job: job.jobId,
      server_url: root.replace(/\/$/, ''),
      api_url: `${root}api/v1`,
      graphql_url: '',
      retention_days: '',
      head_ref: event.pull_request?.head?.ref ?? '',
      base_ref: event.pull_request?.base?.ref ?? '',
      token,
      workspace: '',
      action: '',
      action_path: '',
      action_ref: '',
      action_repository: '',
      path: '',
      env: '',
      gitea_default_actions_url: 'https://github.com',
    };
    const needs: Record<string, RunnerTaskNeed> = {};
    const needKeys = JSON.parse(job.needs) as string[];
    if (needKeys.length > 0) {
      const needJobs = await this.db.manager.find(ActionRunJobEntity, { where: { runId: run.id, jobId: In(needKeys) } });
      const needTasks = await this.db.manager.findBy(ActionTaskEntity, { id: In(needJobs.map((j) => j.taskId).filter((id) => id > 0)) });
      // A matrix job's rows answer as one need (Gitea's FindTaskNeeds): the aggregate of their
      // results, and their outputs merged, a later combination's non-empty value winning.
      for (const key of needKeys) {
        const rows = needJobs.filter((nj) => nj.jobId === key).sort((a, b) => a.id - b.id);
        if (rows.length === 0) continue;
        const outputs: Record<string, string> = {};
        for (const row of rows) {
          const t = needTasks.find((x) => x.id === row.taskId);
          for (const [name, value] of Object.entries(t ? (JSON.parse(t.outputs) as Record<string, string>) : {})) {
            if (value !== '' || !(name in outputs)) outputs[name] = value;
          }
        }
        needs[key] = { outputs, result: resultOfStatus(aggregate(rows.map((r) => r.status))) };
      }
    }
    const { secrets, vars } = await this.variables.forTask(run.ownerId, run.repoId);
    // A pull request from a fork runs code its author wrote: no secrets (Gitea's and GitHub's rule) but the token, which only reads.
    if (task.isForkPullRequest) for (const key of Object.keys(secrets)) delete secrets[key];
    // Both names, as Gitea gives them; the API refuses secrets with these names, so nothing is overwritten.
    secrets.GITEA_TOKEN = token;
    secrets.GITHUB_TOKEN = token;
    return { id: task.id, workflowPayload: job.workflowPayload, context, secrets, vars, needs };
  }

  /**
   * The running task a token belongs to (Gitea's GetRunningTaskByToken), as the grant its
   * requests carry; null for any other token, and once the task is over, however it ended.
   */
  async grantOfToken(token: string): Promise<ActionsTaskGrant | null> {
    if (!looksLikeTaskToken(token)) return null;
    const candidates = await this.db.manager.find(ActionTaskEntity, {
      select: { id: true, repoId: true, isForkPullRequest: true, tokenHash: true, tokenSalt: true, tokenLastEight: true },
      where: { tokenLastEight: token.slice(-8), status: Status.running },
    });
    const task = candidates.find((t) => taskTokenMatches(t, token));
    return task ? { taskId: task.id, repoId: task.repoId, readOnly: task.isForkPullRequest } : null;
  }

  private async runnerTask(m: EntityManager, runnerId: number, taskId: number): Promise<ActionTaskEntity> {
    const task = await m.findOneBy(ActionTaskEntity, { id: taskId });
    if (!task) throw notFound('task not found');
    // Gitea: a runner reports only its own tasks.
    if (task.runnerId !== runnerId) throw new ContractError('permission_denied', 'the task is not assigned to this runner');
    return task;
  }

  /** runner.v1 UpdateTask: steps, outputs and, with a result, the end of the task, its job and what that unblocks. */
  async update(credentials: RunnerCredentials, state: RunnerTaskState, outputs: Record<string, string>): Promise<RunnerUpdateTaskAnswer> {
    const runner = await this.runners.authenticate(credentials, true);
    const finished = statusOfResult(state.result);
    const outcome = await this.db.transaction(async (m) => {
      const task = await this.runnerTask(m, runner.id, state.id);
      const stored = JSON.parse(task.outputs) as Record<string, string>;
      for (const [key, value] of Object.entries(outputs ?? {})) {
        // Gitea keeps the first value reported for an output.
        if (!(key in stored) && key.length <= 255 && typeof value === 'string') stored[key] = value;
      }
      if (isDone(task.status)) {
        // Already over (cancelled from the API, stopped by a cron task): tell the runner.
        await m.update(ActionTaskEntity, { id: task.id }, { outputs: JSON.stringify(stored) });
        return { task: { ...task, outputs: JSON.stringify(stored) }, changed: false };
      }
      const steps: StoredStep[] = (state.steps ?? []).map((s) => ({
        id: s.id,
        status: statusOfResult(s.result) ?? (s.startedAt ? Status.running : Status.waiting),
        started: s.startedAt,
        stopped: s.stoppedAt,
        logIndex: s.logIndex,
        logLength: s.logLength,
      }));
      const now = new Date();
      const patch: Partial<ActionTaskEntity> = { outputs: JSON.stringify(stored), updatedAt: now };
      if (steps.length > 0) patch.steps = JSON.stringify(steps);
      if (finished !== null) {
        patch.status = finished;
        patch.stopped = state.stoppedAt ? new Date(state.stoppedAt) : now;
      }
      await m.update(ActionTaskEntity, { id: task.id }, patch);
      if (finished !== null) {
        await m.update(ActionRunJobEntity, { id: task.jobId, taskId: task.id }, { status: finished, stopped: patch.stopped, updatedAt: now });
        await this.engine.advance(m, task.runId);
      }
      return { task: { ...task, ...patch } as ActionTaskEntity, changed: finished !== null };
    });
    if (outcome.changed) {
      await this.engine.reportStatuses(outcome.task.runId);
      if (runner.ephemeral) await this.db.manager.delete(ActionRunnerEntity, { id: runner.id });
    }
    return {
      state: { id: outcome.task.id, result: resultOfStatus(outcome.task.status) },
      sentOutputs: Object.keys(JSON.parse(outcome.task.outputs) as Record<string, string>),
    };
  }

  /** runner.v1 UpdateLog: rows from `index` on; what is already stored is skipped; answers how many rows are stored. */
  async log(credentials: RunnerCredentials, taskId: number, index: number, rows: RunnerLogRow[], noMore: boolean): Promise<number> {
    const runner = await this.runners.authenticate(credentials, true);
    return this.db.transaction(async (m) => {
      const task = await this.runnerTask(m, runner.id, taskId);
      const ack = task.logLength;
      if (index < 0) throw invalid('invalid log index');
      if (index > ack) return ack;
      const fresh = rows.slice(ack - index).slice(0, Math.max(0, MAX_LOG_ROWS - ack));
      const text = fresh.map((r) => `${new Date(r.time).toISOString()} ${r.content.replace(/\r?\n/g, ' ')}\n`).join('');
      const patch: Partial<ActionTaskEntity> = { updatedAt: new Date() };
      if (fresh.length > 0) {
        patch.log = task.log + text;
        patch.logLength = ack + fresh.length;
      }
      if (noMore) patch.logComplete = true;
      await m.update(ActionTaskEntity, { id: task.id }, patch);
      return patch.logLength ?? ack;
    });
  }
}
