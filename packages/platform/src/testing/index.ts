/**
 * Helpers for gitforge's integration and end-to-end tests. They talk to the real PostgreSQL and
 * Redis of the machine and fail loudly (never skip) when those are missing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { EventEnvelope, ServiceName } from '@gitforge/contracts';
import { Queue } from 'bullmq';
import type { EntityManager } from 'typeorm';
import { loadConfig, PlatformConfig } from '../config/config.js';
import { createServiceDataSource, openServiceDatabase, type ServiceDatabaseOptions } from '../database/data-source.js';
import { Database } from '../database/database.js';
import { CONSUMER_GROUP, requestStream } from '../transport/streams.js';

/** The server used to create throwaway databases (trust auth on the CI machine). */
export const testPostgresUrl = (): string =>
  process.env.GITFORGE_TEST_DATABASE_URL ?? `postgres://${encodeURIComponent(userInfo().username)}@127.0.0.1:5432/test`;
export const testRedisUrl = (): string => process.env.GITFORGE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export const uniqueSuffix = (): string => randomBytes(5).toString('hex');

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** Creates an empty PostgreSQL database for one suite; `drop()` removes it. */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  if (process.env.NODE_ENV === 'production') throw new Error('refusing to create test databases with NODE_ENV=production');
  const admin = new pg.Client({ connectionString: testPostgresUrl() });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(`PostgreSQL is required for this test and is not reachable at ${testPostgresUrl()}: ${String(err)}`);
  }
  const name = `gf_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${uniqueSuffix()}`;
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(testPostgresUrl());
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: testPostgresUrl() });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** Checks that Redis answers, with a message that says what is missing. */
export async function requireRedis(): Promise<void> {
  const redis = new Redis(testRedisUrl(), { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new Error(`Redis is required for this test and is not reachable at ${testRedisUrl()}: ${String(err)}`);
  } finally {
    redis.disconnect();
  }
}

/**
 * Waits until the replica `consumer` (its instance id, `repo-0`) of `service` holds a request it
 * has read and not yet answered (a pending entry of the transport's consumer group), for a fault
 * test that must kill it while it has something for another replica to take over.
 */
export async function waitForPendingRequest(redisUrl: string, namespace: string, service: ServiceName, consumer: string, timeoutMs = 10_000): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    const stream = requestStream(namespace, service);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [, , , consumers] = (await redis.xpending(stream, CONSUMER_GROUP)) as [number, unknown, unknown, Array<[string, string]> | null];
      if (Number(consumers?.find(([name]) => name === consumer)?.[1] ?? 0) > 0) return;
      if (Date.now() > deadline) throw new Error(`${consumer} held no request of ${service} within ${timeoutMs} ms`);
    }
  } finally {
    redis.disconnect();
  }
}

/** Deletes every Redis key under a test namespace. */
export async function dropRedisNamespace(namespace: string): Promise<void> {
  const redis = new Redis(testRedisUrl());
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${namespace}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Retries `assertion` until it passes or `timeoutMs` elapses, pausing between tries. */
export async function expectEventually<T>(assertion: () => Promise<T> | T, { timeoutMs = 10_000, intervalMs = 100 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      return await assertion();
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
  throw lastError;
}

/**
 * Resolves once some backend of `db`'s PostgreSQL database waits for a lock (fails after
 * `timeoutMs`): a test's second transaction has reached the lock its first holds. Polls without
 * sleeping.
 */
export async function untilLockWaiter(db: Database, what = 'a transaction', timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = (await db.manager.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)) as Array<{ n: number }>;
    if (rows[0]!.n > 0) return;
    if (Date.now() > deadline) throw new Error(`${what} never waited for a lock`);
    await new Promise((r) => setImmediate(r));
  }
}

/**
 * Runs `first` in a transaction held open until `second`, started meanwhile in a transaction of
 * its own, waits for a lock `first` took (PostgreSQL), then lets both finish and answers what
 * each answered. On SQLite the Database runs `second` after `first` commits, which is the order
 * a lock gives on PostgreSQL. A `second` that does not wait fails the test instead of passing.
 */
export async function interleaveTransactions<A, B>(db: Database, first: (m: EntityManager) => Promise<A>, second: (m: EntityManager) => Promise<B>): Promise<[A, B]> {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let reached!: () => void;
  const firstDone = new Promise<void>((r) => (reached = r));
  const t1 = db.transaction(async (m) => {
    const result = await first(m);
    reached();
    await held;
    return result;
  });
  await Promise.race([firstDone, t1]);
  const t2 = db.transaction(second);
  try {
    if (db.isPostgres) await untilLockWaiter(db, 'the second transaction');
  } finally {
    release();
  }
  return Promise.all([t1, t2]);
}

/**
 * The outbox of one service of a running gitforge, oldest first: its PostgreSQL schema when
 * `databaseUrl` is given, else its SQLite file in `dataDir`. For end-to-end tests that check the
 * events a request wrote, without waiting for a consumer.
 */
export async function readOutboxEvents(target: { service: ServiceName; dataDir: string; databaseUrl?: string }): Promise<EventEnvelope[]> {
  let rows: Array<{ envelope: string }>;
  if (target.databaseUrl) {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      rows = (await client.query<{ envelope: string }>(`SELECT envelope FROM "gitforge_${target.service}".outbox_event ORDER BY seq`)).rows;
    } finally {
      await client.end();
    }
  } else {
    const db = new BetterSqlite3(resolve(target.dataDir, `${target.service}.sqlite`), { readonly: true, fileMustExist: true });
    try {
      rows = db.prepare('SELECT envelope FROM outbox_event ORDER BY seq').all() as Array<{ envelope: string }>;
    } finally {
      db.close();
    }
  }
  return rows.map((r) => JSON.parse(r.envelope) as EventEnvelope);
}

/** Runs one SQL statement against a test database (e.g. a layout's service schema) and answers its rows. */
export async function queryDatabase<T = Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Adds a job to a BullMQ queue the way the outbox relay does (for tests that publish an event again). */
export async function addBullJob(redisUrl: string, prefix: string, queue: string, name: string, data: unknown, jobId: string): Promise<void> {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const q = new Queue(queue, { connection, prefix });
  try {
    await q.add(name, data, { jobId, removeOnComplete: { count: 5000 }, removeOnFail: { count: 10000 } });
  } finally {
    await q.close();
    connection.disconnect();
  }
}

/** A service's schema, migrated, on a fresh SQLite file or PostgreSQL database, with its config. */
export interface ServiceTestDatabase<C extends PlatformConfig> {
  db: Database;
  config: C;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Opens `service`'s database for an int-spec the way the service opens it (its entities and
 * migrations run), on `engine`: SQLite in a fresh data directory, or a throwaway PostgreSQL
 * database named after `name`. `configClass` is the service's own config when the spec needs it.
 */
export async function openServiceTestDatabase<C extends PlatformConfig = PlatformConfig>(
  engine: 'sqlite' | 'postgres',
  name: string,
  options: ServiceDatabaseOptions & { configClass?: new () => C },
): Promise<ServiceTestDatabase<C>> {
  const dataDir = mkdtempSync(join(tmpdir(), `gf-${name}-`));
  const pgdb = engine === 'postgres' ? await createTestDatabase(name.replace(/[^a-z_]/g, '_')) : undefined;
  const configClass = options.configClass ?? (PlatformConfig as unknown as new () => C);
  const config = loadConfig(configClass, { GITFORGE_DATA_DIR: dataDir, ...(pgdb ? { DATABASE_URL: pgdb.url } : {}) });
  const ds = createServiceDataSource(config, options);
  await openServiceDatabase(ds, options.service);
  return {
    db: new Database(ds),
    config,
    dataDir,
    async close() {
      await ds.destroy();
      await pgdb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
