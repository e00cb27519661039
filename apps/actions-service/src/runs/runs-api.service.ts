import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { In, Not, type FindOptionsWhere } from 'typeorm';
import {
  conflict,
  ContractError,
  forbidden,
  formatTime,
  formatTimestamp,
  idFrom,
  invalid,
  notFound,
  pageOf,
  RepoFactPatterns,
  unprocessable,
  type Actor,
  type ActionsScope,
  type ActionTask,
  type ActionWorkflowJob,
  type ActionWorkflowRun,
  type ActionWorkflowStep,
  type CreateActionWorkflowDispatch,
  type ListOptions,
  type Page,
  type RepoAccess,
  type RunDetails,
  type User,
} from '@gitforge/contracts';
import { Database, DirectoryClient, RpcClient } from '@gitforge/platform';
import { ActionRunEntity, ActionRunJobEntity, ActionRunnerEntity, ActionTaskEntity } from '../entities.js';
import { ScopeService, type ResolvedScope } from '../scope.service.js';
import type { StoredStep } from '../tasks/tasks.service.js';
import { RunEngine } from './run-engine.service.js';
import { apiStatus, isDone, Status, statusFilter, statusName } from './status.js';
import { dispatchInputDefaults, parseWorkflow, WorkflowError } from './workflow.js';

/** Query of the runs listings (GitHub's names). */
export interface RunsQuery {
  event?: unknown;
  branch?: unknown;
  status?: unknown;
  actor?: unknown;
  head_sha?: unknown;
  exclude_pull_requests?: unknown;
}

export interface JobsQuery {
  status?: unknown;
  sort?: unknown;
  order?: unknown;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Repeated query values (`status=a&status=b`) arrive as arrays. */
const statuses = (v: unknown): number[] | null => {
  const values = (Array.isArray(v) ? v : [v]).filter((x) => x !== undefined && x !== '');
  if (values.length === 0) return null;
  return values.flatMap((x) => statusFilter(x) ?? []);
};

/** Gitea's RefName.BranchName(): the branch of `refs/heads/…`, empty for tags and pull request refs. */
const branchOf = (ref: string): string => (ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : '');

/** The API of runs, jobs and tasks: listings at every level, one run or job, logs, cancel, rerun, dispatch. */
@Injectable()
export class RunsApiService {
  constructor(
    private readonly db: Database,
    private readonly scopes: ScopeService,
    private readonly engine: RunEngine,
    private readonly rpc: RpcClient,
    private readonly directory: DirectoryClient,
  ) {}

  /** Runs and jobs of the scope: a repository's, an owner's repositories', or all. */
  private scopeWhere(s: ResolvedScope): { repoId?: number; ownerId?: number } {
    if (s.kind === 'repo') return { repoId: s.repoId };
    if (s.kind === 'org' || s.kind === 'user') return { ownerId: s.ownerId };
    return {};
  }

  /** Repositories of a page as the caller sees them (one call); runs of repositories they cannot see are left out. */
  private async repos(actor: Actor | null, s: ResolvedScope, ids: number[]): Promise<Map<number, RepoAccess>> {
    if (s.repo) return new Map([[s.repo.id, s.repo]]);
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const list = await this.rpc.call<RepoAccess[], Record<string, string>, { ids: number[] }>(RepoFactPatterns.accessMany, { actor, body: { ids: unique } });
    return new Map(list.map((r) => [r.id, r]));
  }


  /**
   * Gitea's ToActionWorkflowRun: users as anyone sees them (ToUser without a doer), the repository
   * as to someone with no access (ToRepo with AccessModeNone), `omitempty` fields left out when empty.
   */
  private toRun(run: ActionRunEntity, repo: RepoAccess, users: Map<number, User>): ActionWorkflowRun {
    const { status, conclusion } = apiStatus(run.status);
    const api = repo.repository.url;
    const user = users.get(run.triggerUserId);
    const owner = users.get(repo.ownerId) ?? repo.repository.owner;
    const branch = branchOf(run.ref);
    return {
      id: run.id,
      url: `${api}/actions/runs/${run.id}`,
      html_url: `${repo.repository.html_url}/actions/runs/${run.id}`,
      display_title: run.title,
      path: `${run.workflowId}@${run.ref}`,
      event: run.event,
      run_attempt: run.attempt,
      run_number: run.idx,
      head_sha: run.commitSha,
      ...(branch ? { head_branch: branch } : {}),
      status,
      ...(conclusion ? { conclusion } : {}),
      ...(user ? { actor: user, trigger_actor: user } : {}),
      repository: { ...repo.repository, owner, permissions: { admin: false, push: false, pull: false } },
      started_at: formatTimestamp(run.started),
      completed_at: formatTimestamp(run.stopped),
      previous_attempt_url: run.attempt > 1 ? `${api}/actions/runs/${run.id}/attempts/${run.attempt - 1}` : null,
      pull_requests: [],
    };
  }

  private toJob(
    job: ActionRunJobEntity,
    run: ActionRunEntity,
    repo: RepoAccess,
    task: ActionTaskEntity | undefined,
    runner: ActionRunnerEntity | undefined,
  ): ActionWorkflowJob {
    const { status, conclusion } = apiStatus(job.status);
    const api = repo.repository.url;
    const names = JSON.parse(job.stepNames) as string[];
    const stored = task ? (JSON.parse(task.steps) as StoredStep[]) : [];
    const steps: ActionWorkflowStep[] = task
      ? names.map((name, i) => {
          const st = stored.find((x) => x.id === i);
          const s = apiStatus(st?.status ?? Status.waiting);
          return {
            name,
            // Gitea's ToActionWorkflowJob numbers the steps from 0.
            number: i,
            status: s.status,
            ...(s.conclusion ? { conclusion: s.conclusion } : {}),
            started_at: formatTimestamp(st?.started ? new Date(st.started) : null),
            completed_at: formatTimestamp(st?.stopped ? new Date(st.stopped) : null),
          };
        })
      : [];
    return {
      id: job.id,
      run_id: run.id,
      run_url: `${api}/actions/runs/${run.id}`,
      run_attempt: job.attempt,
      name: job.name,
      ...(branchOf(run.ref) ? { head_branch: branchOf(run.ref) } : {}),
      head_sha: job.commitSha,
      html_url: `${repo.repository.html_url}/actions/runs/${run.id}/jobs/${job.id}`,
      url: `${api}/actions/jobs/${job.id}`,
      labels: JSON.parse(job.runsOn) as string[],
      ...(runner ? { runner_id: runner.id, runner_name: runner.name } : {}),
      status,
      ...(conclusion ? { conclusion } : {}),
      steps,
      created_at: formatTime(job.createdAt),
      started_at: formatTimestamp(job.started),
      completed_at: formatTimestamp(job.stopped),
    };
  }

  private async runsPage(actor: Actor | null, s: ResolvedScope, rows: ActionRunEntity[], total: number, options: ListOptions): Promise<Page<ActionWorkflowRun>> {
    const repos = await this.repos(actor, s, rows.map((r) => r.repoId));
    // Trigger users and repository owners as anyone sees them (ToUser without a doer), one call.
    const users = await this.directory.usersByIds(null, [...new Set([...rows.map((r) => r.triggerUserId), ...[...repos.values()].map((r) => r.ownerId)])]);
    const byId = new Map(users.map((u) => [u.id, u]));
    const items = rows.filter((r) => repos.has(r.repoId)).map((r) => this.toRun(r, repos.get(r.repoId)!, byId));
    return pageOf(items, total, options);
  }

  async listRuns(actor: Actor | null, scope: ActionsScope, query: RunsQuery, options: ListOptions, workflowId?: string): Promise<Page<ActionWorkflowRun>> {
    const s = await this.scopes.resolve(actor, scope, scope.kind === 'repo' ? 'read' : 'admin');
    const where: FindOptionsWhere<ActionRunEntity> = { ...this.scopeWhere(s) };
    const wanted = statuses(query.status);
    if (wanted) where.status = In(wanted);
    if (str(query.event)) where.event = str(query.event)!;
    if (query.exclude_pull_requests === true || query.exclude_pull_requests === 'true') {
      if (where.event === 'pull_request') return pageOf([], 0, options);
      where.event ??= Not('pull_request');
    }
    if (str(query.branch)) where.ref = `refs/heads/${str(query.branch)}`;
    if (str(query.head_sha)) where.commitSha = str(query.head_sha)!;
    if (workflowId !== undefined) where.workflowId = workflowId;
    if (str(query.actor)) {
      const [account] = await this.directory.accountsByNames(actor, [str(query.actor)!]);
      if (!account) return pageOf([], 0, options);
      where.triggerUserId = account.id;
    }
    const [rows, total] = await this.db.manager.findAndCount(ActionRunEntity, {
      where,
      order: { id: 'DESC' },
      skip: (options.page - 1) * options.limit,
      take: options.limit,
    });
    return this.runsPage(actor, s, rows, total, options);
  }

  private async jobsPage(actor: Actor | null, s: ResolvedScope, jobs: ActionRunJobEntity[], total: number, options: ListOptions): Promise<Page<ActionWorkflowJob>> {
    const runIds = [...new Set(jobs.map((j) => j.runId))];
    const runs = runIds.length ? await this.db.manager.findBy(ActionRunEntity, { id: In(runIds) }) : [];
    const taskIds = jobs.map((j) => j.taskId).filter((id) => id > 0);
    const tasks = taskIds.length ? await this.db.manager.findBy(ActionTaskEntity, { id: In(taskIds) }) : [];
    const runnerIds = [...new Set(tasks.map((t) => t.runnerId))];
    const runners = runnerIds.length ? await this.db.manager.findBy(ActionRunnerEntity, { id: In(runnerIds) }) : [];
    const repos = await this.repos(actor, s, runs.map((r) => r.repoId));
    const items: ActionWorkflowJob[] = [];
    for (const job of jobs) {
      const run = runs.find((r) => r.id === job.runId);
      const repo = run && repos.get(run.repoId);
      if (!run || !repo) continue;
      const task = tasks.find((t) => t.id === job.taskId);
      items.push(this.toJob(job, run, repo, task, runners.find((r) => r.id === task?.runnerId)));
    }
    return pageOf(items, total, options);
  }

  async listJobs(actor: Actor | null, scope: ActionsScope, query: JobsQuery, options: ListOptions, runId?: string): Promise<Page<ActionWorkflowJob>> {
    const s = await this.scopes.resolve(actor, scope, scope.kind === 'repo' ? 'read' : 'admin');
    const where: FindOptionsWhere<ActionRunJobEntity> = { ...this.scopeWhere(s) };
    if (runId !== undefined) where.runId = (await this.findRun(s, runId)).id;
    const wanted = statuses(query.status);
    if (wanted) where.status = In(wanted);
    // Gitea's ResolveSortOrder: without a sort, by id ascending whatever the order; with one, the order is checked first.
    const sort = query.sort === undefined ? '' : String(query.sort);
    const order = query.order === undefined || query.order === '' ? 'asc' : String(query.order);
    if (sort && order !== 'asc' && order !== 'desc') throw unprocessable(`Invalid sort order: ${JSON.stringify(order)}`);
    if (sort && sort !== 'id') throw unprocessable(`Invalid sort mode: ${JSON.stringify(sort)}`);
    const [rows, total] = await this.db.manager.findAndCount(ActionRunJobEntity, {
      where,
      order: { id: sort && order === 'desc' ? 'DESC' : 'ASC' },
      skip: (options.page - 1) * options.limit,
      take: options.limit,
    });
    return this.jobsPage(actor, s, rows, total, options);
  }

  private async findRun(s: ResolvedScope, raw: string | undefined): Promise<ActionRunEntity> {
    const id = idFrom(raw);
    if (!id) throw invalid(`invalid run id: ${raw ?? ''}`);
    const run = await this.db.manager.findOneBy(ActionRunEntity, { id, repoId: s.repoId });
    if (!run) throw notFound('run not found');
    return run;
  }

  private async findJob(s: ResolvedScope, raw: string | undefined): Promise<ActionRunJobEntity> {
    const id = idFrom(raw);
    if (!id) throw invalid(`invalid job id: ${raw ?? ''}`);
    const job = await this.db.manager.findOneBy(ActionRunJobEntity, { id, repoId: s.repoId });
    if (!job) throw notFound('job not found');
    return job;
  }

  async getRun(actor: Actor | null, scope: ActionsScope, runId: string | undefined): Promise<ActionWorkflowRun> {
    const s = await this.scopes.resolve(actor, scope, 'read');
    const run = await this.findRun(s, runId);
    return (await this.runsPage(actor, s, [run], 1, { page: 1, limit: 1 })).items[0]!;
  }

  async getJob(actor: Actor | null, scope: ActionsScope, jobId: string | undefined): Promise<ActionWorkflowJob> {
    const s = await this.scopes.resolve(actor, scope, 'read');
    const job = await this.findJob(s, jobId);
    return (await this.jobsPage(actor, s, [job], 1, { page: 1, limit: 1 })).items[0]!;
  }

  /** A job's log as text: its task's rows, or why its workflow could not run. */
  async jobLogs(actor: Actor | null, scope: ActionsScope, jobId: string | undefined): Promise<{ text: string }> {
    const s = await this.scopes.resolve(actor, scope, 'read');
    const job = await this.findJob(s, jobId);
    if (job.taskId) {
      const task = await this.db.manager.findOneBy(ActionTaskEntity, { id: job.taskId });
      if (task) return { text: task.log };
    }
    const run = await this.db.manager.findOneByOrFail(ActionRunEntity, { id: job.runId });
    if (run.error) return { text: `${run.error}\n` };
    throw notFound('job has no logs yet');
  }

  async deleteRun(actor: Actor | null, scope: ActionsScope, runId: string | undefined): Promise<void> {
    const s = await this.scopes.resolve(actor, scope, 'write');
    const run = await this.findRun(s, runId);
    if (!isDone(run.status)) throw invalid('this workflow run is not done');
    await this.db.transaction(async (m) => {
      await m.delete(ActionTaskEntity, { runId: run.id });
      await m.delete(ActionRunJobEntity, { runId: run.id });
      await m.delete(ActionRunEntity, { id: run.id });
    });
  }

  async cancel(actor: Actor | null, scope: ActionsScope, runId: string | undefined): Promise<void> {
    const s = await this.scopes.resolve(actor, scope, 'write');
    const run = await this.findRun(s, runId);
    if (isDone(run.status)) throw conflict('this workflow run is already done');
    await this.db.transaction((m) => this.engine.cancel(m, run.id));
    await this.engine.reportStatuses(run.id);
  }

  async rerun(actor: Actor | null, scope: ActionsScope, runId: string | undefined): Promise<ActionWorkflowRun> {
    const s = await this.scopes.resolve(actor, scope, 'write');
    const run = await this.findRun(s, runId);
    if (!isDone(run.status)) throw conflict('this workflow run is not done');
    if (run.error) throw unprocessable(`the workflow cannot run: ${run.error}`);
    if ((await this.engine.disabledWorkflows(s.repoId)).has(run.workflowId)) throw invalid(`workflow ${run.workflowId} is disabled`);
    await this.engine.rerun(run.id);
    return this.getRun(actor, scope, String(run.id));
  }

  async listTasks(actor: Actor | null, scope: ActionsScope, options: ListOptions): Promise<Page<ActionTask>> {
    const s = await this.scopes.resolve(actor, scope, 'read');
    const [tasks, total] = await this.db.manager.findAndCount(ActionTaskEntity, {
      where: { repoId: s.repoId },
      order: { id: 'DESC' },
      skip: (options.page - 1) * options.limit,
      take: options.limit,
    });
    const jobs = tasks.length ? await this.db.manager.findBy(ActionRunJobEntity, { id: In(tasks.map((t) => t.jobId)) }) : [];
    const runs = tasks.length ? await this.db.manager.findBy(ActionRunEntity, { id: In(tasks.map((t) => t.runId)) }) : [];
    const repo = s.repo!;
    const items = tasks.map((t): ActionTask => {
      const job = jobs.find((j) => j.id === t.jobId);
      const run = runs.find((r) => r.id === t.runId);
      return {
        id: t.id,
        name: job?.name ?? '',
        head_branch: run ? branchOf(run.ref) : '',
        head_sha: run?.commitSha ?? '',
        run_number: run?.idx ?? 0,
        event: run?.event ?? '',
        display_title: run?.title ?? '',
        status: statusName(t.status),
        workflow_id: run?.workflowId ?? '',
        url: run ? `${repo.repository.html_url}/actions/runs/${run.id}` : '',
        created_at: formatTime(t.createdAt),
        updated_at: formatTime(t.updatedAt),
        run_started_at: formatTimestamp(t.started),
      };
    });
    return pageOf(items, total, options);
  }

  /** `workflow_dispatch`: the workflow file at the ref must exist and take the event; answers the run it started. */
  async dispatch(actor: Actor | null, scope: ActionsScope, workflowId: string | undefined, body: CreateActionWorkflowDispatch): Promise<RunDetails> {
    const s = await this.scopes.resolve(actor, scope, 'write');
    if (!actor) throw new ContractError('unauthenticated', 'token is required');
    if (!workflowId) throw notFound('workflow not found');
    const ref = body.ref.trim();
    if (ref === '') throw unprocessable('ref is required');
    // As Gitea's DispatchActionWorkflow: a workflow turned off is refused before anything is read.
    if ((await this.engine.disabledWorkflows(s.repoId)).has(workflowId)) throw forbidden('workflow is disabled');
    const files = await this.engine.workflowFiles({ repoId: s.repoId, ref });
    if (!files.sha || !files.ref) throw unprocessable(`ref not found: ${ref}`);
    const file = files.files.find((f) => f.path.split('/').pop() === workflowId);
    if (!file) throw notFound('workflow not found');
    let inputs: Record<string, string> = {};
    try {
      const workflow = parseWorkflow(file.content, workflowId);
      if (!workflow.on.has('workflow_dispatch')) throw invalid('workflow does not have workflow_dispatch trigger');
      inputs = { ...dispatchInputDefaults(workflow), ...(body.inputs ?? {}) };
    } catch (err) {
      if (err instanceof WorkflowError) throw unprocessable(`invalid workflow: ${err.message}`);
      throw err;
    }
    const repo = s.repo!;
    const sender = await this.directory.actorUser(actor);
    const [runId = 0] = await this.engine.trigger(
      {
        repoId: s.repoId,
        ownerId: repo.ownerId,
        event: 'workflow_dispatch',
        ref: files.ref,
        sha: files.sha,
        triggerUserId: actor.id,
        title: workflowId,
        payload: { inputs, ref: files.ref, repository: repo.repository, sender, workflow: file.path },
        key: `dispatch:${randomUUID()}`,
        workflowId,
      },
      { ...files, files: [file] },
    );
    return { workflow_run_id: runId, run_url: `${repo.repository.url}/actions/runs/${runId}`, html_url: `${repo.repository.html_url}/actions/runs/${runId}` };
  }
}
