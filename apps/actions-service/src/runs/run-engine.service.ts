import { basename } from 'node:path';
import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import {
  CommitStatusPatterns,
  RepoActionsPatterns,
  type ActionsCommitStatus,
  type CommitStatus,
  type WorkflowFiles,
  type WorkflowFilesRequest,
} from '@gitforge/contracts';
import { createLogger, Database, isUniqueViolation, RpcClient } from '@gitforge/platform';
import {
  ActionRunEntity,
  ActionRunJobEntity,
  ActionRunnerEntity,
  ActionRunnerTokenEntity,
  ActionScheduleEntity,
  ActionSecretEntity,
  ActionTaskEntity,
  ActionTasksVersionEntity,
  ActionVariableEntity,
  ActionWorkflowDisabledEntity,
} from '../entities.js';
import { aggregate, commitStatusOf, isDone, resolveBlocked, Status } from './status.js';
import { parseWorkflow, WorkflowError, workflowMatches, workflowName, type ParsedWorkflow, type TriggerFacts } from './workflow.js';

const log = createLogger('actions-runs');

/** What starts runs: an event at a commit of a repository. */
export interface Trigger {
  repoId: number;
  ownerId: number;
  event: 'push' | 'pull_request' | 'workflow_dispatch' | 'schedule';
  /** Full ref name (`refs/pull/{n}/head` for a pull request). */
  ref: string;
  /** What `on:` branch filters look at when it is not `ref`: a pull request's base branch. */
  filterRef?: string;
  /** pull_request: the activity. */
  action?: string;
  sha: string;
  before?: string;
  triggerUserId: number;
  /** The run's title (the head commit's first line, or the dispatch's workflow name). */
  title: string;
  /** The event payload jobs see as `github.event`. */
  payload: Record<string, unknown>;
  /** Makes a redelivered event start nothing twice: the event id, or a dispatch's own id. */
  key: string;
  /** workflow_dispatch: the one workflow file name to run. */
  workflowId?: string;
}

/** The engine of runs: creating them from workflow files, moving jobs along `needs`, and their commit statuses. */
@Injectable()
export class RunEngine {
  constructor(
    private readonly db: Database,
    private readonly rpc: RpcClient,
  ) {}

  workflowFiles(request: WorkflowFilesRequest): Promise<WorkflowFiles> {
    return this.rpc.call<WorkflowFiles, Record<string, string>, WorkflowFilesRequest>(RepoActionsPatterns.workflowFiles, { actor: null, body: request });
  }

  /** Bumps the version idle runners compare with, so they look for the jobs that just became waiting. */
  async bumpTasksVersion(m: EntityManager): Promise<void> {
    const updated = await m.increment(ActionTasksVersionEntity, { id: 1 }, 'version', 1);
    if (!updated.affected) await m.insert(ActionTasksVersionEntity, { id: 1, version: 1 }).catch(() => m.increment(ActionTasksVersionEntity, { id: 1 }, 'version', 1));
  }

  async tasksVersion(): Promise<number> {
    return (await this.db.manager.findOneBy(ActionTasksVersionEntity, { id: 1 }))?.version ?? 0;
  }

  private facts(t: Trigger, read: WorkflowFiles): TriggerFacts {
    return { event: t.event, ref: t.filterRef ?? t.ref, changedPaths: read.changedPaths, action: t.action };
  }

  /** The workflows the repository turned off, by file name (Gitea's ActionsConfig.DisabledWorkflows). */
  async disabledWorkflows(repoId: number): Promise<Set<string>> {
    const rows = await this.db.manager.find(ActionWorkflowDisabledEntity, { where: { repoId } });
    return new Set(rows.map((r) => r.workflowId));
  }

  /** Starts the runs of every workflow the trigger matches, except those the repository turned off; answers their ids. */
  async trigger(t: Trigger, files?: WorkflowFiles): Promise<number[]> {
    const read = files ?? (await this.workflowFiles({ repoId: t.repoId, sha: t.sha, before: t.before }));
    const disabled = read.files.length > 0 ? await this.disabledWorkflows(t.repoId) : new Set<string>();
    const ids: number[] = [];
    for (const file of read.files) {
      const workflowId = basename(file.path);
      if (t.workflowId !== undefined && workflowId !== t.workflowId) continue;
      if (disabled.has(workflowId)) continue;
      let workflow: ParsedWorkflow | null = null;
      let error = '';
      try {
        workflow = parseWorkflow(file.content, workflowId);
        if (!workflowMatches(workflow, this.facts(t, read))) continue;
      } catch (err) {
        if (!(err instanceof WorkflowError)) throw err;
        // A file whose triggers are readable fails only the events it takes; an unreadable one fails pushes.
        if (err.on ? !this.matchesOrPush({ on: err.on }, t, read) : t.event !== 'push') continue;
        error = `${file.path}: ${err.message}`;
      }
      const id = await this.createRun(t, file.path, workflowId, workflow, error);
      if (id !== null) ids.push(id);
    }
    return ids;
  }

  /** Whether a broken file's readable triggers take the event; filters too malformed to judge fail pushes. */
  private matchesOrPush(workflow: Pick<ParsedWorkflow, 'on'>, t: Trigger, read: WorkflowFiles): boolean {
    try {
      return workflowMatches(workflow, this.facts(t, read));
    } catch (err) {
      if (!(err instanceof WorkflowError)) throw err;
      return t.event === 'push';
    }
  }

  private async createRun(t: Trigger, path: string, workflowId: string, workflow: ParsedWorkflow | null, error: string): Promise<number | null> {
    for (let attempt = 0; ; attempt++) {
      try {
        const runId = await this.db.transaction(async (m) => {
          const key = `${t.key}:${path}`.slice(0, 255);
          if (await m.findOne(ActionRunEntity, { where: { repoId: t.repoId, triggerKey: key } })) return null;
          const max = await m
            .createQueryBuilder(ActionRunEntity, 'r')
            .select('MAX(r.idx)', 'max')
            .where('r.repo_id = :repoId', { repoId: t.repoId })
            .getRawOne<{ max: number | string | null }>();
          const now = new Date();
          const jobs = workflow?.jobs ?? [];
          const statuses = jobs.map((j) => (j.needs.length > 0 ? Status.blocked : Status.waiting));
          const run = await m.save(
            m.create(ActionRunEntity, {
              repoId: t.repoId,
              ownerId: t.ownerId,
              idx: Number(max?.max ?? 0) + 1,
              title: t.title.slice(0, 255),
              workflowId,
              workflowPath: path,
              triggerUserId: t.triggerUserId,
              triggerKey: key,
              ref: t.ref,
              commitSha: t.sha,
              event: t.event,
              eventPayload: JSON.stringify(t.payload),
              status: workflow ? aggregate(statuses) : Status.failure,
              error,
              attempt: 1,
              started: null,
              stopped: workflow ? null : now,
              createdAt: now,
              updatedAt: now,
            }),
          );
          if (!workflow) {
            // Gitea's answer to a workflow it cannot parse: one failed job named after the file.
            await m.insert(ActionRunJobEntity, {
              runId: run.id,
              repoId: t.repoId,
              ownerId: t.ownerId,
              commitSha: t.sha,
              name: workflowId,
              jobId: workflowId,
              attempt: 1,
              workflowPayload: '',
              needs: '[]',
              runsOn: '[]',
              stepNames: '[]',
              taskId: 0,
              status: Status.failure,
              started: null,
              stopped: now,
              createdAt: now,
              updatedAt: now,
            });
            return run.id;
          }
          for (const [i, job] of jobs.entries()) {
            await m.insert(ActionRunJobEntity, {
              runId: run.id,
              repoId: t.repoId,
              ownerId: t.ownerId,
              commitSha: t.sha,
              name: job.name.slice(0, 255),
              jobId: job.jobId,
              attempt: 1,
              workflowPayload: job.payload,
              needs: JSON.stringify(job.needs),
              runsOn: JSON.stringify(job.runsOn),
              stepNames: JSON.stringify(job.stepNames),
              condition: job.condition,
              taskId: 0,
              status: statuses[i]!,
              started: null,
              stopped: null,
              createdAt: now,
              updatedAt: now,
            });
          }
          if (statuses.includes(Status.waiting)) await this.bumpTasksVersion(m);
          return run.id;
        });
        if (runId !== null) await this.reportStatuses(runId);
        return runId;
      } catch (err) {
        // Two triggers of one repository took the same run number: take the next.
        if (isUniqueViolation(err) && attempt < 5) continue;
        throw err;
      }
    }
  }

  /**
   * After a job finished: blocked jobs whose needs are all done become waiting (all needs
   * succeeded, or the job runs `always()`), or skipped; then the run's status follows its jobs.
   * Answers the ids of the jobs whose status changed (the finished one included).
   */
  async advance(m: EntityManager, runId: number): Promise<void> {
    // One advance of a run at a time (PostgreSQL; SQLite serialises transactions already): two jobs
    // a third needs, finishing at once on two replicas, would each read the other still running
    // and leave the third blocked for ever. Locked first, the jobs are read after the other commits.
    if (this.db.sql.locksRows) await m.findOne(ActionRunEntity, { where: { id: runId }, ...this.db.sql.rowLock('pessimistic_write') });
    const jobs = await m.find(ActionRunJobEntity, { where: { runId }, order: { id: 'ASC' } });
    const now = new Date();
    let woke = false;
    const resolved = resolveBlocked(jobs.map((j) => ({ id: j.id, jobId: j.jobId, needs: JSON.parse(j.needs) as string[], condition: j.condition, status: j.status })));
    for (const job of jobs) {
      const status = resolved.get(job.id);
      if (status === undefined) continue;
      job.status = status;
      if (status === Status.skipped) job.stopped = now;
      job.updatedAt = now;
      await m.update(ActionRunJobEntity, { id: job.id }, { status: job.status, stopped: job.stopped, updatedAt: now });
      if (status === Status.waiting) woke = true;
    }
    if (woke) await this.bumpTasksVersion(m);
    const run = await m.findOneByOrFail(ActionRunEntity, { id: runId });
    const status = aggregate(jobs.map((j) => j.status));
    const started = run.started ?? (jobs.some((j) => j.started) ? now : null);
    await m.update(
      ActionRunEntity,
      { id: runId },
      { status, started, stopped: isDone(status) ? (run.stopped ?? now) : null, updatedAt: now },
    );
  }

  /** Cancels a run's unfinished jobs (and their tasks); the runner learns it at its next UpdateTask. */
  async cancel(m: EntityManager, runId: number): Promise<void> {
    const now = new Date();
    const jobs = await m.find(ActionRunJobEntity, { where: { runId, status: In([Status.waiting, Status.blocked, Status.running]) } });
    for (const job of jobs) {
      await m.update(ActionRunJobEntity, { id: job.id }, { status: Status.cancelled, stopped: now, updatedAt: now });
      if (job.taskId) await m.update(ActionTaskEntity, { id: job.taskId, status: Status.running }, { status: Status.cancelled, stopped: now, updatedAt: now });
    }
    await this.advance(m, runId);
  }

  /** Each job's commit status as its state shows now (Gitea writes one per job and state). */
  async reportStatuses(runId: number, onlyJobIds?: number[]): Promise<void> {
    const run = await this.db.manager.findOneBy(ActionRunEntity, { id: runId });
    if (!run) return;
    const jobs = await this.db.manager.find(ActionRunJobEntity, { where: { runId }, order: { id: 'ASC' } });
    const name = workflowName(jobs.find((j) => j.workflowPayload)?.workflowPayload ?? '', run.workflowId);
    for (const job of jobs) {
      if (onlyJobIds && !onlyJobIds.includes(job.id)) continue;
      const seconds = job.started && job.stopped ? (job.stopped.getTime() - job.started.getTime()) / 1000 : 0;
      const { state, description } = commitStatusOf(job.status, seconds);
      const body: ActionsCommitStatus = {
        repoId: run.repoId,
        sha: run.commitSha,
        state,
        description,
        context: `${name} / ${job.name} (${run.event})`,
        jobId: job.id,
        runId: run.id,
      };
      await this.rpc
        .call<CommitStatus | null, Record<string, string>, ActionsCommitStatus>(CommitStatusPatterns.createForActions, { actor: null, body })
        .catch((err: unknown) => log.warn({ err, runId, jobId: job.id }, 'commit status not written'));
    }
  }

  /**
   * A deleted repository's actions go with it, as Gitea deletes them with the repository: its
   * waiting jobs must not reach a runner, its secrets and runners must not outlive it.
   */
  async forgetRepository(repoId: number): Promise<void> {
    if (!repoId) return;
    await this.db.transaction(async (m) => {
      for (const entity of [
        ActionTaskEntity,
        ActionRunJobEntity,
        ActionRunEntity,
        ActionScheduleEntity,
        ActionRunnerEntity,
        ActionRunnerTokenEntity,
        ActionVariableEntity,
        ActionSecretEntity,
        ActionWorkflowDisabledEntity,
      ]) {
        await m.delete(entity, { repoId });
      }
    });
  }

  /**
   * A transferred repository's runs, jobs and schedules belong to its new owner: the jobs still to
   * run go to the new owner's runners and see the new owner's secrets and variables, not the old.
   */
  async moveRepository(repoId: number, ownerId: number): Promise<void> {
    if (!repoId || !ownerId) return;
    await this.db.transaction(async (m) => {
      for (const entity of [ActionRunEntity, ActionRunJobEntity, ActionScheduleEntity]) {
        await m.update(entity, { repoId }, { ownerId });
      }
    });
  }

  /** A new attempt of a finished run: every job again, as Gitea's rerun of a whole run. */
  async rerun(runId: number): Promise<void> {
    await this.db.transaction(async (m) => {
      const now = new Date();
      const jobs = await m.find(ActionRunJobEntity, { where: { runId } });
      for (const job of jobs) {
        const needs = JSON.parse(job.needs) as string[];
        await m.update(
          ActionRunJobEntity,
          { id: job.id },
          { status: needs.length > 0 ? Status.blocked : Status.waiting, taskId: 0, attempt: job.attempt + 1, started: null, stopped: null, updatedAt: now },
        );
      }
      const run = await m.findOneByOrFail(ActionRunEntity, { id: runId });
      await m.update(ActionRunEntity, { id: runId }, { attempt: run.attempt + 1, started: null, stopped: null, updatedAt: now });
      await this.bumpTasksVersion(m);
      await this.advance(m, runId);
    });
    await this.reportStatuses(runId);
  }
}
