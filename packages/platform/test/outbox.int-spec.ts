import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Column, Entity, PrimaryGeneratedColumn, Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { EventConsumers, EventNames, QueueNames, type EventEnvelope } from '@gitforge/contracts';
import {
  BullMqDriver,
  col,
  createServiceDataSource,
  Database,
  loadConfig,
  OutboxRelay,
  OutboxEventEntity,
  OutboxService,
  openServiceDatabase,
  PlatformConfig,
  QueueDriver,
  RequestContexts,
  SqliteQueueDriver,
  type JobOptions,
} from '@gitforge/platform';
import {
  createTestDatabase,
  dropRedisNamespace,
  expectEventually,
  requireRedis,
  testRedisUrl,
  uniqueSuffix,
  type TestDatabase,
} from '@gitforge/platform/testing';

@Entity({ name: 'widget' })
class WidgetEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 100 })
  name!: string;
}

class Widgets1763800099999 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.createTable(new Table({ name: 'widget', columns: [col.id(), col.varchar('name', 100)] }));
  }
  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('widget');
  }
}

/** A queue that records what it was given, or refuses everything while `down`. */
class RecordingQueue extends QueueDriver {
  down = false;
  readonly jobs: Array<{ queue: string; name: string; data: unknown; options: JobOptions }> = [];
  async add(queue: string, name: string, data: unknown, options: JobOptions): Promise<void> {
    if (this.down) throw new Error('connection refused');
    if (!this.jobs.some((j) => j.queue === queue && j.options.jobId === options.jobId)) this.jobs.push({ queue, name, data, options });
  }
  process(): void {}
  async schedule(): Promise<void> {
    throw new Error('the outbox never schedules jobs');
  }
  async unschedule(): Promise<void> {
    throw new Error('the outbox never schedules jobs');
  }
  async pendingCount(): Promise<number> {
    return 0;
  }
  async unfinished(): Promise<Set<string>> {
    return new Set();
  }
  async close(): Promise<void> {}
}

describe.each(['sqlite', 'postgres'] as const)('Database and outbox on %s', (engine) => {
  let pgdb: TestDatabase | undefined;
  let dataDir: string;
  let db: Database;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gf-outbox-'));
    const env: Record<string, string> = { GITFORGE_DATA_DIR: dataDir };
    if (engine === 'postgres') {
      pgdb = await createTestDatabase('outbox');
      env.DATABASE_URL = pgdb.url;
    }
    const config = loadConfig(PlatformConfig, env);
    const ds = createServiceDataSource(config, { service: 'admin', entities: [WidgetEntity], migrations: [Widgets1763800099999] });
    await openServiceDatabase(ds, 'admin');
    db = new Database(ds);
  });

  afterAll(async () => {
    await db?.dataSource.destroy();
    await pgdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('should run migrations idempotently (a second start finds nothing to do)', async () => {
    await expect(db.dataSource.showMigrations()).resolves.toBe(false);
  });

  it('should apply a retried request once and answer the stored result', async () => {
    let runs = 0;
    const work = () =>
      db.transaction(async (m) => {
        runs += 1;
        const w = await m.save(WidgetEntity, m.create(WidgetEntity, { name: `w-${uniqueSuffix()}` }));
        return { id: w.id };
      });
    const first = await RequestContexts.run({ requestId: 'r', callId: 'call-1' }, work);
    const retried = await RequestContexts.run({ requestId: 'r', callId: 'call-1' }, work);
    expect(retried).toEqual(first);
    expect(runs).toBe(1);
    const other = await RequestContexts.run({ requestId: 'r', callId: 'call-2' }, work);
    expect(other).not.toEqual(first);
  });

  it('should run the write hooks around every transaction and write but bookkeeping ones, after its end', async () => {
    const seen: string[] = [];
    let failBefore = false;
    let failAfter = false;
    db.aroundEveryWrite({
      before: async () => {
        seen.push('before');
        if (failBefore) throw new Error('before failed');
      },
      after: async () => {
        // What the hook sees is over: committed (read outside the transaction), or rolled back.
        seen.push(`after:${await db.manager.count(WidgetEntity, { where: { name: 'hooked' } })}`);
        if (failAfter) throw new Error('after failed');
      },
    });
    try {
      await db.transaction((m) => m.insert(WidgetEntity, { name: 'hooked' }));
      expect(seen).toEqual(['before', 'after:1']);
      await db.write(`INSERT INTO widget (name) VALUES (${db.sql.param(1)})`, ['hooked']);
      expect(seen).toEqual(['before', 'after:1', 'before', 'after:2']);
      // A failed transaction has its hooks too (a lost commit may have applied); its own error is kept.
      await expect(db.transaction(() => Promise.reject(new Error('work failed')))).rejects.toThrow('work failed');
      expect(seen.slice(4)).toEqual(['before', 'after:2']);
      // The platform's bookkeeping writes no service data: no hooks.
      await db.transaction((m) => m.insert(WidgetEntity, { name: 'bookkeeping' }), { bookkeeping: true });
      expect(seen).toHaveLength(6);
      // A failing `after` is logged: the write is done.
      failAfter = true;
      await expect(db.transaction((m) => m.insert(WidgetEntity, { name: 'hooked' }))).resolves.toBeDefined();
      expect(seen.slice(6)).toEqual(['before', 'after:3']);
      // A failing `before` stops the write untouched.
      failBefore = true;
      await expect(db.transaction((m) => m.insert(WidgetEntity, { name: 'hooked' }))).rejects.toThrow('before failed');
      expect(await db.manager.count(WidgetEntity, { where: { name: 'hooked' } })).toBe(3);
      expect(seen.slice(8)).toEqual(['before']);
    } finally {
      db.aroundEveryWrite(undefined);
    }
  });

  it('should keep concurrent transactions apart', async () => {
    const before = await db.manager.count(WidgetEntity);
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) =>
        db.transaction(async (m) => {
          await m.insert(WidgetEntity, { name: `c-${i}` });
          if (i % 5 === 0) throw new Error('rolled back');
          await new Promise((r) => setTimeout(r, 1));
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(20);
    expect(await db.manager.count(WidgetEntity)).toBe(before + 20);
  });

  it('should find a row by columns as findOne does, conversions included', async () => {
    await db.transaction((m) =>
      m.insert(OutboxEventEntity, { eventId: 'lookup-1', name: 'user.created', envelope: '{}', createdAt: new Date(1700000000123), sentAt: new Date(1700000000999), attempts: 2 }),
    );
    const viaOrm = await db.manager.findOne(OutboxEventEntity, { where: { eventId: 'lookup-1' } });
    const fast = await db.findOneBy(OutboxEventEntity, { eventId: 'lookup-1' });
    expect(fast).toBeInstanceOf(OutboxEventEntity);
    expect(fast).toEqual(viaOrm);
    expect(fast!.createdAt).toEqual(new Date(1700000000123));
    expect(fast!.sentAt).toEqual(new Date(1700000000999));
    expect(fast!.lockedUntil).toBeNull();
    // Inside a transaction the same lookup goes through the transaction's connection.
    await db.transaction(async (m) => expect(await db.findOneBy(OutboxEventEntity, { eventId: 'lookup-1' }, m)).toEqual(viaOrm));
    await expect(db.findOneBy(OutboxEventEntity, { eventId: 'missing' })).resolves.toBeNull();
    await expect(db.findOneBy(WidgetEntity, { name: 'evented', id: -1 })).resolves.toBeNull();
    // A boolean where the column takes none binds as the ORM binds it, not as a driver error.
    await expect(db.findOneBy(WidgetEntity, { name: true as never })).resolves.toBeNull();
    // A data source opened afresh answers through its new connection, not a statement of the closed one.
    await db.dataSource.destroy();
    await db.dataSource.initialize();
    await expect(db.findOneBy(OutboxEventEntity, { eventId: 'lookup-1' })).resolves.toEqual(viaOrm);
  });

  it('should keep answering a lookup prepared before its table changed', async () => {
    await db.transaction((m) => m.insert(WidgetEntity, { name: 'prepared-before' }));
    const lookup = () => db.findOneBy(WidgetEntity, { name: 'prepared-before' });
    const expected = await db.manager.findOne(WidgetEntity, { where: { name: 'prepared-before' } });
    await db.dataSource.query('ALTER TABLE widget ADD COLUMN extra integer');
    // Prepared on several pooled connections, then the table changes under them (another replica's migration).
    await expect(Promise.all(Array.from({ length: 4 }, lookup))).resolves.toEqual(Array(4).fill(expected));
    await db.dataSource.query('ALTER TABLE widget DROP COLUMN extra');
    await expect(Promise.all(Array.from({ length: 4 }, lookup))).resolves.toEqual(Array(4).fill(expected));
    await expect(lookup()).resolves.toEqual(expected);
  });

  it('should run statements prepared by their text as they run unprepared, also once their table changed', async () => {
    const insert = (names: string[]): Promise<void> => {
      const params = db.sql.params();
      return db.write(`INSERT INTO widget (name) ${params.relation(['varchar'], names.map((n) => [n]))}`, params.values, { prepared: true });
    };
    // SELECT *: a statement prepared before the table changed answers a different row type.
    const read = async (): Promise<string[]> =>
      (await db.query<{ name: string }>(`SELECT * FROM widget WHERE name LIKE ${db.sql.param(1)} ORDER BY name`, ['batch-%'], { prepared: true })).map((r) => r.name);
    await insert(['batch-a', 'batch-b']);
    await insert(['batch-c']);
    await expect(Promise.all(Array.from({ length: 4 }, read))).resolves.toEqual(Array(4).fill(['batch-a', 'batch-b', 'batch-c']));
    await db.dataSource.query('ALTER TABLE widget ADD COLUMN extra integer');
    await Promise.all([insert(['batch-d']), insert(['batch-e'])]);
    await expect(Promise.all(Array.from({ length: 4 }, read))).resolves.toEqual(Array(4).fill(['batch-a', 'batch-b', 'batch-c', 'batch-d', 'batch-e']));
    await db.dataSource.query('ALTER TABLE widget DROP COLUMN extra');
    await expect(read()).resolves.toHaveLength(5);
  });

  it('should relay committed events to every consumer queue once, and keep them while the queue is down', async () => {
    const queue = new RecordingQueue();
    const relay = new OutboxRelay(db, queue);
    const outbox = new OutboxService(db, relay);
    queue.down = true;
    const envelope = await db.transaction(async (m) => {
      await m.insert(WidgetEntity, { name: 'evented' });
      return outbox.add(m, EventNames.userCreated, { user: { login: 'x' } as never }, { actor: null });
    });
    await expect(db.transaction(async (m) => {
      await outbox.add(m, EventNames.userCreated, { user: { login: 'never' } as never }, { actor: null });
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');

    await expect(relay.relayBatch()).resolves.toEqual({ relayed: 0, failed: true });
    expect(await relay.backlog()).toBe(1);

    queue.down = false;
    // The failed batch is held back for a moment; once released, it goes out.
    await expectEventually(async () => {
      await relay.relayBatch();
      expect(await relay.backlog()).toBe(0);
    });
    // A user.created event goes to every consumer that takes all events, not to the pull sync.
    const takers = EventConsumers.filter((c) => !c.events || c.events.includes(EventNames.userCreated)).map((c) => c.queue);
    expect(queue.jobs.map((j) => j.queue).sort()).toEqual([...takers].sort());
    expect(takers).not.toContain(QueueNames.pullSync);
    for (const job of queue.jobs) {
      expect(job.options.jobId).toBe(envelope.id);
      expect((job.data as EventEnvelope).payload).toEqual({ user: { login: 'x' } });
    }
  });
});

describe('BullMQ driver', () => {
  const prefix = `gftest-${uniqueSuffix()}`;
  let driver: BullMqDriver;

  beforeAll(async () => {
    await requireRedis();
    driver = new BullMqDriver(testRedisUrl(), prefix);
  });

  afterAll(async () => {
    await driver.close();
    await dropRedisNamespace(prefix);
  });

  it('should deliver a job once per id, retrying a failing attempt with backoff', async () => {
    const seen: Array<{ id: string; attempt: number }> = [];
    driver.process<{ x: number }>(QueueNames.feeds, async (job) => {
      seen.push({ id: job.id, attempt: job.attemptsMade });
      if (job.attemptsMade === 0) throw new Error('first attempt fails');
    });
    await driver.add(QueueNames.feeds, 'user.created', { x: 1 }, { jobId: 'event-1', backoffMs: 50 });
    await driver.add(QueueNames.feeds, 'user.created', { x: 1 }, { jobId: 'event-1', backoffMs: 50 });
    await expectEventually(() => expect(seen).toEqual([
      { id: 'event-1', attempt: 0 },
      { id: 'event-1', attempt: 1 },
    ]));
    await expectEventually(async () => expect(await driver.pendingCount(QueueNames.feeds)).toBe(0));
  });
});

describe('SQLite queue driver', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gf-queue-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('should deliver once per id and retry failures with backoff', async () => {
    const driver = SqliteQueueDriver.acquire(join(dir, 'queue.sqlite'));
    const seen: number[] = [];
    driver.process(QueueNames.webhooks, async (job) => {
      seen.push(job.attemptsMade);
      if (job.attemptsMade < 2) throw new Error('not yet');
    });
    await driver.add(QueueNames.webhooks, 'e', {}, { jobId: 'a', backoffMs: 20 });
    await driver.add(QueueNames.webhooks, 'e', {}, { jobId: 'a', backoffMs: 20 });
    await expectEventually(() => expect(seen).toEqual([0, 1, 2]));
    await expectEventually(async () => expect(await driver.pendingCount(QueueNames.webhooks)).toBe(0));
    await driver.close();
  });

  it('should run again after a restart the jobs that were running or waiting', async () => {
    const file = join(dir, 'queue.sqlite');
    const first = SqliteQueueDriver.acquire(file);
    await first.add(QueueNames.feeds, 'e', { n: 1 }, { jobId: 'kept' });
    await first.close();
    const second = SqliteQueueDriver.acquire(file);
    const seen: string[] = [];
    second.process(QueueNames.feeds, async (job) => {
      seen.push(job.id);
    });
    await expectEventually(() => expect(seen).toEqual(['kept']));
    await second.close();
  });
});
