import { Database } from '@gitforge/platform';
import { interleaveTransactions } from '@gitforge/platform/testing';
import { IssueEntity } from '../src/issues/issue.entity.js';
import { PullRequestEntity } from '../src/pulls/pull-request.entity.js';
import { PullsRepository } from '../src/pulls/pulls.repository.js';
import { fillerRow, openIssueTestDatabase, type IssueTestDatabase } from './support/database.js';

describe.each(['sqlite', 'postgres'] as const)('PullsRepository on %s', (engine) => {
  let store: IssueTestDatabase;
  let db: Database;
  let sut: PullsRepository;

  beforeAll(async () => {
    store = await openIssueTestDatabase(engine, 'pulls-repository');
    db = store.db;
    sut = new PullsRepository(db);
  });

  afterAll(() => store?.close());

  async function pull(idx: number, hasMerged: boolean): Promise<PullRequestEntity> {
    return db.transaction(async (m) => {
      const issue = await fillerRow(m, IssueEntity, { repoId: 7, idx, isPull: true });
      return fillerRow(m, PullRequestEntity, { issueId: issue.id, baseRepoId: 7, headRepoId: 7, idx, hasMerged, mergeBase: 'a'.repeat(40), changedFiles: 3 });
    });
  }

  it('should store a recomputed state on an open pull but leave a merged one as it was merged', async () => {
    const open = await pull(1, false);
    const merged = await pull(2, true);
    // What a base-branch recomputation finds once the head is in the base.
    const after = { mergeBase: 'b'.repeat(40), changedFiles: 0 };
    await db.transaction(async (m) => {
      await sut.updateUnmerged(m, open.id, after);
      await sut.updateUnmerged(m, merged.id, after);
    });
    expect(await sut.findByIssueId(open.issueId)).toMatchObject(after);
    expect(await sut.findByIssueId(merged.issueId)).toMatchObject({ mergeBase: 'a'.repeat(40), changedFiles: 3 });
  });

  it("should hold a pull's lock until its transaction ends, the next taker reading the row as the first left it", async () => {
    const p = await pull(3, false);
    const [first, second] = await interleaveTransactions(
      db,
      async (m) => {
        const row = await sut.lock(m, p.id);
        await sut.update(m, p.id, { changedFiles: 9 });
        return row;
      },
      (m) => sut.lock(m, p.id),
    );
    expect(first?.changedFiles).toBe(3);
    expect(second?.changedFiles).toBe(9);
  });

  it('should lock the pulls of a head branch, the next taker reading the marks the first wrote', async () => {
    const [a, b] = [await pull(4, false), await pull(5, false)];
    await db.transaction(async (m) => {
      for (const row of [a, b]) await sut.update(m, row.id, { headRepoId: 8, headBranch: 'feature' });
    });
    const [first, second] = await interleaveTransactions(
      db,
      async (m) => {
        const marks = await sut.lockHeadMarks(m, 8, 'feature');
        await sut.markHeadBranch(m, 8, 'feature', true);
        return marks;
      },
      (m) => sut.lockHeadMarks(m, 8, 'feature'),
    );
    expect(first).toEqual([false, false]);
    expect(second).toEqual([true, true]);
  });
});
