import { EventNames, QueueNames, type EventEnvelope } from '@gitforge/contracts';
import { Database, QueueDriver, type QueueJob } from '@gitforge/platform';
import type { EntityManager } from 'typeorm';
import { RepoAccessService } from '../access/repo-access.service.js';
import { GitObjects, type GitCommit, type GitTreeEntry } from '../git/git-objects.js';
import { Refs } from '../git/refs.js';
import { ReposRepository } from '../records/repos.repository.js';
import type { RepositoryEntity } from '../records/repository.entity.js';
import { strictMock } from '../testing/strict-mock.js';
import { LicensesService } from './licenses.service.js';

const HEAD = 'a'.repeat(40);
const MOVED = 'b'.repeat(40);
const BLOB = 'c'.repeat(40);
const MIT_DECLARED = 'SPDX-License-Identifier: MIT\n';

const pushed = (ref: string): QueueJob<EventEnvelope> =>
  ({ id: 'e1', name: EventNames.repoPushed, attemptsMade: 0, data: { name: EventNames.repoPushed, repoId: 4, payload: { ref } } }) as unknown as QueueJob<EventEnvelope>;

describe(LicensesService.name, () => {
  let row: RepositoryEntity;
  let head: string | null;
  /** Where the branch is once the answer is about to be written (a push may have moved it). */
  let headAtWrite: string | null;
  let tree: GitTreeEntry[];
  let reads: string[];
  let writes: Array<Partial<RepositoryEntity>>;
  let writing: boolean;
  let queued: Array<{ queue: string; name: string; data: unknown; jobId: string }>;
  let sut: LicensesService;

  beforeEach(() => {
    row = { id: 4, defaultBranch: 'main', isEmpty: false, licenses: [], licenseBlob: '' } as unknown as RepositoryEntity;
    head = HEAD;
    headAtWrite = HEAD;
    tree = [{ mode: '100644', type: 'blob', sha: BLOB, name: 'LICENSE' }];
    reads = [];
    writes = [];
    writing = false;
    queued = [];
    sut = new LicensesService(
      strictMock(Database, {
        transaction: (async (work: (m: EntityManager) => Promise<unknown>) => {
          writing = true;
          try {
            return await work({} as EntityManager);
          } finally {
            writing = false;
          }
        }) as Database['transaction'],
      }),
      strictMock(RepoAccessService),
      strictMock(ReposRepository, {
        findById: async () => row,
        lockById: async () => row,
        update: async (_m, _id, changes) => void writes.push(changes),
      }),
      strictMock(Refs, { branchHead: async () => (writing ? headAtWrite : head) }),
      strictMock(GitObjects, {
        commit: async (_id, sha) => ({ sha, tree: 'tree' }) as GitCommit,
        tree: async () => tree,
        info: async (_id, sha) => ({ oid: sha, type: 'blob', size: MIT_DECLARED.length }),
        blob: async (_id, sha) => {
          reads.push(sha);
          return Buffer.from(MIT_DECLARED);
        },
      }),
      // add is abstract, so not a method strictMock finds: the queue is this one call.
      { add: async (queue: string, name: string, data: unknown, { jobId }: { jobId: string }) => void queued.push({ queue, name, data, jobId }) } as unknown as QueueDriver,
    );
  });

  it('should read the license file when a push moves the default branch, and keep what it found with its blob', async () => {
    await sut.handle(pushed('refs/heads/main'));
    expect(writes).toEqual([{ licenses: ['MIT'], licenseBlob: BLOB }]);
  });

  it('should leave pushes to other branches alone', async () => {
    await sut.handle(pushed('refs/heads/topic'));
    await sut.handle(pushed('refs/tags/v1'));
    expect(reads).toEqual([]);
  });

  it('should not read a license file whose blob the licenses already come from, unless forced', async () => {
    row.licenseBlob = BLOB;
    await sut.refresh(4);
    expect(reads).toEqual([]);
    await sut.refresh(4, true);
    expect(reads).toEqual([BLOB]);
  });

  it('should forget the licenses when the license file goes, without reading anything', async () => {
    Object.assign(row, { licenses: ['MIT'], licenseBlob: BLOB });
    tree = [{ mode: '100644', type: 'blob', sha: 'd'.repeat(40), name: 'README.md' }];
    await sut.refresh(4);
    expect(reads).toEqual([]);
    expect(writes).toEqual([{ licenses: [], licenseBlob: '' }]);
  });

  it('should not write what it read when the branch moved meanwhile: that push refreshes again', async () => {
    headAtWrite = MOVED;
    await sut.refresh(4);
    expect(reads).toEqual([BLOB]);
    expect(writes).toEqual([]);
  });

  it('should queue a look asked for, each request its own job, and take it like a push', async () => {
    await sut.requestRefresh(4);
    await sut.requestRefresh(4);
    expect(queued).toEqual([
      { queue: QueueNames.repoLicenses, name: 'licenses.refresh', data: { repoId: 4 }, jobId: expect.stringMatching(/^licenses-4-/) },
      { queue: QueueNames.repoLicenses, name: 'licenses.refresh', data: { repoId: 4 }, jobId: expect.stringMatching(/^licenses-4-/) },
    ]);
    expect(queued[0]!.jobId).not.toBe(queued[1]!.jobId);
    const [job] = queued;
    await sut.handle({ id: job!.jobId, name: job!.name, data: job!.data as { repoId: number }, attemptsMade: 0, recovered: false });
    expect(writes).toEqual([{ licenses: ['MIT'], licenseBlob: BLOB }]);
  });
});
