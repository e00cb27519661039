import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventNames, QueueNames, type EventEnvelope } from '@gitforge/contracts';
import { createLogger, Database, QueueDriver, type QueueJob } from '@gitforge/platform';
import { PullsRepository } from '../pulls/pulls.repository.js';
import { IssueRemoval } from './issue-removal.js';
import { IssuesRepository } from './issues.repository.js';

const log = createLogger('repo-lifecycle');

/**
 * The tracker follows its repositories. A transferred one that leaves an organization loses, as
 * in Gitea's transferOwnership, the labels of any organization but the new owner on its issues
 * (with the timeline events that added them), and its issues leave the old organization's
 * projects. A deleted one's issues, pulls and the rest of its tracker go, and pulls whose head
 * was in it keep their own ref only. Replaying an event finds nothing left to do.
 */
@Injectable()
export class RepoLifecycleConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly queue: QueueDriver,
    private readonly db: Database,
    private readonly pulls: PullsRepository,
    private readonly removal: IssueRemoval,
    private readonly issues: IssuesRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.process<EventEnvelope>(QueueNames.issueRepoLifecycle, (job) => this.handle(job), { concurrency: 1 });
  }

  async handle(job: QueueJob<EventEnvelope>): Promise<void> {
    const e = job.data;
    if (e.repoId === null) return;
    const repoId = e.repoId;
    if (e.name === EventNames.repoDeleted) {
      await this.db.transaction((m) => this.pulls.forgetHeadRepo(m, repoId));
      await this.removal.repository(repoId);
      return;
    }
    if (e.name !== EventNames.repoTransferred) return;
    const p = e.payload as EventEnvelope<'repo.transferred'>['payload'];
    if (!p.oldOwnerIsOrg) return;
    const removed = await this.db.transaction((m) => this.issues.detachFromFormerOrg(m, repoId, p.oldOwnerId, p.repository.owner.id));
    if (removed.labels + removed.projects > 0) log.info({ repoId, ...removed }, 'old organization labels and projects detached');
  }
}
