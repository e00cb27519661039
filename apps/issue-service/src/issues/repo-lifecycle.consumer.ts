import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventNames, QueueNames, type EventEnvelope } from '@gitforge/contracts';
import { createLogger, Database, QueueDriver, type QueueJob } from '@gitforge/platform';
import type { EntityManager } from 'typeorm';
import { CommentType } from '../comments/comment-type.js';
import { CommentEntity } from '../comments/comment.entity.js';
import { IssueLabelEntity } from '../labels/issue-label.entity.js';
import { ProjectIssueEntity } from '../projects/project-issue.entity.js';
import { PullsRepository } from '../pulls/pulls.repository.js';
import { IssueRemoval } from './issue-removal.js';

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
    const removed = await this.db.transaction((m) => this.detach(m, repoId, p.oldOwnerId, p.repository.owner.id));
    if (removed.labels + removed.projects > 0) log.info({ repoId, ...removed }, 'old organization labels and projects detached');
  }

  private async detach(m: EntityManager, repoId: number, oldOrgId: number, newOwnerId: number): Promise<{ labels: number; projects: number }> {
    // Subqueries, not id lists: a repository may have more issues than a statement takes parameters.
    const ofRepo = 'issue_id IN (SELECT i.id FROM issue i WHERE i.repo_id = :repoId)';
    const foreignLabels =
      'label_id IN (SELECT l.id FROM label l WHERE (l.repo_id = 0 AND l.org_id <> :newOwnerId) OR (l.org_id = 0 AND l.repo_id <> :repoId))';
    const params = { repoId, newOwnerId, oldOrgId, label: CommentType.label };
    const labels = await m.createQueryBuilder().delete().from(IssueLabelEntity).where(`${ofRepo} AND ${foreignLabels}`, params).execute();
    await m.createQueryBuilder().delete().from(CommentEntity).where(`${ofRepo} AND type = :label AND ${foreignLabels}`, params).execute();
    const projects = await m
      .createQueryBuilder()
      .delete()
      .from(ProjectIssueEntity)
      .where(`${ofRepo} AND project_id IN (SELECT p.id FROM project p WHERE p.owner_id = :oldOrgId AND p.repo_id = 0)`, params)
      .execute();
    return { labels: labels.affected ?? 0, projects: projects.affected ?? 0 };
  }
}
