import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { EntityTarget, ObjectLiteral } from 'typeorm';
import { Database, FsBlobStore } from '@gitforge/platform';
import { AttachmentEntity, attachmentBlobKey } from '../src/attachments/attachment.entity.js';
import { AttachmentsRepository } from '../src/attachments/attachments.repository.js';
import { CommentEntity } from '../src/comments/comment.entity.js';
import { CommentsRepository } from '../src/comments/comments.repository.js';
import { DependenciesRepository } from '../src/dependencies/dependencies.repository.js';
import { IssueServiceEntities } from '../src/entities.js';
import { IssueEntity } from '../src/issues/issue.entity.js';
import { IssueRemoval } from '../src/issues/issue-removal.js';
import { IssuesRepository } from '../src/issues/issues.repository.js';
import { LabelsRepository } from '../src/labels/labels.repository.js';
import { MilestonesRepository } from '../src/milestones/milestones.repository.js';
import { ProjectEntity } from '../src/projects/project.entity.js';
import { ProjectsRepository } from '../src/projects/projects.repository.js';
import { PullRequestEntity } from '../src/pulls/pull-request.entity.js';
import { PullsRepository } from '../src/pulls/pulls.repository.js';
import { ReactionsRepository } from '../src/reactions/reactions.repository.js';
import { ReviewsRepository } from '../src/reviews/reviews.repository.js';
import { IssueWatchesRepository } from '../src/subscriptions/issue-watches.repository.js';
import { TimesRepository } from '../src/times/times.repository.js';
import { fillerRow, openIssueTestDatabase, type IssueTestDatabase } from './support/database.js';

describe.each(['sqlite', 'postgres'] as const)('IssueRemoval on %s', (engine) => {
  let store: IssueTestDatabase;
  let db: Database;
  let blobs: FsBlobStore;
  let sut: IssueRemoval;

  beforeAll(async () => {
    store = await openIssueTestDatabase(engine, 'issue-removal');
    db = store.db;
    blobs = new FsBlobStore(join(store.dataDir, 'blobs'));
    sut = new IssueRemoval(
      db,
      new IssuesRepository(db),
      new LabelsRepository(db),
      new MilestonesRepository(db),
      new ProjectsRepository(db),
      new DependenciesRepository(db),
      new TimesRepository(db),
      new CommentsRepository(db),
      new ReactionsRepository(db),
      new IssueWatchesRepository(db),
      new AttachmentsRepository(db),
      new PullsRepository(db),
      new ReviewsRepository(db),
      blobs,
    );
  });

  afterAll(async () => {
    await store?.close();
  });

  /** Every kind of row the tracker keeps for one repository, with one issue and one pull; answers the attachment's uuid. */
  async function seed(repoId: number): Promise<string> {
    return db.transaction(async (m) => {
      const issue = await fillerRow(m, IssueEntity, { repoId, idx: 1 });
      const pullIssue = await fillerRow(m, IssueEntity, { repoId, idx: 2, isPull: true });
      const pull = await fillerRow(m, PullRequestEntity, {
        issueId: pullIssue.id,
        baseRepoId: repoId,
        headRepoId: repoId,
        idx: 2,
      });
      const project = await fillerRow(m, ProjectEntity, { repoId });
      const comment = await fillerRow(m, CommentEntity, { issueId: issue.id });
      const uuid = `${repoId}aaaaaaa-0000-4000-8000-${String(repoId).padStart(12, '0')}`;
      const links = {
        repoId,
        issueId: issue.id,
        dependencyId: pullIssue.id,
        pullId: pull.id,
        projectId: project.id,
        commentId: comment.id,
        uuid,
      };
      for (const entity of IssueServiceEntities) {
        if ([IssueEntity, PullRequestEntity, ProjectEntity, CommentEntity].includes(entity as never))
          continue;
        await fillerRow(m, entity, entity === AttachmentEntity ? { ...links, issueId: 0, commentId: 0 } : links);
      }
      // A review comment on the pull, and an upload linked to an issue.
      await fillerRow(m, CommentEntity, { issueId: pullIssue.id, type: 21 });
      await fillerRow(m, AttachmentEntity, { repoId, issueId: issue.id, uuid: uuid.replace(/^./, 'f') });
      await blobs.put(attachmentBlobKey(uuid), Readable.from([Buffer.from('file')]));
      return uuid;
    });
  }

  const counts = (): Promise<number[]> =>
    Promise.all(IssueServiceEntities.map((e) => db.manager.count(e as EntityTarget<ObjectLiteral>)));

  it("should remove every row of a deleted repository's tracker, and its files, and leave other repositories alone", async () => {
    const kept = await seed(1001);
    const before = await counts();
    const gone = await seed(1002);
    expect((await counts()).every((n, i) => n > before[i]!)).toBe(true);

    await sut.repository(1002);
    expect(await counts()).toEqual(before);
    expect(await blobs.exists(attachmentBlobKey(gone))).toBe(false);
    expect(await blobs.exists(attachmentBlobKey(kept))).toBe(true);

    // A replayed event finds nothing left to do.
    await sut.repository(1002);
    expect(await counts()).toEqual(before);
  });
});
