import { SqlDialect } from './dialect.js';

/** A manager that records the statements it is given and answers `rows`. */
function recorder(rows: unknown[] = []): { query: (sql: string, params: unknown[]) => Promise<unknown[]>; calls: unknown[][] } {
  const calls: unknown[][] = [];
  return { calls, query: (sql, params) => (calls.push([sql, params]), Promise.resolve(rows)) };
}

describe(SqlDialect.name, () => {
  const pg = new SqlDialect(true);
  const lite = new SqlDialect(false);

  it('should number placeholders on PostgreSQL, with casts, and use ? on SQLite', () => {
    expect([pg.param(1), pg.param(12, 'integer')]).toEqual(['$1', '$12::integer']);
    expect([lite.param(1), lite.param(12, 'integer')]).toEqual(['?', '?']);
  });

  it('should number the parameters of one statement as they are added, binding booleans as SQLite stores them', () => {
    const p = pg.params();
    const q = lite.params();
    expect([p.add(7), p.add(true), p.add('x', 'varchar')]).toEqual(['$1', '$2', '$3::varchar']);
    expect([q.add(7), q.add(true), q.add(false)]).toEqual(['?', '?', '?']);
    expect(p.values).toEqual([7, true, 'x']);
    expect(q.values).toEqual([7, 1, 0]);
  });

  it('should bind rows as one JSON parameter on PostgreSQL, and as a VALUES list on SQLite', () => {
    const p = pg.params();
    expect(p.add('x')).toBe('$1');
    const relation = 'SELECT (r->>0)::integer, (r->>1)::text FROM jsonb_array_elements($2::jsonb) AS r';
    expect(p.relation(['integer', 'text'], [[1, 'a'], [2, null]])).toBe(relation);
    expect(p.values).toEqual(['x', '[[1,"a"],[2,null]]']);
    // The text is the same for any number of rows, none included.
    const none = pg.params();
    expect(none.add('x') && none.relation(['integer', 'text'], [])).toBe(relation);
    expect(none.values[1]).toBe('[]');
    const q = lite.params();
    expect(q.relation(['integer', 'boolean'], [[1, true], [2, false]])).toBe('VALUES (?, ?), (?, ?)');
    expect(q.values).toEqual([1, 1, 2, 0]);
  });

  it('should lock rows read in a transaction on PostgreSQL only', () => {
    expect([pg.locksRows, lite.locksRows]).toEqual([true, false]);
    expect(pg.rowLock('pessimistic_write')).toEqual({ lock: { mode: 'pessimistic_write' } });
    expect(lite.rowLock('pessimistic_read')).toEqual({});
  });

  it('should take no lock on SQLite, where writing transactions run one at a time', async () => {
    const m = recorder();
    await lite.lockForTransaction(m as never, 'k');
    expect(await lite.tryLockForTransaction(m as never, [1, 2])).toBe(true);
    expect(m.calls).toEqual([]);
  });

  it("should hash a named key and pass a class and id as they are to PostgreSQL's advisory locks", async () => {
    const m = recorder([{ ok: true }]);
    await pg.lockForTransaction(m as never, 'gitforge:x');
    expect(await pg.tryLockForTransaction(m as never, [3, 9])).toBe(true);
    expect(m.calls).toEqual([
      ['SELECT pg_advisory_xact_lock(hashtext($1))', ['gitforge:x']],
      ['SELECT pg_try_advisory_xact_lock($1, $2) AS ok', [3, 9]],
    ]);
  });
});
