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

  it('should bind a shared value once on PostgreSQL, naming its placeholder again, and at every use on SQLite', () => {
    const payload = 'x'.repeat(100);
    const p = pg.params();
    expect([p.addShared(payload, 'text'), p.add(1), p.addShared(payload, 'text'), p.addShared('other')]).toEqual(['$1::text', '$2', '$1::text', '$3']);
    expect(p.values).toEqual([payload, 1, 'other']);
    const q = lite.params();
    expect([q.addShared(payload), q.add(1), q.addShared(payload)]).toEqual(['?', '?', '?']);
    expect(q.values).toEqual([payload, 1, payload]);
  });

  it('should lock rows read in a transaction on PostgreSQL only', () => {
    expect([pg.locksRows, lite.locksRows]).toEqual([true, false]);
    expect(pg.rowLock('pessimistic_write')).toEqual({ lock: { mode: 'pessimistic_write' } });
    expect(lite.rowLock('pessimistic_read')).toEqual({});
  });

  it('should insert rows without waiting for the flush on PostgreSQL, and plainly on SQLite', () => {
    const onPg = pg.insertUnflushed('t', ['a', 'b'], ['($1::integer, $2::text)', '($3::integer, $4::text)'], 'ON CONFLICT (a) DO NOTHING');
    expect(onPg.replace(/\s+/g, ' ')).toBe(
      "INSERT INTO t (a, b) SELECT * FROM (VALUES ($1::integer, $2::text), ($3::integer, $4::text)) AS v(a, b) WHERE set_config('synchronous_commit', 'off', true) IS NOT NULL ON CONFLICT (a) DO NOTHING",
    );
    expect(lite.insertUnflushed('t', ['a', 'b'], ['(?, ?)', '(?, ?)'], 'ON CONFLICT (a) DO NOTHING')).toBe('INSERT INTO t (a, b) VALUES (?, ?), (?, ?) ON CONFLICT (a) DO NOTHING');
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
