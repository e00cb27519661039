import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beginDrain, isDraining } from '../bootstrap/shutdown.js';
import { loadConfig, PlatformConfig } from '../config/config.js';
import { httpRequests, queueDepth, trackQueueDepth, untrackQueueDepth } from './metrics.js';
import { closeOpsListener, metricsResponse, startOpsListener } from './ops-listener.js';

const config = (env: Record<string, string> = {}): PlatformConfig =>
  loadConfig(PlatformConfig, { GITFORGE_METRICS_PORT: '0', GITFORGE_METRICS_HOST: '127.0.0.1', ...env });

describe(metricsResponse.name, () => {
  it('should answer the exposition, with what was recorded', async () => {
    httpRequests.inc({ method: 'GET', route: '/api/v1/spec', status: '200' });
    const answer = await metricsResponse(config(), undefined);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(answer.body).toMatch(
      /^gitforge_http_requests_total\{method="GET",route="\/api\/v1\/spec",status="200"\} 1$/m,
    );
    expect(answer.body).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it("should want the bearer token when one is set, as Gitea's [metrics] TOKEN", async () => {
    const withToken = config({ GITFORGE_METRICS_TOKEN: 's3cret' });
    expect((await metricsResponse(withToken, undefined)).status).toBe(401);
    expect((await metricsResponse(withToken, 'Bearer wrong')).status).toBe(401);
    expect((await metricsResponse(withToken, 's3cret')).status).toBe(401);
    expect((await metricsResponse(withToken, 'Bearer s3cret')).status).toBe(200);
    // Compared in constant time over digests: any length or character is refused, never thrown on.
    expect((await metricsResponse(withToken, 'Bearer s3cret-and-more')).status).toBe(401);
    expect((await metricsResponse(withToken, 'Bearer s3crét')).status).toBe(401);
    expect((await metricsResponse(withToken, '')).status).toBe(401);
  });

  it('should answer 404 when metrics are turned off', async () => {
    expect((await metricsResponse(config({ GITFORGE_METRICS_ENABLED: 'false' }), undefined)).status).toBe(
      404,
    );
  });

  it('should report the depth of the queues a driver consumes, read at scrape time, until it closes', async () => {
    let pending = 3;
    const driver = { pendingCount: async (queue: string) => (queue === 'spec-queue' ? pending : 0) };
    trackQueueDepth('spec-queue', driver);
    expect((await queueDepth.get()).values).toContainEqual(
      expect.objectContaining({ labels: { queue: 'spec-queue' }, value: 3 }),
    );
    pending = 5;
    expect((await queueDepth.get()).values).toContainEqual(
      expect.objectContaining({ labels: { queue: 'spec-queue' }, value: 5 }),
    );
    untrackQueueDepth(driver);
    expect((await queueDepth.get()).values.filter((v) => v.labels.queue === 'spec-queue')).toEqual([]);
  });
});

describe(startOpsListener.name, () => {
  let server: Server | undefined;
  let ready = true;
  const url = (path: string): string => `http://127.0.0.1:${(server!.address() as AddressInfo).port}${path}`;

  beforeAll(async () => {
    server = await startOpsListener(config(), 'spec-service', async () => ready);
  });

  afterAll(async () => {
    await closeOpsListener(server);
  });

  it('should open nothing without GITFORGE_METRICS_PORT', async () => {
    expect(await startOpsListener(loadConfig(PlatformConfig, {}), 'none', async () => true)).toBeUndefined();
  });

  it('should serve /metrics, /healthz and /readyz, and 404 elsewhere', async () => {
    expect((await fetch(url('/metrics'))).status).toBe(200);
    expect(await (await fetch(url('/healthz'))).json()).toEqual({ status: 'pass', service: 'spec-service' });
    expect(await (await fetch(url('/readyz'))).json()).toEqual({ status: 'pass', service: 'spec-service' });
    expect((await fetch(url('/elsewhere'))).status).toBe(404);
    expect((await fetch(url('/metrics'), { method: 'POST' })).status).toBe(405);
  });

  it('should turn unready when its check fails, and when the process drains, while staying alive', async () => {
    ready = false;
    expect((await fetch(url('/readyz'))).status).toBe(503);
    ready = true;
    expect((await fetch(url('/readyz'))).status).toBe(200);
    beginDrain();
    expect(isDraining()).toBe(true);
    expect(await (await fetch(url('/readyz'))).json()).toEqual({
      status: 'fail',
      service: 'spec-service',
      reason: 'shutting down',
    });
    expect((await fetch(url('/healthz'))).status).toBe(200);
    expect((await fetch(url('/metrics'))).status).toBe(200);
  });
});
