import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { BlobStore, createLogger, Database } from '@gitforge/platform';
import { attachmentBlobKey } from '../attachments/attachment.entity.js';
import { AttachmentsRepository } from '../attachments/attachments.repository.js';
import { CommentsRepository } from '../comments/comments.repository.js';
import { DependenciesRepository } from '../dependencies/dependencies.repository.js';
import { LabelsRepository } from '../labels/labels.repository.js';
import { MilestonesRepository } from '../milestones/milestones.repository.js';
import { ProjectsRepository } from '../projects/projects.repository.js';
import { PullsRepository } from '../pulls/pulls.repository.js';
import { ReactionsRepository } from '../reactions/reactions.repository.js';
import { ReviewsRepository } from '../reviews/reviews.repository.js';
import { IssueWatchesRepository } from '../subscriptions/issue-watches.repository.js';
import { TimesRepository } from '../times/times.repository.js';
import { IssuesRepository } from './issues.repository.js';

const log = createLogger('issue-removal');

/** Issues deleted per transaction when a whole repository goes. */
const BATCH = 200;

/**
 * The one way the tracker deletes: the rows of issues (one deleted through the API, or every
 * issue of a deleted repository), then their files. A feature with rows of its own adds them
 * to {@link rows}, so nothing it keeps outlives its issue.
 */
@Injectable()
export class IssueRemoval {
  constructor(
    private readonly db: Database,
    private readonly issues: IssuesRepository,
    private readonly labels: LabelsRepository,
    private readonly milestones: MilestonesRepository,
    private readonly projects: ProjectsRepository,
    private readonly dependencies: DependenciesRepository,
    private readonly times: TimesRepository,
    private readonly comments: CommentsRepository,
    private readonly reactions: ReactionsRepository,
    private readonly watches: IssueWatchesRepository,
    private readonly attachments: AttachmentsRepository,
    private readonly pulls: PullsRepository,
    private readonly reviews: ReviewsRepository,
    private readonly blobs: BlobStore,
  ) {}

  /**
   * In the caller's transaction, the rows of the issues and of their pull requests. Answers the
   * blob keys of their files, for {@link files} once the transaction has committed.
   */
  async rows(m: EntityManager, issueIds: number[]): Promise<string[]> {
    if (issueIds.length === 0) return [];
    const attachments = await this.attachments.deleteOfIssues(m, issueIds);
    await this.issues.delete(m, issueIds);
    await this.dependencies.deleteAllOf(m, issueIds);
    await this.times.deleteForIssues(m, issueIds);
    await this.projects.removeIssues(m, issueIds);
    await this.comments.deleteForIssues(m, issueIds);
    await this.reactions.deleteForIssues(m, issueIds);
    await this.watches.deleteForIssues(m, issueIds);
    await this.pulls.deleteForIssues(m, issueIds);
    await this.reviews.deleteForIssues(m, issueIds);
    return attachments.map(attachmentBlobKey);
  }

  /**
   * After the commit: a failure leaves an orphan file behind (logged), never a row without its
   * file. Shared with whatever else deletes attachment rows (a deleted comment's).
   */
  async files(keys: string[]): Promise<void> {
    for (const key of keys)
      await this.blobs
        .delete(key)
        .catch((err: unknown) => log.warn({ err, key }, 'could not remove the file of a deleted attachment'));
  }

  /**
   * A deleted repository: its issues and pulls a batch per transaction, then its labels,
   * milestones, projects, numbering and unlinked uploads. Safe to run again (a replayed event,
   * or a crash half-way, finishes the job).
   */
  async repository(repoId: number): Promise<void> {
    let issues = 0;
    for (;;) {
      const ids = await this.issues.idsOfRepo(repoId, BATCH);
      if (ids.length === 0) break;
      await this.files(await this.db.transaction((m) => this.rows(m, ids)));
      issues += ids.length;
    }
    const keys = await this.db.transaction(async (m) => {
      await this.labels.deleteOfRepo(m, repoId);
      await this.milestones.deleteOfRepo(m, repoId);
      await this.projects.deleteOfRepo(m, repoId);
      await this.issues.deleteCounter(m, repoId);
      return (await this.attachments.deleteOfRepo(m, repoId)).map(attachmentBlobKey);
    });
    await this.files(keys);
    log.info({ repoId, issues }, 'tracker of a deleted repository removed');
  }
}
