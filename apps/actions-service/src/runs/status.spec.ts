import { aggregate, apiStatus, commitStatusOf, resolveBlocked, runsAfter, Status, statusFilter } from './status.js';

describe('actions states', () => {
  it('aggregates job states into the run state as Gitea does', () => {
    expect(aggregate([Status.success, Status.skipped])).toBe(Status.success);
    expect(aggregate([Status.skipped, Status.skipped])).toBe(Status.skipped);
    expect(aggregate([Status.success, Status.running, Status.blocked])).toBe(Status.running);
    expect(aggregate([Status.success, Status.waiting, Status.blocked])).toBe(Status.waiting);
    expect(aggregate([Status.success, Status.blocked])).toBe(Status.blocked);
    expect(aggregate([Status.failure, Status.cancelled])).toBe(Status.cancelled);
    expect(aggregate([Status.success, Status.failure])).toBe(Status.failure);
  });

  it("answers GitHub's status and conclusion names", () => {
    expect(apiStatus(Status.waiting)).toEqual({ status: 'queued', conclusion: null });
    expect(apiStatus(Status.blocked)).toEqual({ status: 'waiting', conclusion: null });
    expect(apiStatus(Status.running)).toEqual({ status: 'in_progress', conclusion: null });
    expect(apiStatus(Status.cancelled)).toEqual({ status: 'completed', conclusion: 'cancelled' });
  });

  it('reads listing filters, and refuses unknown ones', () => {
    expect(statusFilter('pending')).toEqual([Status.blocked]);
    expect(statusFilter('queued')).toEqual([Status.waiting]);
    expect(statusFilter('completed')).toHaveLength(4);
    expect(statusFilter(undefined)).toBeNull();
    expect(() => statusFilter('bogus')).toThrow('invalid status bogus');
  });

  it("describes jobs' commit statuses as Gitea does", () => {
    expect(commitStatusOf(Status.success, 75)).toEqual({ state: 'success', description: 'Successful in 1m15s' });
    expect(commitStatusOf(Status.failure, 3)).toEqual({ state: 'failure', description: 'Failing after 3s' });
    expect(commitStatusOf(Status.blocked, 0)).toEqual({ state: 'pending', description: 'Blocked by required conditions' });
    expect(commitStatusOf(Status.waiting, 0)).toEqual({ state: 'pending', description: 'Waiting to run' });
  });
});

describe('jobs after their needs', () => {
  it('run after success; after a need that did not succeed, only with an if: for the runner to judge', () => {
    expect(runsAfter([Status.success, Status.success], '')).toBe(true);
    expect(runsAfter([Status.success], 'failure()')).toBe(true);
    // A skipped need skips the jobs after it (GitHub, Gitea), as a failed or cancelled one does.
    expect(runsAfter([Status.success, Status.skipped], '')).toBe(false);
    expect(runsAfter([Status.success, Status.failure], '')).toBe(false);
    expect(runsAfter([Status.cancelled], '')).toBe(false);
    // Any condition goes to act_runner, which knows the status functions and their negations.
    expect(runsAfter([Status.success], 'success() || failure()')).toBe(true);
    expect(runsAfter([Status.failure], '${{ !cancelled() }}')).toBe(true);
    expect(runsAfter([Status.failure], '${{ always() }}')).toBe(true);
    expect(runsAfter([Status.skipped], "github.ref == 'refs/heads/main'")).toBe(true);
  });
});

describe(resolveBlocked.name, () => {
  const job = (id: number, jobId: string, status: number, needs: string[] = [], condition = '') => ({ id, jobId, needs, condition, status });

  it('keeps a job needing a matrix job blocked until every combination is done', () => {
    const matrix = [job(1, 'build', Status.success), job(2, 'build', Status.running), job(3, 'build', Status.waiting)];
    const deploy = job(4, 'deploy', Status.blocked, ['build']);
    expect(resolveBlocked([...matrix, deploy])).toEqual(new Map());
    matrix[1]!.status = Status.success;
    expect(resolveBlocked([...matrix, deploy])).toEqual(new Map());
    matrix[2]!.status = Status.success;
    expect(resolveBlocked([...matrix, deploy])).toEqual(new Map([[4, Status.waiting]]));
  });

  it('skips the dependents of a matrix job with a skipped combination, unless they have an if:', () => {
    const jobs = [job(1, 'build', Status.success), job(2, 'build', Status.skipped), job(3, 'test', Status.blocked, ['build']), job(4, 'report', Status.blocked, ['test'], '!cancelled()')];
    expect(resolveBlocked(jobs)).toEqual(
      new Map([
        [3, Status.skipped],
        [4, Status.waiting],
      ]),
    );
  });

  it('skips the dependents of a matrix job with a failed combination, unless they run always()', () => {
    const jobs = [
      job(1, 'build', Status.success),
      job(2, 'build', Status.failure),
      job(3, 'test', Status.blocked, ['build']),
      job(4, 'test', Status.blocked, ['build']),
      job(6, 'report', Status.blocked, ['build'], 'always()'),
    ];
    expect(resolveBlocked(jobs)).toEqual(
      new Map([
        [3, Status.skipped],
        [4, Status.skipped],
        [6, Status.waiting],
      ]),
    );
  });
});
