import 'reflect-metadata';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { ContractError, definePatterns, type RpcRequest } from '@gitforge/contracts';
import {
  CONSUMER_GROUP,
  directoryWritesKey,
  ensureGroup,
  InProcessClient,
  InProcessServer,
  livenessKey,
  RedisStreamsClient,
  RedisStreamsServer,
  RequestContexts,
  requestStream,
  RpcClient,
  RpcErrorFilter,
} from '@gitforge/platform';
import { dropRedisNamespace, expectEventually, requireRedis, testRedisUrl, uniqueSuffix } from '@gitforge/platform/testing';

const P = definePatterns('admin', {
  echo: 'transport-test.echo',
  fail: 'transport-test.fail',
  crash: 'transport-test.crash',
  slow: 'transport-test.slow',
  count: 'transport-test.count',
  slowCount: 'transport-test.slow-count',
  epoch: 'transport-test.epoch',
});

/** Counts handled requests per replica, so a test can see each request ran exactly once. */
const handled = new Map<string, string[]>();

function createModule(replica: string) {
  @Controller()
  class TestController {
    @MessagePattern(P.echo)
    echo(@Payload() req: RpcRequest<Record<string, string>, { n: number }>) {
      return { n: req.body.n, requestId: req.requestId };
    }

    @MessagePattern(P.fail)
    fail(): never {
      throw new ContractError('not_found', 'nothing here');
    }

    @MessagePattern(P.crash)
    crash(): never {
      throw new Error('a bug');
    }

    @MessagePattern(P.slow)
    async slow(@Payload() req: RpcRequest<Record<string, string>, { ms: number }>) {
      await new Promise((r) => setTimeout(r, req.body.ms));
      return 'done';
    }

    @MessagePattern(P.slowCount)
    async slowCount(@Payload() req: RpcRequest<Record<string, string>, { id: string; ms: number }>) {
      handled.set(req.body.id, [...(handled.get(req.body.id) ?? []), replica]);
      await new Promise((r) => setTimeout(r, req.body.ms));
      return replica;
    }

    @MessagePattern(P.epoch)
    epoch() {
      return { epoch: RequestContexts.current()?.directoryEpoch };
    }

    @MessagePattern(P.count)
    async count(@Payload() req: RpcRequest<Record<string, string>, { id: string }>) {
      await new Promise((r) => setTimeout(r, 2));
      handled.set(req.body.id, [...(handled.get(req.body.id) ?? []), replica]);
      return replica;
    }
  }
  @Module({ controllers: [TestController] })
  class TestModule {}
  return TestModule;
}

async function startReplica(
  namespace: string,
  name: string,
  timing: { claimIdleMs: number; livenessTtlMs?: number } = { claimIdleMs: 1500 },
): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice(createModule(name), {
    strategy: new RedisStreamsServer({ url: testRedisUrl(), namespace, service: 'admin', consumer: name, concurrency: 16, ...timing }),
    logger: false,
  });
  app.useGlobalFilters(new RpcErrorFilter());
  await app.listen();
  return app;
}

const call = (client: RpcClient, pattern: string, body: unknown, timeoutMs?: number) =>
  client.call(pattern, { actor: null, body }, timeoutMs ? { timeoutMs } : undefined);

describe('Redis Streams transport', () => {
  const namespace = `gftest-${uniqueSuffix()}`;
  let replicas: INestMicroservice[] = [];
  let proxy: RedisStreamsClient;
  let client: RpcClient;

  beforeAll(async () => {
    await requireRedis();
    replicas = [await startReplica(namespace, 'a'), await startReplica(namespace, 'b')];
    proxy = new RedisStreamsClient(testRedisUrl(), namespace, 5000);
    client = new RpcClient(proxy);
  });

  afterAll(async () => {
    await proxy.close();
    for (const r of replicas) await r.close();
    await dropRedisNamespace(namespace);
  });

  it('should carry a request to a handler and its reply back, with the request id', async () => {
    await expect(call(client, P.echo, { n: 42 })).resolves.toMatchObject({ n: 42, requestId: expect.any(String) });
  });

  it('should deliver a ContractError as that error', async () => {
    const err = await call(client, P.fail, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContractError);
    expect(err).toMatchObject({ code: 'not_found', message: 'nothing here' });
  });

  it('should turn an unexpected error into internal without its message', async () => {
    await expect(call(client, P.crash, {})).rejects.toMatchObject({ code: 'internal', message: '' });
  });

  it('should answer deadline_exceeded when the handler is too slow', async () => {
    await expect(call(client, P.slow, { ms: 1500 }, 300)).rejects.toMatchObject({ code: 'deadline_exceeded' });
  });

  it('should answer deadline_exceeded when no replica of the service listens', async () => {
    const otherProxy = new RedisStreamsClient(testRedisUrl(), `${namespace}-empty`, 5000);
    try {
      await expect(call(new RpcClient(otherProxy), P.echo, { n: 1 }, 400)).rejects.toMatchObject({ code: 'deadline_exceeded' });
    } finally {
      await otherProxy.close();
    }
  });

  it("should give each request the directory's version as it was once the request was read, and none while a write is under way", async () => {
    // The replicas are blocked reading their stream, with the version they read before this one.
    await new Promise((r) => setTimeout(r, 100));
    await proxy.directoryWriteStarts();
    expect(await proxy.directoryEpoch()).toBeNull();
    await expect(call(client, P.epoch, {})).resolves.toEqual({ epoch: null });
    await proxy.directoryWriteEnds();
    const current = await proxy.directoryEpoch();
    expect(current).toEqual(expect.any(String));
    await expect(call(client, P.epoch, {})).resolves.toEqual({ epoch: current });
    // One more write: a new version, and no count of writes left behind.
    await proxy.directoryWriteStarts();
    await proxy.directoryWriteEnds();
    const next = await proxy.directoryEpoch();
    expect(next).toEqual(expect.any(String));
    expect(next).not.toBe(current);
    await expect(call(client, P.epoch, {})).resolves.toEqual({ epoch: next });
  });

  it('should never count writes below zero once a count has expired under a write', async () => {
    await proxy.directoryWriteStarts();
    const raw = new Redis(testRedisUrl());
    try {
      await raw.del(directoryWritesKey(namespace));
      await proxy.directoryWriteEnds();
      expect(await raw.get(directoryWritesKey(namespace))).toBeNull();
      await proxy.directoryWriteStarts();
      expect(await proxy.directoryEpoch()).toBeNull();
      await proxy.directoryWriteEnds();
      expect(await proxy.directoryEpoch()).toEqual(expect.any(String));
    } finally {
      raw.disconnect();
    }
  });

  it('should have each request taken by exactly one replica, spread over both', async () => {
    const ids = Array.from({ length: 300 }, (_, i) => `req-${i}`);
    const answers = await Promise.all(ids.map((id) => call(client, P.count, { id })));
    expect(answers).toHaveLength(ids.length);
    for (const id of ids) expect(handled.get(id)).toHaveLength(1);
    const byReplica = new Set(ids.map((id) => handled.get(id)![0]));
    expect(byReplica).toEqual(new Set(['a', 'b']));
  });

  it('should serve requests sent before any replica started', async () => {
    const ns = `${namespace}-late`;
    const early = new RedisStreamsClient(testRedisUrl(), ns, 10_000);
    const pending = call(new RpcClient(early), P.echo, { n: 7 });
    await new Promise((r) => setTimeout(r, 300));
    const late = await startReplica(ns, 'late');
    try {
      await expect(pending).resolves.toMatchObject({ n: 7 });
    } finally {
      await late.close();
      await early.close();
      await dropRedisNamespace(ns);
    }
  });
});

describe('Redis Streams transport, Redis gone', () => {
  /** A TCP hop to Redis that can swallow what passes, then drop its connections and refuse new ones. */
  function cuttableHop(): Promise<{ url: string; blackhole(): void; cut(): void; close(): Promise<void> }> {
    let mode: 'pass' | 'blackhole' | 'down' = 'pass';
    const sockets = new Set<Socket>();
    const target = new URL(testRedisUrl());
    const server = createServer((c) => {
      if (mode === 'down') return void c.destroy();
      const up = connect(Number(target.port || 6379), target.hostname);
      for (const s of [c, up]) {
        sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => sockets.delete(s));
      }
      c.on('data', (d) => mode === 'pass' && up.write(d));
      up.on('data', (d) => mode === 'pass' && c.write(d));
      c.on('close', () => up.destroy());
      up.on('close', () => c.destroy());
    });
    return new Promise((resolve) =>
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        resolve({
          url: `redis://127.0.0.1:${port}`,
          blackhole: () => void (mode = 'blackhole'),
          cut: () => {
            mode = 'down';
            for (const s of sockets) s.destroy();
          },
          close: () => new Promise((r) => server.close(() => r())),
        });
      }),
    );
  }

  it('should answer unavailable, not wait for its deadline, while Redis cannot be reached (also after a request was cut off in flight)', async () => {
    await requireRedis();
    const hop = await cuttableHop();
    const proxy = new RedisStreamsClient(hop.url, `gftest-${uniqueSuffix()}`, 5000);
    const client = new RpcClient(proxy);
    try {
      await proxy.connect();
      hop.blackhole();
      // Sent, never answered: the connection then drops under it.
      const inFlight = call(client, P.echo, { n: 1 }, 3000).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 100));
      hop.cut();
      await expectEventually(() => expect(proxy.unwrap<Redis>().status).not.toBe('ready'));
      await expect(call(client, P.echo, { n: 2 }, 3000)).rejects.toMatchObject({ code: 'unavailable' });
      await inFlight;
    } finally {
      await proxy.close();
      await hop.close();
    }
  });
});

describe('Redis Streams transport, takeover', () => {
  // The idle-time fallback is set far beyond the client's deadline: only liveness can hand a request over here.
  const timing = { claimIdleMs: 120_000, livenessTtlMs: 1000 };
  const namespaces: string[] = [];
  const closers: Array<() => Promise<unknown>> = [];

  beforeAll(() => requireRedis());

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    for (const ns of namespaces) await dropRedisNamespace(ns);
  });

  function freshNamespace(): string {
    const ns = `gftest-${uniqueSuffix()}`;
    namespaces.push(ns);
    return ns;
  }

  it('should claim the request of a replica that died (its liveness key expired) long before the idle fallback', async () => {
    const ns = freshNamespace();
    const proxy = new RedisStreamsClient(testRedisUrl(), ns, 30_000);
    closers.push(() => proxy.close());
    const raw = new Redis(testRedisUrl());
    closers.push(() => raw.quit());
    const stream = requestStream(ns, 'admin');
    await ensureGroup(raw, stream);

    // A replica named "ghost" announces itself, reads the request and dies: it never answers nor refreshes anything.
    await raw.set(livenessKey(ns, 'admin', 'ghost'), '1', 'PX', timing.livenessTtlMs);
    const id = `dead-${uniqueSuffix()}`;
    const answer = call(new RpcClient(proxy), P.slowCount, { id, ms: 1 }, 15_000);
    const taken = await (async () => {
      for (let i = 0; i < 200; i++) {
        const res = (await raw.xreadgroup('GROUP', CONSUMER_GROUP, 'ghost', 'COUNT', 1, 'BLOCK', 100, 'STREAMS', stream, '>')) as unknown[] | null;
        if (res) return Date.now();
      }
      throw new Error('the request never reached the stream');
    })();

    const survivor = await startReplica(ns, 'survivor', timing);
    closers.push(() => survivor.close());
    await expect(answer).resolves.toBe('survivor');
    console.log(`takeover of a dead replica's request: answered ${Date.now() - taken} ms after the replica took it`);
    expect(handled.get(id)).toEqual(['survivor']);
  });

  it('should leave a slow request with the live replica running it, however long it takes', async () => {
    const ns = freshNamespace();
    const busy = await startReplica(ns, 'busy', timing);
    closers.push(() => busy.close());
    const proxy = new RedisStreamsClient(testRedisUrl(), ns, 30_000);
    closers.push(() => proxy.close());
    const id = `busy-${uniqueSuffix()}`;
    const answer = call(new RpcClient(proxy), P.slowCount, { id, ms: 4000 }, 30_000);
    await expectEventually(() => expect(handled.get(id)).toEqual(['busy']));
    // Another replica joins while the request runs for four liveness periods; it must not take it.
    const other = await startReplica(ns, 'other', timing);
    closers.push(() => other.close());
    await expect(answer).resolves.toBe('busy');
    expect(handled.get(id)).toEqual(['busy']);
  });
});

describe('in-process transport', () => {
  let app: INestMicroservice;
  let client: RpcClient;

  beforeAll(async () => {
    app = await NestFactory.createMicroservice(createModule('local'), { strategy: new InProcessServer('admin'), logger: false });
    app.useGlobalFilters(new RpcErrorFilter());
    await app.listen();
    client = new RpcClient(new InProcessClient(2000));
  });

  afterAll(() => app.close());

  it('should call the same handlers, with JSON-copied data', async () => {
    await expect(call(client, P.echo, { n: 5 })).resolves.toMatchObject({ n: 5 });
  });

  it('should keep one directory version for the process, unknown while a write is under way and new after it', async () => {
    const before = await client.directoryEpoch();
    const writer = new InProcessClient(2000);
    await writer.directoryWriteStarts();
    expect(await client.directoryEpoch()).toBeNull();
    await writer.directoryWriteEnds();
    expect(await client.directoryEpoch()).toEqual(expect.any(String));
    expect(await client.directoryEpoch()).not.toBe(before);
  });

  it('should deliver errors and timeouts as with Redis', async () => {
    await expect(call(client, P.fail, {})).rejects.toMatchObject({ code: 'not_found' });
    await expect(call(client, P.crash, {})).rejects.toMatchObject({ code: 'internal' });
    await expect(call(client, P.slow, { ms: 800 }, 200)).rejects.toMatchObject({ code: 'deadline_exceeded' });
  });
});
