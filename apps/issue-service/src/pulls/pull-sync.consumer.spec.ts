import { EventNames, PullStatus, type EventEnvelope, type PullGitState, type PullSyncItem } from '@gitforge/contracts';
import type { Database, DirectoryClient, QueueDriver, QueueJob } from '@gitforge/platform';
import type { RepoGate } from '../access/repo-gate.js';
import type { IssueEvents } from '../issues/issue-events.js';
import type { IssueLoader } from '../issues/issue-loader.js';
import type { IssueEntity } from '../issues/issue.entity.js';
import type { IssuesRepository } from '../issues/issues.repository.js';
import type { ReviewsService } from '../reviews/reviews.service.js';
import type { PullGitClient } from './pull-git.client.js';
import type { PullRequestEntity } from './pull-request.entity.js';
import { PullSyncConsumer } from './pull-sync.consumer.js';
import type { PullsRepository, PullWithIssue } from './pulls.repository.js';
import type { PullsService } from './pulls.service.js';

const BASE = 'b'.repeat(40);
const onMain = (idx: number): PullWithIssue => ({
  pull: { id: idx, idx, baseRepoId: 5, baseBranch: 'main', headRepoId: 5, headBranch: `topic-${idx}`, headSha: String(idx).repeat(40).slice(0, 40) } as PullRequestEntity,
  issue: { id: 100 + idx, posterId: 1 } as IssueEntity,
});

const pushedToMain = (extra: Record<string, unknown> = {}): QueueJob<EventEnvelope> =>
  ({
    data: {
      id: 'event-1',
      name: EventNames.repoPushed,
      version: 1,
      occurredAt: new Date(0).toISOString(),
      actor: { id: 1, login: 'ann' },
      repoId: 5,
      payload: { ref: 'refs/heads/main', before: 'a'.repeat(40), after: BASE, ...extra },
    },
  }) as unknown as QueueJob<EventEnvelope>;

describe(PullSyncConsumer.name, () => {
  let asked: number[];
  let stored: number[];
  let sut: PullSyncConsumer;

  beforeEach(() => {
    asked = [];
    stored = [];
    const pulls = {
      hasHead: async () => false,
      openTouching: async () => ({ byHead: [], byBase: [onMain(3), onMain(4)] }),
      updateUnmerged: async (_m: unknown, id: number) => {
        stored.push(id);
      },
    } as unknown as PullsRepository;
    const git = {
      sync: async (targets: PullSyncItem[]): Promise<PullGitState[]> => {
        asked.push(...targets.map((t) => t.index));
        return targets.map((t) => ({
          headSha: t.headSha!,
          baseSha: BASE,
          mergeBase: 'c'.repeat(40),
          status: PullStatus.mergeable,
          conflictedFiles: [],
          commitsAhead: 1,
          commitsBehind: 1,
          additions: 1,
          deletions: 0,
          changedFiles: 1,
        }));
      },
    } as unknown as PullGitClient;
    const db = { transaction: (work: (m: unknown) => Promise<unknown>) => work({}) } as unknown as Database;
    sut = new PullSyncConsumer(
      {} as QueueDriver,
      db,
      pulls,
      {} as IssuesRepository,
      {} as IssueLoader,
      git,
      {} as RepoGate,
      {} as IssueEvents,
      {} as DirectoryClient,
      {} as PullsService,
      {} as ReviewsService,
    );
  });

  it('should recompute every open pull a push to their base moved', async () => {
    await sut.handle(pushedToMain());
    expect(asked).toEqual([3, 4]);
    expect(stored).toEqual([3, 4]);
  });

  it("should leave out the pull whose merge the push is, which its merge records, and recompute the others", async () => {
    await sut.handle(pushedToMain({ merged_pull: 3 }));
    expect(asked).toEqual([4]);
    expect(stored).toEqual([4]);
  });
});
