import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { jest } from '@jest/globals';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import {
  BullMqDriver,
  REDIS_ERROR_LOG_INTERVAL_MS,
  RedisStreamsClient,
  RedisStreamsServer,
  rootLogger,
} from '@gitforge/platform';
import { expectEventually } from '@gitforge/platform/testing';

interface Line {
  level: number;
  msg: string;
  component?: string;
  connection?: string;
  suppressed?: number;
  task?: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      socket.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    socket.on('error', () => resolve(false));
  });
}

/** A Redis server of this test's own (the machine's is shared and never stopped). */
class PrivateRedis {
  private child?: ChildProcess;
  constructor(readonly port: number) {}
  get running(): boolean {
    return this.child !== undefined;
  }
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }
  async start(): Promise<void> {
    this.child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await expectEventually(async () => expect(await ping(this.port)).toBe(true), {
      timeoutMs: 10_000,
      intervalMs: 100,
    });
  }
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}

/**
 * Issue 21, item 6: during a Redis outage every connection of the transport (server and client)
 * and of the queues reports through pino, one line per connection per interval with a count of
 * the rest; nothing reaches stderr as ioredis's `Unhandled error event`, and failed claims are
 * the outage, not an error each.
 */
describe('Redis connection errors', () => {
  const lines: Line[] = [];
  const capture = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
  let redis: PrivateRedis;
  let server: RedisStreamsServer;
  let client: RedisStreamsClient;
  let driver: BullMqDriver;
  // ioredis hands every connection error to silentEmit, which prints `[ioredis] Unhandled error
  // event` to stderr when the connection has no error listener: count those.
  const unhandled: string[] = [];
  const proto = Redis.prototype as unknown as {
    silentEmit(this: Redis, event: string, arg: unknown): unknown;
  };
  const silentEmit = proto.silentEmit;
  jest.spyOn(proto, 'silentEmit').mockImplementation(function (this: Redis, event: string, arg: unknown) {
    if (event === 'error' && this.listenerCount('error') === 0) unhandled.push(String(arg));
    return silentEmit.call(this, event, arg);
  });

  beforeAll(async () => {
    // Every component's logger is a child of the root logger: route them to the capture.
    jest.spyOn(rootLogger(), 'child').mockImplementation((bindings) => capture.child(bindings));
    redis = new PrivateRedis(await freePort());
    await redis.start();
    server = new RedisStreamsServer({
      url: redis.url,
      namespace: 'gf-errors',
      service: 'admin',
      concurrency: 4,
      claimIdleMs: 600,
    });
    await new Promise<void>((resolve, reject) => server.listen((err) => (err ? reject(err) : resolve())));
    client = new RedisStreamsClient(redis.url, 'gf-errors', 1000);
    await client.connect();
    driver = new BullMqDriver(redis.url, 'gf-errors');
    await driver.pendingCount('errors-test');
  });

  afterAll(async () => {
    if (!redis.running) await redis.start();
    // The queue's producer connection refuses commands until it is back (no offline queue).
    await expectEventually(() => driver.pendingCount('errors-test'), {
      timeoutMs: 10_000,
      intervalMs: 100,
    }).catch(() => undefined);
    await client?.close();
    await server?.close();
    await driver?.close();
    await redis?.stop();
    jest.restoreAllMocks();
  });

  it('should log each connection through pino, rate-limited, while Redis is down', async () => {
    // Errors as the connections see them, counted beside the logger's lines.
    const seen = new Map<string, number>();
    const count = (name: string) => () => seen.set(name, (seen.get(name) ?? 0) + 1);
    server.unwrap<{ on(e: 'error', f: () => void): void }>().on('error', count('transport-writer'));
    client.unwrap<{ on(e: 'error', f: () => void): void }>().on('error', count('transport-client-pub'));

    const downAt = Date.now();
    await redis.stop();
    await expectEventually(
      () => {
        for (const name of ['transport-writer', 'transport-client-pub'])
          expect(seen.get(name) ?? 0).toBeGreaterThanOrEqual(5);
        const connections = new Set(
          lines.filter((l) => l.msg === 'redis connection error').map((l) => l.connection),
        );
        for (const name of [
          'transport-reader',
          'transport-writer',
          'transport-client-pub',
          'transport-client-sub',
          'queue:errors-test',
        ]) {
          expect(connections).toContain(name);
        }
      },
      { timeoutMs: 20_000, intervalMs: 100 },
    );
    const elapsed = Date.now() - downAt;
    const errorLines = lines.filter((l) => l.msg === 'redis connection error');
    console.log(
      `redis outage of ${elapsed} ms: ${[...seen].map(([n, c]) => `${n} ${c} errors`).join(', ')}; ${errorLines.length} log lines in all`,
    );

    // Rate-limited: at most one line per connection per interval, however many errors there were.
    const allowed = 1 + Math.floor(elapsed / REDIS_ERROR_LOG_INTERVAL_MS);
    for (const name of new Set(errorLines.map((l) => l.connection))) {
      expect(errorLines.filter((l) => l.connection === name).length).toBeLessThanOrEqual(allowed);
    }
    for (const [name, n] of seen)
      expect(errorLines.filter((l) => l.connection === name).length).toBeLessThan(n);
    // Claims and heartbeats that fail for the outage are not reported one by one.
    expect(lines.filter((l) => l.task !== undefined)).toEqual([]);
    // Nothing escaped to stderr as an unhandled error event.
    expect(unhandled).toEqual([]);

    // Back: each failing connection says so once it is ready again.
    await redis.start();
    await expectEventually(
      () => {
        const restored = new Set(
          lines.filter((l) => l.msg === 'redis connection restored').map((l) => l.connection),
        );
        for (const name of [
          'transport-reader',
          'transport-writer',
          'transport-client-pub',
          'transport-client-sub',
        ])
          expect(restored).toContain(name);
      },
      { timeoutMs: 20_000, intervalMs: 100 },
    );
  });
});
