import { createHash } from 'node:crypto';
import type { Database as SqliteConnection, Statement } from 'better-sqlite3';
import type { Pool } from 'pg';
import type { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import { RequestContexts } from '../context/request-context.js';
import { createLogger } from '../logging/logger.js';
import { ProcessedRequestEntity } from './platform.entities.js';
import { SqlDialect } from './dialect.js';

const log = createLogger('database');

class AlreadyProcessed {
  constructor(readonly result: string | null) {}
}

/** What runs around every write of a service (see {@link Database.aroundEveryWrite}). */
export interface WriteHooks {
  before(): Promise<void>;
  after(): Promise<void>;
}

export interface TransactionOptions {
  /**
   * The transaction writes only the platform's own records (the outbox, idempotency records),
   * never the service's data: the write hooks do not run for it.
   */
  bookkeeping?: boolean;
}

/**
 * A {@link Database.findOneBy} query: its columns and SQL, on PostgreSQL the name each connection
 * prepares it under, and on SQLite its statement as prepared on `connection` (prepared again on
 * another: a data source initialised afresh) with each result column's metadata.
 */
/** How many times every lookup is prepared afresh before lookups stop being prepared (see `queryPrepared`). */
const MAX_STATEMENT_GENERATIONS = 8;

/** PostgreSQL's answers to a prepared statement gone stale: result type changed (0A000), statement gone (26000), name taken (42P05). */
const STALE_STATEMENT_CODES = new Set(['0A000', '26000', '42P05']);

/** A prepared statement's name, from its text: every Database on the same pool prepares one text under one name. */
const nameOfStatement = (sql: string): string => `gf_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;

interface Lookup {
  columns: ColumnMetadata[];
  sql: string;
  statementName: string;
  prepared?: { connection: SqliteConnection; statement: Statement; hydration: Array<ColumnMetadata | undefined> };
}

/**
 * The service's database handle. Every write goes through {@link transaction}:
 * - on SQLite, transactions are serialised (TypeORM shares one connection between them);
 * - inside a transport request, the transaction is recorded under the request id, so a request
 *   retried by another replica gets the stored result back instead of being applied twice.
 *   The result must therefore be JSON: return ids and plain values, not entities.
 */
export class Database {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly lookups = new Map<string, Lookup>();
  /** Names of the statements {@link query} prepares, by text. */
  private readonly statementNames = new Map<string, string>();
  /** Bumped when a prepared lookup went stale (see {@link queryPrepared}): every lookup is then prepared afresh under a new name. */
  private statementGeneration = 0;
  private readonly afterCommit = new WeakMap<EntityManager, Array<() => void>>();
  private dialect: SqlDialect | undefined;
  private writeHooks: WriteHooks | undefined;

  constructor(readonly dataSource: DataSource) {}

  get isPostgres(): boolean {
    return this.dataSource.options.type === 'postgres';
  }

  /** The engine's SQL differences (placeholders, values, advisory locks), for hand-written statements. */
  get sql(): SqlDialect {
    return (this.dialect ??= new SqlDialect(this.isPostgres));
  }

  /**
   * Whether the process runs one writing transaction at a time (SQLite: {@link transaction}
   * queues them), so work done just before one sees what no other write can change until it runs.
   */
  get serialWrites(): boolean {
    return !this.isPostgres;
  }

  /**
   * One writing statement as a transaction of its own: on PostgreSQL sent alone (the statement is
   * its transaction), on SQLite queued with the other transactions.
   */
  async write(sql: string, params: unknown[], options: { prepared?: boolean } = {}): Promise<void> {
    if (!this.isPostgres) return void (await this.transaction((m) => m.query(sql, params)));
    await this.around(() => (options.prepared ? this.query(sql, params, { prepared: true }) : this.dataSource.manager.query(sql, params)));
  }

  /**
   * One statement outside any transaction, answering its rows. `prepared`: for a text sent again
   * and again (a batch statement over {@link SqlParams.relation}, whose text does not depend on its
   * number of rows, not one that lists its values): on PostgreSQL a named statement each pooled
   * connection parses once, as {@link findOneBy}'s (parsing took a tenth of PostgreSQL's CPU
   * during a webhook backlog's drain).
   */
  async query<R = Record<string, unknown>>(sql: string, params: unknown[], options: { prepared?: boolean } = {}): Promise<R[]> {
    if (!this.isPostgres || !options.prepared) return (await this.dataSource.manager.query(sql, params)) as R[];
    let statementName = this.statementNames.get(sql);
    if (statementName === undefined) {
      // A caller that sends ever new texts would fill this: it is bounded, and such texts are not for preparing.
      if (this.statementNames.size >= 1_000) this.statementNames.clear();
      statementName = nameOfStatement(sql);
      this.statementNames.set(sql, statementName);
    }
    return (await this.queryPrepared((this.dataSource.driver as unknown as { master: Pool }).master, { sql, statementName }, params)) as R[];
  }

  /**
   * Wraps every write of the service (each {@link transaction} and {@link write}, but those marked
   * `bookkeeping`): `before` runs before it begins, and a failure there stops it untouched; `after`
   * runs once it has committed or rolled back, before its caller goes on, and a failure there is
   * logged, not thrown (the write is done). org-service announces its directory writes there (see
   * DirectoryClient). `undefined` removes them.
   */
  aroundEveryWrite(hooks: WriteHooks | undefined): void {
    this.writeHooks = hooks;
  }

  private async around<T>(write: () => Promise<T>, options?: TransactionOptions): Promise<T> {
    const hooks = options?.bookkeeping ? undefined : this.writeHooks;
    if (!hooks) return write();
    await hooks.before();
    try {
      return await write();
    } finally {
      await hooks.after().catch((err: unknown) => log.warn({ err }, 'the after-write hook failed'));
    }
  }

  /** For reads; writes go through {@link transaction} (or {@link write}). */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** Runs `fn` after the transaction that `manager` belongs to commits (used to wake the outbox relay). */
  onCommit(manager: EntityManager, fn: () => void): void {
    const list = this.afterCommit.get(manager);
    if (list) list.push(fn);
    else this.afterCommit.set(manager, [fn]);
  }

  async transaction<T>(work: (manager: EntityManager) => Promise<T>, options?: TransactionOptions): Promise<T> {
    const ctx = RequestContexts.current();
    const key = ctx?.callId ? `${ctx.callId}#${ctx.txSeq++}` : undefined;
    const run = async (): Promise<T> => {
      let committed: EntityManager | undefined;
      try {
        const result = await this.dataSource.transaction(async (manager) => {
          committed = manager;
          if (key) {
            const done = await manager.findOne(ProcessedRequestEntity, { where: { key } });
            if (done) throw new AlreadyProcessed(done.result);
            await manager.insert(ProcessedRequestEntity, { key, result: null, createdAt: new Date() });
          }
          const value = await work(manager);
          if (key) await manager.update(ProcessedRequestEntity, { key }, { result: JSON.stringify(value ?? null) });
          return value;
        });
        if (committed) for (const fn of this.afterCommit.get(committed) ?? []) fn();
        return result;
      } catch (err) {
        if (err instanceof AlreadyProcessed) return (err.result === null ? null : JSON.parse(err.result)) as T;
        if (key && isUniqueViolation(err)) {
          // Another replica is applying (or applied) the same request: its committed result is the answer.
          const done = await this.dataSource.manager.findOne(ProcessedRequestEntity, { where: { key } });
          if (done?.result != null) return JSON.parse(done.result) as T;
        }
        throw err;
      }
    };
    return this.around(() => {
      if (this.isPostgres) return run();
      const next = this.tail.then(run, run);
      this.tail = next.catch(() => undefined);
      return next;
    }, options);
  }

  /**
   * The first row whose columns equal `where`, for hot read paths. TypeORM's findOne rebuilds its
   * query and result mapping on every call (about 0.35 ms of CPU each, measured); this keeps one
   * SQL text per entity and column set and hydrates rows through TypeORM's own driver
   * conversions, so transformers, booleans and JSON columns come back as findOne gives them.
   * Outside a transaction the statement goes straight to the driver (a prepared better-sqlite3
   * statement that answers the row as an array, or pg's pool), not through TypeORM's query runner:
   * the same connection and the same SQL, without the runner's per-query bookkeeping (about a
   * fifth of a repository lookup's cost on SQLite). On PostgreSQL it is a named statement each
   * pooled connection parses once: PostgreSQL then neither parses nor plans it again, which took
   * two thirds of its CPU per API read (measured: 168 µs of PostgreSQL's CPU per
   * `GET /repos/{o}/{r}` unprepared, 55 µs prepared).
   */
  async findOneBy<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Partial<T>, manager?: EntityManager): Promise<T | null> {
    const meta = this.dataSource.getMetadata(entity);
    const keys = Object.keys(where);
    const cacheKey = `${meta.name}:${keys.join(',')}`;
    let lookup = this.lookups.get(cacheKey);
    if (!lookup) {
      const columns = keys.map((key) => {
        const column = meta.findColumnWithPropertyName(key);
        if (!column) throw new Error(`${meta.name} has no column ${key}`);
        return column;
      });
      const conditions = columns.map((c, i) => `"${c.databaseName}" = ${this.sql.param(i + 1)}`);
      const sql = `SELECT * FROM "${meta.tableName}" WHERE ${conditions.join(' AND ')} LIMIT 1`;
      lookup = { columns, sql, statementName: nameOfStatement(sql) };
      this.lookups.set(cacheKey, lookup);
    }
    const driver = this.dataSource.driver;
    const params = lookup.columns.map((c) => driver.preparePersistentValue((where as Record<string, unknown>)[c.propertyName], c));
    if (manager) {
      const rows = (await manager.query(lookup.sql, params)) as Array<Record<string, unknown>>;
      return rows[0] ? this.hydrate<T>(meta, rows[0]) : null;
    }
    if (this.isPostgres) {
      const rows = await this.queryPrepared((driver as unknown as { master: Pool }).master, lookup, params);
      return rows[0] ? this.hydrate<T>(meta, rows[0]) : null;
    }
    const connection = (driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
    if (lookup.prepared?.connection !== connection) {
      const statement = connection.prepare(lookup.sql).raw(true);
      const byName = new Map(meta.columns.map((c) => [c.databaseName, c]));
      lookup.prepared = { connection, statement, hydration: statement.columns().map((c) => byName.get(c.name)) };
    }
    const { statement, hydration } = lookup.prepared;
    // better-sqlite3 binds no booleans (TypeORM's runner turns them into 1 and 0 before it binds).
    const row = statement.get(...params.map((p) => (typeof p === 'boolean' ? Number(p) : p))) as unknown[] | undefined;
    if (!row) return null;
    const hydrated = meta.create() as unknown as Record<string, unknown>;
    for (let i = 0; i < row.length; i++) {
      const column = hydration[i];
      if (column) hydrated[column.propertyName] = driver.prepareHydratedValue(row[i], column);
    }
    return hydrated as T;
  }

  /**
   * Runs a lookup as a prepared statement of the pooled connection. A `SELECT *` prepared before a
   * migration changed its table's columns (another replica upgraded while this one runs) fails
   * with PostgreSQL's "cached plan must not change result type" on that connection (and a
   * connection whose statements were deallocated answers "prepared statement does not exist", one
   * that a pooler in transaction mode shares "already exists"):
   * the lookup then runs unprepared, and every lookup is prepared again under a new name.
   */
  private async queryPrepared(pool: Pool, lookup: Pick<Lookup, 'sql' | 'statementName'>, params: unknown[]): Promise<Array<Record<string, unknown>>> {
    const run = async (name?: string): Promise<Array<Record<string, unknown>>> =>
      (await pool.query({ name, text: lookup.sql, values: params })).rows as Array<Record<string, unknown>>;
    const generation = this.statementGeneration;
    // Statements that keep going stale (a pooler in transaction mode): lookups run unprepared from then on.
    if (generation >= MAX_STATEMENT_GENERATIONS) return run();
    try {
      return await run(generation === 0 ? lookup.statementName : `${lookup.statementName}_${generation}`);
    } catch (err) {
      if (!STALE_STATEMENT_CODES.has((err as { code?: string }).code ?? '')) throw err;
      if (this.statementGeneration === generation) this.statementGeneration += 1;
      return run();
    }
  }

  private hydrate<T extends ObjectLiteral>(meta: EntityMetadata, row: Record<string, unknown>): T {
    const entity = meta.create() as unknown as T;
    for (const column of meta.columns) {
      if (column.databaseName in row) {
        (entity as Record<string, unknown>)[column.propertyName] = this.dataSource.driver.prepareHydratedValue(row[column.databaseName], column);
      }
    }
    return entity;
  }

  /** Deletes idempotency records older than `maxAgeMs`. */
  async pruneProcessedRequests(maxAgeMs: number): Promise<void> {
    await this.transaction(
      (m) =>
        m
          .createQueryBuilder()
          .delete()
          .from(ProcessedRequestEntity)
          .where('created_at < :cutoff', { cutoff: Date.now() - maxAgeMs })
          .execute()
          .then(() => undefined),
      { bookkeeping: true },
    );
  }
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; driverError?: { code?: string } };
  const code = e?.driverError?.code ?? e?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
