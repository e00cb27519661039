import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { EventNames, type Actor, type OwnerAccess, type User } from '@gitforge/contracts';
import { BlobStore, DirectoryClient, OutboxService, RpcClient } from '@gitforge/platform';
import { openServiceTestDatabase, type ServiceTestDatabase } from '@gitforge/platform/testing';
import { RepoAccessService } from '../src/access/repo-access.service.js';
import { RepoServiceEntities, RepoServiceMigrations } from '../src/entities.js';
import { GitService } from '../src/git/git.service.js';
import { ADOPTION_MARKER } from '../src/git/unadopted-dirs.js';
import { LicensesService } from '../src/licenses/licenses.service.js';
import { ReposRepository } from '../src/records/repos.repository.js';
import { RepositoryEntity } from '../src/records/repository.entity.js';
import { TransfersRepository } from '../src/records/transfers.repository.js';
import { RepoServiceConfig } from '../src/repo.config.js';
import { RepoStaging } from '../src/repos/repo-staging.js';
import { ReposService } from '../src/repos/repos.service.js';
import { StarCounts } from '../src/stars/star-counts.js';
import { StarsRepository } from '../src/stars/stars.repository.js';
import { strictMock } from '../src/testing/strict-mock.js';
import { WatchEntity } from '../src/watches/watch.entity.js';
import { WatchesRepository } from '../src/watches/watches.repository.js';
import { dropRepository } from './support/dropped-repo.js';

const admin: Actor = { id: 1, login: 'root', isAdmin: true, scopes: null };
const owner = {
  owner: { id: 2, login: 'alice', kind: 'user', visibility: 'public' },
  ownerUser: { id: 2, login: 'alice' },
  organization: null,
} as unknown as OwnerAccess;

/**
 * Adoption on a real database and a real repositories root: a dropped directory becomes a
 * repository, and whatever goes wrong before its row commits (the transaction fails, or the
 * process dies with the directory staged) puts the directory back where the operator dropped it.
 * It is never deleted.
 */
describe.each(['sqlite', 'postgres'] as const)('adoption on %s', (engine) => {
  let store: ServiceTestDatabase<RepoServiceConfig>;
  let git: GitService;
  let repos: ReposRepository;
  let staging: RepoStaging;
  let failOutbox: boolean;
  let events: string[];
  let sut: ReposService;

  beforeAll(async () => {
    store = await openServiceTestDatabase(engine, 'adoption', {
      service: 'repo',
      entities: RepoServiceEntities,
      migrations: RepoServiceMigrations,
      configClass: RepoServiceConfig,
    });
    const db = store.db;
    git = new GitService(store.config);
    repos = new ReposRepository(db);
    staging = new RepoStaging(db, repos, git);
    sut = new ReposService(
      db,
      repos,
      strictMock(RepoAccessService, { ownerAccess: async () => owner }),
      git,
      strictMock(OutboxService, {
        add: (async (_m: unknown, name: string) => {
          if (failOutbox) throw new Error('outbox refused the event');
          events.push(name);
          return {};
        }) as unknown as OutboxService['add'],
      }),
      strictMock(RpcClient, { call: (async () => 0) as RpcClient['call'] }),
      strictMock(DirectoryClient, { publicUser: async () => ({ id: 1, login: 'root' }) as User }),
      store.config,
      staging,
      new TransfersRepository(db),
      new WatchesRepository(db),
      strictMock(StarsRepository),
      strictMock(StarCounts),
      strictMock(BlobStore),
      // Reading the adopted repository's license file is LicensesService's to test.
      strictMock(LicensesService, { requestRefresh: async () => undefined }),
    );
  });

  beforeEach(() => {
    failOutbox = false;
    events = [];
  });

  afterAll(async () => {
    await store?.close();
  });

  const rowOf = (name: string): Promise<RepositoryEntity | null> => repos.findByOwnerAndName(2, name);
  const staged = (): string[] => (existsSync(join(git.root, '.staging')) ? readdirSync(join(git.root, '.staging')) : []);
  const refsIn = (dir: string): string =>
    execFileSync('git', ['for-each-ref', '--format=%(refname) %(objectname)'], { env: { PATH: process.env.PATH, GIT_DIR: dir, GIT_CONFIG_NOSYSTEM: '1', HOME: store.dataDir } }).toString();

  it('should make a dropped repository a private repository of its owner, with its branches, object format and size', async () => {
    const drop = dropRepository(git.root, 'alice/proj.git', { branches: ['feature', 'master'], head: 'feature', tag: 'v1.0' });
    const refs = refsIn(drop);
    await sut.adopt(admin, 'alice', 'proj');
    const row = (await rowOf('proj'))!;
    expect(row).toMatchObject({ name: 'proj', isPrivate: true, isEmpty: false, defaultBranch: 'master', numBranches: 2, objectFormat: 'sha1', numReleases: 0 });
    expect(row.sizeKib).toBeGreaterThan(0);
    expect(existsSync(drop)).toBe(false);
    expect(refsIn(git.repoPath(row.id))).toBe(refs);
    expect(existsSync(join(git.repoPath(row.id), ADOPTION_MARKER))).toBe(false);
    expect(await git.headBranch(row.id)).toBe('master');
    expect(staged()).toEqual([]);
    expect(events).toEqual([EventNames.repoCreated]);
    expect(await store.db.manager.countBy(WatchEntity, { repoId: row.id, userId: admin.id })).toBe(1);
    // Once adopted it is a repository, not a dropped directory: a second adoption is 404.
    await expect(sut.adopt(admin, 'alice', 'proj')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('should adopt a repository without branches as an empty one on main', async () => {
    dropRepository(git.root, 'alice/empty.git', { head: 'trunk' });
    await sut.adopt(admin, 'alice', 'Empty');
    expect(await rowOf('empty')).toMatchObject({ name: 'Empty', isEmpty: true, defaultBranch: 'main', numBranches: 0 });
    expect(await git.headBranch((await rowOf('empty'))!.id)).toBe('main');
  });

  it('should put the directory back where it was dropped when the adoption fails, and write no row', async () => {
    const drop = dropRepository(git.root, 'alice/fails.git', { branches: ['main'] });
    const refs = refsIn(drop);
    failOutbox = true;
    await expect(sut.adopt(admin, 'alice', 'fails')).rejects.toThrow('outbox refused the event');
    expect(await rowOf('fails')).toBeNull();
    expect(refsIn(drop)).toBe(refs);
    expect(existsSync(join(drop, ADOPTION_MARKER))).toBe(false);
    expect(staged()).toEqual([]);
    expect(await git.unadoptedNames('alice')).toContain('fails');
    // And it can be adopted once the fault is gone.
    failOutbox = false;
    await sut.adopt(admin, 'alice', 'fails');
    expect(await rowOf('fails')).toMatchObject({ defaultBranch: 'main', isEmpty: false });
  });

  it('should leave a name that has a repository alone (404), its dropped directory untouched', async () => {
    const drop = dropRepository(git.root, 'alice/proj.git', { branches: ['main'] });
    await expect(sut.adopt(admin, 'alice', 'PROJ')).rejects.toMatchObject({ code: 'not_found' });
    expect(existsSync(join(drop, 'HEAD'))).toBe(true);
    expect(existsSync(join(drop, ADOPTION_MARKER))).toBe(false);
    await expect(sut.adopt(admin, 'alice', 'missing')).rejects.toMatchObject({ code: 'not_found' });
    await expect(sut.adopt(admin, 'alice', '..')).rejects.toMatchObject({ code: 'not_found' });
    await expect(sut.adopt({ ...admin, isAdmin: false }, 'alice', 'proj')).rejects.toMatchObject({ code: 'permission_denied' });
  });

  it('should move an adoption left staged by a crash before its row committed back to its drop location (the sweep)', async () => {
    const drop = dropRepository(git.root, 'alice/crashed.git', { branches: ['main'] });
    const refs = refsIn(drop);
    // What a process that died inside the adoption's transaction leaves: the directory staged, no row.
    const id = 900_001;
    expect(await git.adoptStaged(id, 'alice', 'crashed')).toBe(git.stagedPath(id));
    expect(existsSync(drop)).toBe(false);
    await staging.sweep();
    expect(staged()).toEqual([]);
    expect(refsIn(drop)).toBe(refs);
    expect(existsSync(join(drop, ADOPTION_MARKER))).toBe(false);
  });

  it('should keep a crashed adoption staged while its drop location is taken, and settle the others meanwhile', async () => {
    dropRepository(git.root, 'alice/blocked.git', { branches: ['main'] });
    const later = dropRepository(git.root, 'alice/later.git', { branches: ['main'] });
    await git.adoptStaged(900_003, 'alice', 'blocked');
    await git.adoptStaged(900_004, 'alice', 'later');
    // The operator dropped something else at the first one's place since.
    dropRepository(git.root, 'alice/blocked.git', { branches: ['other'] });
    await staging.sweep();
    expect(staged()).toEqual(['900003.git']);
    expect(existsSync(join(git.stagedPath(900_003), ADOPTION_MARKER))).toBe(true);
    expect(existsSync(join(later, 'HEAD'))).toBe(true);
    // Once the place is free again, the next sweep puts it back.
    await git.removeUnadopted('alice', 'blocked');
    await staging.sweep();
    expect(staged()).toEqual([]);
    expect(refsIn(join(git.root, 'alice/blocked.git'))).toMatch(/refs\/heads\/main/);
  });

  it('should move an adoption whose row committed before the crash into place (the sweep), without its marker', async () => {
    dropRepository(git.root, 'alice/committed.git', { branches: ['main'] });
    const now = new Date();
    const row = await store.db.manager.save(
      RepositoryEntity,
      store.db.manager.create(RepositoryEntity, { ownerId: 2, name: 'committed', lowerName: 'committed', defaultBranch: 'main', settings: {} as never, topics: [], createdAt: now, updatedAt: now }),
    );
    await git.adoptStaged(row.id, 'alice', 'committed');
    await staging.sweep();
    expect(staged()).toEqual([]);
    expect(existsSync(join(git.repoPath(row.id), 'HEAD'))).toBe(true);
    expect(existsSync(join(git.repoPath(row.id), ADOPTION_MARKER))).toBe(false);
    expect(await git.isUnadopted('alice', 'committed')).toBe(false);
  });

  if (engine === 'postgres') {
    it('should leave an adoption alone while its transaction holds the creation mark', async () => {
      const drop = dropRepository(git.root, 'alice/inflight.git', { branches: ['main'] });
      const id = 900_002;
      await git.adoptStaged(id, 'alice', 'inflight');
      // Another connection's transaction holds the mark, as an adoption in flight on another replica does.
      const runner = store.db.dataSource.createQueryRunner();
      await runner.startTransaction();
      try {
        await repos.holdCreation(runner.manager, id);
        expect(await staging.settle(id)).toBe('busy');
        expect(existsSync(git.stagedPath(id))).toBe(true);
      } finally {
        await runner.rollbackTransaction();
        await runner.release();
      }
      expect(await staging.settle(id)).toBe('discarded');
      expect(existsSync(join(drop, 'HEAD'))).toBe(true);
    });
  }
});
