import { Database } from '@gitforge/platform';
import { interleaveTransactions } from '@gitforge/platform/testing';
import { IssueEntity } from '../src/issues/issue.entity.js';
import { IssuesRepository } from '../src/issues/issues.repository.js';
import { fillerRow, openIssueTestDatabase, type IssueTestDatabase } from './support/database.js';

describe.each(['sqlite', 'postgres'] as const)('IssuesRepository counters on %s', (engine) => {
  let store: IssueTestDatabase;
  let db: Database;
  let sut: IssuesRepository;

  beforeAll(async () => {
    store = await openIssueTestDatabase(engine, 'issue-counters');
    db = store.db;
    sut = new IssuesRepository(db);
  });

  afterAll(() => store?.close());

  it('should hand out numbers from 1 per repository, concurrent takers never sharing one', async () => {
    const taken = await Promise.all(Array.from({ length: 8 }, () => db.transaction((m) => sut.nextIndex(m, 11))));
    expect([...taken].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await db.transaction((m) => sut.nextIndex(m, 12))).toBe(1);
  });

  it("should hold an issue's lock until its transaction ends, the next taker reading the row as the first left it", async () => {
    const issue = await db.transaction((m) => fillerRow(m, IssueEntity, { repoId: 31, idx: 1, isPull: false, isClosed: false, numComments: 0 }));
    const [first, second] = await interleaveTransactions(
      db,
      async (m) => {
        const row = await sut.lock(m, issue.id);
        await sut.update(m, issue.id, { numComments: 1 });
        return row;
      },
      (m) => sut.lock(m, issue.id),
    );
    expect(first?.numComments).toBe(0);
    expect(second?.numComments).toBe(1);
    expect(await db.transaction((m) => sut.lock(m, issue.id + 1000))).toBeNull();
  });

  it('should count open and closed issues and pulls, with a version that grows on every count', async () => {
    const empty = await db.transaction((m) => sut.recount(m, 21));
    expect(empty).toEqual({ repoId: 21, numIssues: 0, numClosedIssues: 0, numPulls: 0, numClosedPulls: 0, version: 1 });
    await db.transaction(async (m) => {
      const rows: Array<[boolean, boolean]> = [
        [false, false],
        [false, true],
        [false, true],
        [true, false],
        [true, true],
      ];
      for (const [idx, [isPull, isClosed]] of rows.entries()) await fillerRow(m, IssueEntity, { repoId: 21, idx: idx + 1, isPull, isClosed });
      // Another repository's issues count for it only.
      await fillerRow(m, IssueEntity, { repoId: 22, idx: 1, isPull: false, isClosed: false });
    });
    const counted = await db.transaction((m) => sut.recount(m, 21));
    expect(counted).toEqual({ repoId: 21, numIssues: 3, numClosedIssues: 2, numPulls: 2, numClosedPulls: 1, version: 2 });
    // Numbers handed out before keep going from where they were.
    expect(await db.transaction((m) => sut.nextIndex(m, 21))).toBe(1);
    expect((await db.transaction((m) => sut.recount(m, 21))).version).toBe(3);
  });
});
