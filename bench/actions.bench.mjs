// Issue 15: what idle runners cost. act_runner polls FetchTask every 2 s per runner; with its
// tasks_version current the answer is "nothing new" after one version read. Measured in the
// embedded and distributed layouts, each next to GET /api/v1/version (no database, no service
// call: the gateway's cheapest answer) and GET /repos/{o}/{r} (one call to repo-service) in the same run, and next to FetchTask with an outdated
// version (the full search for a matching job, among 200 queued jobs no runner label fits).
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { RunnerService } from '../apps/gateway/dist/actions/gen/runner/v1/services_pb.js';
import { api, startLayout } from './lib/layout.mjs';
import { load, table } from './lib/load.mjs';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const QUEUED = Number(process.env.BENCH_QUEUED_JOBS ?? 200);

/** Closed-loop calls of `fn` from `CONCURRENCY` callers for SECONDS (after a 2 s warm-up). */
async function loop(fn) {
  const run = async (seconds, record) => {
    const until = Date.now() + seconds * 1000;
    const latencies = [];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (Date.now() < until) {
          const started = process.hrtime.bigint();
          await fn();
          if (record) latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
        }
      }),
    );
    return latencies;
  };
  await run(2, false);
  const latencies = (await run(SECONDS, true)).sort((a, b) => a - b);
  return {
    rps: latencies.length / SECONDS,
    p50: latencies[Math.floor(latencies.length / 2)],
    p99: latencies[Math.floor(latencies.length * 0.99)],
  };
}

async function measure(kind) {
  const layout = await startLayout(kind);
  try {
    await api(layout, 'POST', '/admin/users', {
      username: 'benchci',
      email: 'ci@example.com',
      password: 'bench-user-pw',
      must_change_password: false,
    });
    const auth = { basic: ['benchci', 'bench-user-pw'] };
    const repo = await api(layout, 'POST', '/user/repos', { name: 'ci', auto_init: true }, auth);
    const { token } = await api(
      layout,
      'POST',
      `/repos/${repo.full_name}/actions/runners/registration-token`,
      undefined,
      auth,
    );
    const transport = createConnectTransport({ baseUrl: `${layout.rootUrl}api/actions`, httpVersion: '1.1' });
    const { runner } = await createClient(RunnerService, transport).register({
      name: 'bench',
      token,
      version: 'bench',
      labels: ['linux'],
    });
    const client = createClient(
      RunnerService,
      createConnectTransport({
        baseUrl: `${layout.rootUrl}api/actions`,
        httpVersion: '1.1',
        interceptors: [
          (next) => (req) => (
            req.header.set('x-runner-uuid', runner.uuid),
            req.header.set('x-runner-token', runner.token),
            next(req)
          ),
        ],
      }),
    );
    // Jobs this runner cannot take: the full search reads them all and matches none.
    const jobs = Array.from({ length: QUEUED }, (_, i) => `  j${i}:\n    runs-on: gpu\n`).join('');
    await api(
      layout,
      'POST',
      `/repos/${repo.full_name}/contents/.gitea/workflows/load.yml`,
      {
        message: 'queue jobs',
        content: Buffer.from(`on: push\njobs:\n${jobs}`).toString('base64'),
      },
      auth,
    );
    for (const until = Date.now() + 60_000; ;) {
      const runs = await api(layout, 'GET', `/repos/${repo.full_name}/actions/runs`, undefined, auth);
      if (runs.total_count > 0) break;
      if (Date.now() > until) throw new Error('no run was created');
      await new Promise((r) => setTimeout(r, 200));
    }
    const { tasksVersion } = await client.fetchTask({ tasksVersion: 0n });
    const version = await load({
      url: `${layout.apiUrl}/version`,
      concurrency: CONCURRENCY,
      seconds: SECONDS,
    });
    const repoGet = await load({
      url: `${layout.apiUrl}/repos/${repo.full_name}`,
      concurrency: CONCURRENCY,
      seconds: SECONDS,
    });
    const idle = await loop(() => client.fetchTask({ tasksVersion }));
    const search = await loop(() => client.fetchTask({ tasksVersion: 0n }));
    return { version, repoGet, idle, search };
  } finally {
    await layout.stop();
  }
}

export default async function main() {
  for (const kind of ['embedded', 'distributed']) {
    const { version, repoGet, idle, search } = await measure(kind);
    console.log(`\n${kind} layout, ${CONCURRENCY} concurrent callers, ${SECONDS} s each`);
    const row = (name, r) => ({
      call: name,
      'req/s': r.rps.toFixed(0),
      'p50 ms': r.p50.toFixed(2),
      'p99 ms': r.p99.toFixed(2),
      'vs reference': (r.rps / version.rps).toFixed(2),
    });
    table(
      [
        row('GET /api/v1/version (reference)', version),
        row('GET /api/v1/repos/{o}/{r} (one service call)', repoGet),
        row('FetchTask, tasks_version current', idle),
        row(`FetchTask, full search (${QUEUED} queued)`, search),
      ],
      ['call', 'req/s', 'p50 ms', 'p99 ms', 'vs reference'],
    );
  }
}
