import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServiceDataSource, Database, loadConfig, openServiceDatabase, PlatformConfig } from '@gitforge/platform';
import { createTestDatabase, interleaveTransactions, type TestDatabase } from '@gitforge/platform/testing';
import type { EntityManager } from 'typeorm';
import { RepoServiceEntities, RepoServiceMigrations } from '../src/entities.js';
import { RepositoryEntity } from '../src/records/repository.entity.js';
import { StarsRepository } from '../src/stars/stars.repository.js';
import { WatchesRepository } from '../src/watches/watches.repository.js';

/**
 * Stars and watches changed by two transactions at once on PostgreSQL (READ COMMITTED): the
 * second must count the first's row once it commits, for the repository's num_stars and
 * num_watches and for the user's star count alike. The second transaction is started while the
 * first is open, and the first commits only once the second is seen waiting for a lock.
 */
describe('stars and watches counted under concurrency (postgres)', () => {
  let pgdb: TestDatabase;
  let dataDir: string;
  let db: Database;
  let stars: StarsRepository;
  let watches: WatchesRepository;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gf-star-counts-'));
    pgdb = await createTestDatabase('star_counts');
    const ds = createServiceDataSource(loadConfig(PlatformConfig, { GITFORGE_DATA_DIR: dataDir, DATABASE_URL: pgdb.url }), {
      service: 'repo',
      entities: RepoServiceEntities,
      migrations: RepoServiceMigrations,
    });
    await openServiceDatabase(ds, 'repo');
    db = new Database(ds);
    stars = new StarsRepository(db);
    watches = new WatchesRepository(db);
  });

  afterAll(async () => {
    await db?.dataSource.destroy();
    await pgdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const newRepo = async (name: string): Promise<number> => {
    const now = new Date();
    const row = await db.manager.save(
      RepositoryEntity,
      db.manager.create(RepositoryEntity, { ownerId: 1, name, lowerName: name, defaultBranch: 'main', settings: {} as never, topics: [], createdAt: now, updatedAt: now }),
    );
    return row.id;
  };

  const interleave = (first: (m: EntityManager) => Promise<unknown>, second: (m: EntityManager) => Promise<unknown>) => interleaveTransactions(db, first, second);

  it('should count both stars of two users starring one repository at once', async () => {
    const repoId = await newRepo('stars-at-once');
    await interleave(
      (m) => stars.add(m, 101, repoId),
      (m) => stars.add(m, 102, repoId),
    );
    const repo = await db.manager.findOneByOrFail(RepositoryEntity, { id: repoId });
    expect(repo.numStars).toBe(2);
  });

  it("should count both of one user's stars on two repositories at once", async () => {
    const [a, b] = [await newRepo('user-a'), await newRepo('user-b')];
    let last: { numStars: number } | undefined;
    await interleave(
      (m) => stars.add(m, 201, a),
      async (m) => (last = await stars.add(m, 201, b)),
    );
    expect(last?.numStars).toBe(2);
    const [row] = (await db.manager.query('SELECT num_stars FROM user_star_count WHERE user_id = 201')) as Array<{ num_stars: number }>;
    expect(Number(row!.num_stars)).toBe(2);
  });

  it('should count both watches of two users watching one repository at once', async () => {
    const repoId = await newRepo('watches-at-once');
    await interleave(
      (m) => watches.add(m, 301, repoId),
      (m) => watches.add(m, 302, repoId),
    );
    const repo = await db.manager.findOneByOrFail(RepositoryEntity, { id: repoId });
    expect(repo.numWatches).toBe(2);
  });
  it('should leave no star or watch behind on a repository deleted while it was being starred or watched', async () => {
    for (const add of [(m: EntityManager, id: number) => stars.add(m, 401, id), (m: EntityManager, id: number) => watches.add(m, 401, id)]) {
      const repoId = await newRepo(`deleted-meanwhile-${Math.random().toString(36).slice(2)}`);
      let refused: unknown;
      await interleave(
        async (m) => {
          await m.delete(RepositoryEntity, { id: repoId });
          await stars.removeAllOfRepo(m, repoId);
        },
        async (m) => {
          await add(m, repoId).catch((err: unknown) => (refused = err));
        },
      );
      expect(refused).toMatchObject({ code: 'not_found' });
      const [row] = (await db.manager.query('SELECT (SELECT COUNT(*) FROM star WHERE repo_id = $1) + (SELECT COUNT(*) FROM watch WHERE repo_id = $1) AS n', [repoId])) as Array<{ n: string }>;
      expect(Number(row!.n)).toBe(0);
    }
  });
});
