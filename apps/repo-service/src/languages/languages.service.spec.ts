import { EventNames, type EventEnvelope } from '@gitforge/contracts';
import { Database, QueueDriver, type QueueJob } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import { Refs } from '../git/refs.js';
import { ReposRepository } from '../records/repos.repository.js';
import type { RepositoryEntity } from '../records/repository.entity.js';
import { strictMock } from '../testing/strict-mock.js';
import { LanguageStatEntity } from './language-stat.entity.js';
import { LanguageStatsReader } from './language-stats.reader.js';
import { LanguagesService } from './languages.service.js';

const REPO = { id: 4, defaultBranch: 'main', isEmpty: false, primaryLanguage: '' } as RepositoryEntity;
const HEAD = 'a'.repeat(40);

const pushed = (ref: string): QueueJob<EventEnvelope> =>
  ({
    id: 'e1',
    name: EventNames.repoPushed,
    attemptsMade: 0,
    data: { name: EventNames.repoPushed, repoId: REPO.id, payload: { ref } },
  }) as unknown as QueueJob<EventEnvelope>;

describe(LanguagesService.name, () => {
  let stored: LanguageStatEntity | null;
  let computed: string[];
  let repo: RepositoryEntity;
  let sut: LanguagesService;

  beforeEach(() => {
    stored = null;
    computed = [];
    repo = { ...REPO };
    const manager = {
      findOne: async () => stored,
      create: (_: unknown, row: LanguageStatEntity) => row,
      save: async (_: unknown, row: LanguageStatEntity) => (stored = row),
    };
    const db = strictMock(Database, {
      transaction: (async (work: (m: typeof manager) => Promise<unknown>) =>
        work(manager)) as unknown as Database['transaction'],
    });
    Object.defineProperty(db, 'manager', { value: manager });
    sut = new LanguagesService(
      db,
      strictMock(RepoAccessService),
      strictMock(ReposRepository, {
        findById: async () => repo,
        update: async (_m, _id, changes) => void Object.assign(repo, changes),
      }),
      strictMock(Refs, { branchHead: async () => HEAD }),
      strictMock(LanguageStatsReader, {
        compute: async (_repoId, commit) => {
          computed.push(commit);
          return { Go: 10 };
        },
      }),
      strictMock(QueueDriver),
    );
  });

  it('should compute and keep the statistics of the default branch when a push moves it', async () => {
    await sut.handle(pushed('refs/heads/main'));
    expect(computed).toEqual([HEAD]);
    expect(stored).toMatchObject({ repoId: REPO.id, commitId: HEAD, sizes: { Go: 10 } });
    // The largest language is the repository's.
    expect(repo.primaryLanguage).toBe('Go');
  });

  it("should give the repository its language from statistics kept before it had one", async () => {
    stored = { repoId: REPO.id, commitId: HEAD, sizes: { Go: 10, Python: 30 }, updatedAt: new Date(0) } as LanguageStatEntity;
    await sut.handle(pushed('refs/heads/main'));
    expect(computed).toEqual([]);
    expect(repo.primaryLanguage).toBe('Python');
  });

  it('should not compute again for a commit already computed (a replayed event)', async () => {
    await sut.handle(pushed('refs/heads/main'));
    await sut.handle(pushed('refs/heads/main'));
    expect(computed).toEqual([HEAD]);
  });

  it('should leave pushes to other branches and tags alone', async () => {
    await sut.handle(pushed('refs/heads/topic'));
    await sut.handle(pushed('refs/tags/main'));
    expect(computed).toEqual([]);
    expect(stored).toBeNull();
  });
});
