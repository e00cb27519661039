import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ActionsUser, EventNames, QueueNames, type EventEnvelope, type IssueEventPayload } from '@gitforge/contracts';
import { createLogger, QueueDriver, type QueueJob } from '@gitforge/platform';
import { RunEngine } from './run-engine.service.js';
import { SchedulesService } from './schedules.service.js';

const log = createLogger('actions-triggers');
const ZERO_SHA = /^0+$/;

/** The pull_request activity of each event that starts pull request runs. */
const PULL_ACTIONS: Partial<Record<string, string>> = {
  [EventNames.issueOpened]: 'opened',
  [EventNames.issueReopened]: 'reopened',
  [EventNames.pullSynchronized]: 'synchronize',
};

/**
 * Pushes and pull requests start workflow runs: repo-service's `repo.pushed` and issue-service's
 * pull request events (through the outbox) name the repository, ref and commit; the workflows at
 * that commit decide what runs. A replayed event finds its runs already made (their trigger key
 * is the event id).
 */
@Injectable()
export class PushTriggerConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly queue: QueueDriver,
    private readonly engine: RunEngine,
    private readonly schedules: SchedulesService,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.process<EventEnvelope>(QueueNames.actionsTriggers, (job) => this.handle(job), {
      concurrency: 2,
    });
  }

  async handle(job: QueueJob<EventEnvelope>): Promise<void> {
    const e = job.data;
    if (e.repoId === null) return;
    // What a job did with its token starts nothing (Gitea's notify skips the actions user as doer): a
    // workflow that pushes or comments would otherwise trigger itself without end. Its push to the
    // default branch still says what runs on a schedule, as in Gitea (schedules trigger no cycle).
    const byActions = e.actor?.id === ActionsUser.id;
    if (e.name === EventNames.repoPushed) return this.push(e as EventEnvelope<'repo.pushed'>, e.repoId, !byActions);
    if (e.name === EventNames.repoDeleted) return this.engine.forgetRepository(e.repoId);
    if (e.name === EventNames.repoTransferred) {
      return this.engine.moveRepository(e.repoId, (e.payload as EventEnvelope<'repo.transferred'>['payload']).repository.owner.id);
    }
    const action = PULL_ACTIONS[e.name];
    if (action && !byActions) return this.pull(e.payload as IssueEventPayload, e.id, e.repoId, action);
  }

  private async push(e: EventEnvelope<'repo.pushed'>, repoId: number, startRuns: boolean): Promise<void> {
    // The workflow sees Gitea's push payload, without what only the forge's consumers read.
    const { merged_pull: _merged, ...p } = e.payload;
    if (ZERO_SHA.test(p.after) || !p.repository.has_actions || p.repository.archived) return;
    const onDefault = p.ref === `refs/heads/${p.repository.default_branch}`;
    if (!startRuns && !onDefault) return;
    const files = await this.engine.workflowFiles({ repoId, sha: p.after, before: p.before });
    const ids = !startRuns ? [] : await this.engine.trigger(
      {
        repoId,
        ownerId: p.repository.owner.id,
        event: 'push',
        ref: p.ref,
        sha: p.after,
        before: p.before,
        triggerUserId: p.pusher.id,
        title: (p.head_commit?.message ?? '').split('\n')[0] ?? '',
        payload: p as unknown as Record<string, unknown>,
        key: e.id,
      },
      files,
    );
    // The default branch's workflows say what runs on a schedule.
    if (onDefault) {
      await this.schedules.replace(
        { repoId, ownerId: p.repository.owner.id },
        { ref: p.ref, sha: p.after, triggerUserId: p.pusher.id },
        files,
      );
    }
    if (ids.length > 0) log.info({ repoId, ref: p.ref, runs: ids }, 'workflow runs started');
  }

  /**
   * A pull request's runs: the workflows at its head commit (which the base repository holds as
   * `refs/pull/{n}/head`), `branches` filters on its base branch, `paths` on what it changes.
   */
  private async pull(p: IssueEventPayload, eventId: string, repoId: number, action: string): Promise<void> {
    const pr = p.pull_request;
    if (!p.is_pull || !pr || pr.state !== 'open' || !p.repository.has_actions || p.repository.archived)
      return;
    const ref = `refs/pull/${pr.number}/head`;
    const files = await this.engine.workflowFiles({
      repoId,
      sha: pr.head.sha,
      before: pr.merge_base || undefined,
    });
    const ids = await this.engine.trigger(
      {
        repoId,
        ownerId: p.repository.owner.id,
        event: 'pull_request',
        action,
        ref,
        filterRef: `refs/heads/${pr.base.ref}`,
        sha: pr.head.sha,
        triggerUserId: p.sender.id,
        title: pr.title,
        payload: { action, number: pr.number, pull_request: pr, repository: p.repository, sender: p.sender },
        key: eventId,
      },
      files,
    );
    if (ids.length > 0) log.info({ repoId, ref, runs: ids }, 'pull request workflow runs started');
  }
}
