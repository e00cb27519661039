import type { DataSource, EntityManager } from 'typeorm';

/**
 * Where SQL differs between the two engines, so domain repositories write one statement for both:
 * placeholders, bound values, casts, advisory locks and what one statement may do. SQLite runs one
 * writing transaction at a time (and Database serialises them), so the locks that keep concurrent
 * PostgreSQL transactions or replicas apart have nothing to guard there and take nothing.
 */
export class SqlDialect {
  constructor(readonly postgres: boolean) {}

  /** The statement's `n`-th parameter (from 1): `$n` on PostgreSQL, `?` on SQLite. */
  param(n: number, cast?: SqlCast): string {
    if (!this.postgres) return '?';
    return cast ? `$${n}::${cast}` : `$${n}`;
  }

  /** A list of parameters for one statement, numbered as they are added. */
  params(): SqlParams {
    return new SqlParams(this);
  }

  /** A value as the engine binds it: SQLite has no boolean type (0 and 1). */
  value(v: unknown): unknown {
    return typeof v === 'boolean' && !this.postgres ? (v ? 1 : 0) : v;
  }

  /**
   * Whether one statement may write to several tables (a data-modifying WITH), so a batch of
   * related writes is one round trip and atomic without a transaction. PostgreSQL only.
   */
  get writableCte(): boolean {
    return this.postgres;
  }

  /** Whether reads can lock rows until the transaction ends (PostgreSQL): SQLite's one writer at a time has nobody to keep out. */
  get locksRows(): boolean {
    return this.postgres;
  }

  /** TypeORM find options that lock the rows read until the transaction ends, where {@link locksRows}; none on SQLite. */
  rowLock(mode: 'pessimistic_read' | 'pessimistic_write'): { lock?: { mode: 'pessimistic_read' | 'pessimistic_write' } } {
    return this.postgres ? { lock: { mode } } : {};
  }

  /** Holds `key` until the transaction of `m` ends: concurrent transactions taking it run one after the other. */
  async lockForTransaction(m: EntityManager, key: LockKey): Promise<void> {
    if (!this.postgres) return;
    await m.query(`SELECT pg_advisory_xact_lock(${lockArgs(key)})`, lockValues(key));
  }

  /** Takes `key` for the transaction of `m` unless another transaction holds it (false then). */
  async tryLockForTransaction(m: EntityManager, key: LockKey): Promise<boolean> {
    if (!this.postgres) return true;
    const rows = (await m.query(`SELECT pg_try_advisory_xact_lock(${lockArgs(key)}) AS ok`, lockValues(key))) as Array<{ ok: boolean }>;
    return rows[0]?.ok === true;
  }

  /**
   * Runs `work` holding `key` on a connection of its own, across transactions and replicas, or
   * answers `busy` at once when another holder has it. The key is released when `work` ends or
   * when the holding process dies (its connection with it).
   */
  async withSessionLock<T, B>(dataSource: DataSource, key: LockKey, busy: B, work: () => Promise<T>): Promise<T | B> {
    if (!this.postgres) return work();
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      const rows = (await runner.query(`SELECT pg_try_advisory_lock(${lockArgs(key)}) AS ok`, lockValues(key))) as Array<{ ok: boolean }>;
      if (rows[0]?.ok !== true) return busy;
      try {
        return await work();
      } finally {
        await runner.query(`SELECT pg_advisory_unlock(${lockArgs(key)})`, lockValues(key));
      }
    } finally {
      await runner.release();
    }
  }
}

/** A type a PostgreSQL placeholder is cast to where nothing else gives it one (rows of a VALUES list). */
export type SqlCast = 'integer' | 'varchar' | 'bigint' | 'boolean' | 'text';

/** An advisory lock's key: a name (hashed by PostgreSQL) or a class and an id. */
export type LockKey = string | readonly [number, number];

const lockArgs = (key: LockKey): string => (typeof key === 'string' ? 'hashtext($1)' : '$1, $2');
const lockValues = (key: LockKey): unknown[] => (typeof key === 'string' ? [key] : [...key]);

/** Parameters of one statement: `add` binds a value and answers its placeholder. */
export class SqlParams {
  readonly values: unknown[] = [];

  constructor(private readonly dialect: SqlDialect) {}

  add(value: unknown, cast?: SqlCast): string {
    this.values.push(this.dialect.value(value));
    return this.dialect.param(this.values.length, cast);
  }

  /**
   * Rows of values, typed by column, as a relation a batch statement reads (`WITH v(a, b) AS
   * (…)`, or the source of an INSERT). On PostgreSQL the rows cross as one JSON parameter, each a
   * JSON array, read back column by column (`SELECT (r->>0)::integer, … FROM
   * jsonb_array_elements($1::jsonb) AS r`): the statement's text, and so its parse and plan, is the
   * same whatever the number of rows, and serialising the rows costs one `JSON.stringify` (a
   * quarter of what binding a parameter per cell, or an array per column, costs either side). On
   * SQLite a `VALUES` list (at least one row).
   */
  relation(types: readonly SqlCast[], rows: ReadonlyArray<readonly unknown[]>): string {
    if (!this.dialect.postgres) return `VALUES ${rows.map((r) => `(${r.map((v) => this.add(v)).join(', ')})`).join(', ')}`;
    const json = this.add(JSON.stringify(rows));
    return `SELECT ${types.map((type, i) => `(r->>${i})::${type}`).join(', ')} FROM jsonb_array_elements(${json}::jsonb) AS r`;
  }
}
