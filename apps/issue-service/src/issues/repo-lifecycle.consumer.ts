import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventNames, QueueNames, type EventEnvelope } from '@gitforge/contracts';
import { createLogger, Database, QueueDriver, type QueueJob } from '@gitforge/platform';
import { PullsRepository } from '../pulls/pulls.repository.js';
import { RepoGate } from '../access/repo-gate.js';
import { IssueRemoval } from './issue-removal.js';
import { IssuesRepository } from './issues.repository.js';
import { IssuesService } from './issues.service.js';

const log = createLogger('repo-lifecycle');

/**
 * The tracker follows its repositories. A transferred one that leaves an organization loses, as
 * in Gitea's transferOwnership, the labels of any organization but the new owner on its issues
 * (with the timeline events that added them), and its issues leave the old organization's
 * projects. A deleted one's issues, pulls and the rest of its tracker go, and pulls whose head
 * was in it are closed (Gitea's CloseRepoBranchesPulls) and keep their own ref only. Replaying
 * an event finds nothing left to do.
 */
@Injectable()
export class RepoLifecycleConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly queue: QueueDriver,
    private readonly db: Database,
    private readonly pulls: PullsRepository,
    private readonly removal: IssueRemoval,
    private readonly issues: IssuesRepository,
    private readonly gate: RepoGate,
    private readonly issuesService: IssuesService,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.process<EventEnvelope>(QueueNames.issueRepoLifecycle, (job) => this.handle(job), { concurrency: 1 });
  }

  async handle(job: QueueJob<EventEnvelope>): Promise<void> {
    const e = job.data;
    if (e.repoId === null) return;
    const repoId = e.repoId;
    if (e.name === EventNames.repoDeleted) {
      await this.closePullsFrom(repoId, e.actor?.id ?? null);
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

  /** Open pulls from the deleted repository into others are closed, as its deleter (else each pull's poster) closes them. */
  private async closePullsFrom(repoId: number, deleterId: number | null): Promise<void> {
    const open = await this.pulls.openFromHeadRepo(repoId);
    const bases = [...new Set(open.map((p) => p.pull.baseRepoId))];
    const repos = await this.gate.asOwner(bases);
    for (const repo of repos) {
      const mine = open.filter((p) => p.pull.baseRepoId === repo.id);
      if (deleterId !== null) await this.issuesService.closeAs(deleterId, repo, mine.map((p) => p.issue.id));
      else for (const p of mine) await this.issuesService.closeAs(p.issue.posterId, repo, [p.issue.id]);
    }
    if (open.length > 0) log.info({ repoId, pulls: open.length }, 'pulls from a deleted repository closed');
  }
}
