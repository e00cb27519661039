import type { CreateHookOption, Repository } from '@gitforge/contracts';
import { HookReceiver } from './support/hook-receiver.js';
import { Api, createUser, uniqueName, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';

const TOKEN = 'e2e-metrics-token';

/** The value of one series in a Prometheus exposition (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.lastIndexOf('}'));
    const have = inside.split(/,(?=\w+=")/);
    if (want.every((w) => have.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

async function scrape(url: string): Promise<string> {
  const res = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** Polls `read` until `accept` holds or the deadline passes; answers the last value. */
async function eventually<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!accept(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

describe.each(layoutsUnderTest())('metrics (%s layout)', (kind) => {
  let layout: Layout;
  let alice: TestUser;
  let repo: Repository;
  let receiver: HookReceiver;

  beforeAll(async () => {
    layout = await Layout.start(kind, {
      env: { GITFORGE_METRICS_TOKEN: TOKEN, GITFORGE_WEBHOOK_ALLOW_LOOPBACK: '1' },
    });
    alice = await createUser(new Api(layout), 'metrics');
    receiver = await HookReceiver.start();
    repo = (
      await alice.api.post<Repository>('/user/repos', { name: uniqueName('measured'), auto_init: true })
    ).body;
  });

  afterAll(async () => {
    await receiver?.close();
    await layout?.stop();
  });

  /** Where a service's series are: its own listener in the distributed layout, the one endpoint in the embedded one. */
  const serviceMetricsUrl = (app: 'repo' | 'webhook' | 'org'): string =>
    kind === 'distributed' ? layout.metricsUrl(app) : layout.rootUrl.replace(/\/$/, '');
  const gatewayUrl = (): string => layout.rootUrl.replace(/\/$/, '');

  it("should answer /metrics only with the token (401 without it or with another), as Gitea's", async () => {
    expect((await fetch(`${gatewayUrl()}/metrics`)).status).toBe(401);
    expect(
      (await fetch(`${gatewayUrl()}/metrics`, { headers: { Authorization: 'Bearer wrong' } })).status,
    ).toBe(401);
    expect(
      (await fetch(`${gatewayUrl()}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status,
    ).toBe(200);
  });

  it('should count a request under its route template and status, with its duration', async () => {
    const labels = { method: 'GET', route: '/api/v1/repos/:owner/:repo', status: '200' };
    const before = await scrape(gatewayUrl());
    expect((await alice.api.get(`/repos/${repo.full_name}`)).status).toBe(200);
    const after = await scrape(gatewayUrl());
    expect(sample(after, 'gitforge_http_requests_total', labels)).toBe(
      sample(before, 'gitforge_http_requests_total', labels) + 1,
    );
    expect(sample(after, 'gitforge_http_request_duration_seconds_count', labels)).toBe(
      sample(before, 'gitforge_http_request_duration_seconds_count', labels) + 1,
    );
    // A 404 is counted under its route too, and a path no route matches under one label, not its path.
    expect((await alice.api.get(`/repos/${alice.username}/no-such-repo`)).status).toBe(404);
    expect((await fetch(`${gatewayUrl()}/api/v1/${uniqueName('nowhere')}`)).status).toBe(404);
    const later = await scrape(gatewayUrl());
    expect(
      sample(later, 'gitforge_http_requests_total', { ...labels, status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(later, 'gitforge_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(later).not.toMatch(/no-such-repo|nowhere/);
  });

  it('should count transport calls by pattern and outcome on both ends, and the process series', async () => {
    const text = await scrape(gatewayUrl());
    expect(
      sample(text, 'gitforge_transport_calls_total', { pattern: 'repos.get', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'gitforge_transport_calls_total', { pattern: 'repos.get', outcome: 'not_found' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    const repoSide = await scrape(serviceMetricsUrl('repo'));
    expect(
      sample(repoSide, 'gitforge_transport_handled_total', { pattern: 'repos.get', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(repoSide, 'gitforge_transport_handle_duration_seconds_count', {
        pattern: 'repos.get',
        outcome: 'ok',
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('should count git operations by kind, and the queues by depth and job outcome', async () => {
    const repoSide = await scrape(serviceMetricsUrl('repo'));
    // auto_init: `git init`, then the first commit written with plumbing.
    expect(
      sample(repoSide, 'gitforge_git_operations_total', { kind: 'init', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(repoSide, 'gitforge_git_operations_total', { kind: 'commit-tree', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(repoSide, 'gitforge_git_operation_duration_seconds_count', { kind: 'init', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    expect(repoSide).toMatch(/^gitforge_queue_depth\{queue="[^"]+"\} \d+/m);
  });

  it('should count webhook deliveries by outcome where the worker runs', async () => {
    const hook = await alice.api.post(`/repos/${repo.full_name}/hooks`, {
      type: 'gitea',
      config: { url: receiver.url('/measured'), content_type: 'json' },
      events: ['issues'],
      active: true,
    } satisfies CreateHookOption);
    expect(hook.status).toBe(201);
    const before = sample(await scrape(serviceMetricsUrl('webhook')), 'gitforge_webhook_deliveries_total', {
      outcome: 'success',
    });
    expect((await alice.api.post(`/repos/${repo.full_name}/issues`, { title: 'measured' })).status).toBe(201);
    await receiver.waitFor('/measured');
    const after = await eventually(
      async () => scrape(serviceMetricsUrl('webhook')),
      (text) => sample(text, 'gitforge_webhook_deliveries_total', { outcome: 'success' }) > before,
    );
    expect(sample(after, 'gitforge_webhook_deliveries_total', { outcome: 'success' })).toBe(before + 1);
    expect(after).toMatch(/^gitforge_queue_jobs_total\{queue="[^"]+",outcome="completed"\} [1-9]/m);
  });

  if (kind === 'distributed') {
    it("should serve each service's health and metrics on its own port", async () => {
      for (const app of ['org', 'repo', 'issue', 'admin', 'webhook'] as const) {
        const url = layout.metricsUrl(app);
        expect((await fetch(`${url}/healthz`)).status).toBe(200);
        expect(await (await fetch(`${url}/readyz`)).json()).toEqual({
          status: 'pass',
          service: `${app}-service`,
        });
        expect((await fetch(`${url}/metrics`)).status).toBe(401);
        expect(await scrape(url)).toMatch(
          new RegExp(
            `^gitforge_transport_handled_total\\{pattern="${app}\\.health",outcome="ok"\\} [1-9]`,
            'm',
          ),
        );
      }
    });
  }
});

describe('metrics turned off', () => {
  it('should answer 404 at /metrics with GITFORGE_METRICS_ENABLED=false', async () => {
    const layout = await Layout.start('embedded', { env: { GITFORGE_METRICS_ENABLED: 'false' } });
    try {
      expect((await fetch(`${layout.rootUrl}metrics`)).status).toBe(404);
    } finally {
      await layout.stop();
    }
  });
});
