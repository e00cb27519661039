import { invalid, type CommitStatusState } from '@gitforge/contracts';

/** Gitea's actions_model.Status values, as stored. */
export const Status = {
  unknown: 0,
  success: 1,
  failure: 2,
  cancelled: 3,
  skipped: 4,
  waiting: 5,
  running: 6,
  blocked: 7,
} as const;
export type StatusValue = (typeof Status)[keyof typeof Status];

export const isDone = (s: number): boolean => s === Status.success || s === Status.failure || s === Status.cancelled || s === Status.skipped;

/** runner.v1 Result → status (1 success, 2 failure, 3 cancelled, 4 skipped); 0 means not finished. */
export const statusOfResult = (result: number): StatusValue | null =>
  result === 1 ? Status.success : result === 2 ? Status.failure : result === 3 ? Status.cancelled : result === 4 ? Status.skipped : null;

export const resultOfStatus = (status: number): number =>
  status === Status.success ? 1 : status === Status.failure ? 2 : status === Status.cancelled ? 3 : status === Status.skipped ? 4 : 0;

/** The API's `status` and `conclusion` (Gitea's convert.ToActionsStatus, GitHub's names). */
export function apiStatus(status: number): { status: string; conclusion: string | null } {
  switch (status) {
    case Status.success:
      return { status: 'completed', conclusion: 'success' };
    case Status.failure:
      return { status: 'completed', conclusion: 'failure' };
    case Status.cancelled:
      return { status: 'completed', conclusion: 'cancelled' };
    case Status.skipped:
      return { status: 'completed', conclusion: 'skipped' };
    case Status.waiting:
      return { status: 'queued', conclusion: null };
    case Status.running:
      return { status: 'in_progress', conclusion: null };
    case Status.blocked:
      return { status: 'waiting', conclusion: null };
    default:
      return { status: 'unknown', conclusion: null };
  }
}

/** Gitea's Status.String(), which the tasks listing shows. */
export function statusName(status: number): string {
  return ['unknown', 'success', 'failure', 'cancelled', 'skipped', 'waiting', 'running', 'blocked'][status] ?? 'unknown';
}

/** A listing's `status` filter (Gitea's shared.convertToInternal); anything else is 400. */
export function statusFilter(value: unknown): StatusValue[] | null {
  if (value === undefined || value === '') return null;
  switch (value) {
    case 'pending':
    case 'waiting':
    case 'requested':
    case 'action_required':
      return [Status.blocked];
    case 'queued':
      return [Status.waiting];
    case 'in_progress':
      return [Status.running];
    case 'completed':
      return [Status.success, Status.failure, Status.skipped, Status.cancelled];
    case 'failure':
      return [Status.failure];
    case 'success':
      return [Status.success];
    case 'skipped':
    case 'neutral':
      return [Status.skipped];
    case 'cancelled':
    case 'timed_out':
      return [Status.cancelled];
    default:
      throw invalid(`invalid status ${String(value)}`);
  }
}

/** A run's status from its jobs' (Gitea's AggregateJobStatus). */
export function aggregate(statuses: number[]): StatusValue {
  if (statuses.length === 0) return Status.unknown;
  if (statuses.every((s) => s === Status.skipped)) return Status.skipped;
  if (statuses.every((s) => s === Status.success || s === Status.skipped)) return Status.success;
  if (statuses.some((s) => s === Status.running)) return Status.running;
  if (statuses.some((s) => s === Status.waiting)) return Status.waiting;
  if (statuses.some((s) => s === Status.blocked)) return Status.blocked;
  if (statuses.some((s) => s === Status.cancelled)) return Status.cancelled;
  return Status.failure;
}

/** The commit status a job's state shows, with Gitea's descriptions. */
export function commitStatusOf(status: number, seconds: number): { state: CommitStatusState; description: string } {
  switch (status) {
    case Status.success:
      return { state: 'success', description: `Successful in ${duration(seconds)}` };
    case Status.failure:
      return { state: 'failure', description: `Failing after ${duration(seconds)}` };
    case Status.cancelled:
      return { state: 'error', description: 'Has been cancelled' };
    case Status.skipped:
      return { state: 'skipped', description: 'Has been skipped' };
    case Status.running:
      return { state: 'pending', description: 'Has started running' };
    case Status.blocked:
      return { state: 'pending', description: 'Blocked by required conditions' };
    default:
      return { state: 'pending', description: 'Waiting to run' };
  }
}

function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${s % 60}s` : `${Math.floor(m / 60)}h${m % 60}m${s % 60}s`;
}

/**
 * Whether a job whose needs are all done goes to a runner (Gitea's jobStatusResolver): when every
 * need succeeded, or when the job has an `if:`, which act_runner then evaluates with the needs'
 * results (`always()`, `!cancelled()`, `success() || failure()`, …). A job without one is skipped
 * after a need that failed, was cancelled or was skipped, as GitHub documents.
 */
export function runsAfter(needs: number[], condition: string): boolean {
  return needs.every((s) => s === Status.success) || condition.trim() !== '';
}

/** What resolveBlocked reads of a job row. */
export interface JobNeedsState {
  id: number;
  /** The job's key in `jobs:`; every combination of a matrix job shares it. */
  jobId: string;
  needs: string[];
  condition: string;
  status: number;
}

/**
 * Gitea's jobStatusResolver: each blocked job whose needs are all done becomes waiting (or skipped,
 * see runsAfter), repeated until nothing changes, as a skipped job can settle the ones after it.
 * A need names a job key, so a matrix job is done only when every one of its combinations is.
 * Answers the new status of each job that changed.
 */
export function resolveBlocked(jobs: JobNeedsState[]): Map<number, StatusValue> {
  const current = new Map(jobs.map((j) => [j.id, j.status]));
  const byKey = new Map<string, JobNeedsState[]>();
  for (const j of jobs) byKey.set(j.jobId, [...(byKey.get(j.jobId) ?? []), j]);
  const changes = new Map<number, StatusValue>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const job of jobs) {
      if (current.get(job.id) !== Status.blocked) continue;
      const needs = job.needs.flatMap((k) => byKey.get(k) ?? []).map((n) => current.get(n.id)!);
      if (!needs.every(isDone)) continue;
      const status = runsAfter(needs, job.condition) ? Status.waiting : Status.skipped;
      current.set(job.id, status);
      changes.set(job.id, status);
      changed = true;
    }
  }
  return changes;
}
