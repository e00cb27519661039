// Webhook delivery throughput and latency in the distributed layout: API calls commit events
// (commit statuses: a light write whose event Gitea sends to `status` hooks) → outbox → BullMQ →
// fan-out to hook tasks → delivery over HTTP to a local receiver. The reference is raw BullMQ no-op job throughput on the same Redis with the worker's
// delivery concurrency, measured in the same run; the report gives ratios against it:
// - live: statuses reported by concurrent callers, deliveries/s from the first call to the last delivery,
//   and the latency from each call's commit (its response) to each of its deliveries;
// - backlog: the same reports made while the webhook worker is stopped (SIGSTOP), then the time
//   the worker takes to fan out and deliver them all once it continues — the pipeline on its own;
// - unloaded latency: one caller reporting a status every 100 ms, commit → delivery without a backlog.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { api, startLayout } from './lib/layout.mjs';

const REDIS_URL = process.env.GITFORGE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The worker's GITFORGE_WEBHOOK_CONCURRENCY (its default unless set), which the reference uses too. */
const CONCURRENCY = Number(process.env.BENCH_WEBHOOK_CONCURRENCY ?? 128);
const HOOKS = Number(process.env.BENCH_WEBHOOK_HOOKS ?? 10);
const LANES = Number(process.env.BENCH_WEBHOOK_LANES ?? 8);
const CALLS_PER_LANE = Number(process.env.BENCH_WEBHOOK_CALLS ?? 63);
/**
 * As many no-op jobs as the backlog has deliveries (5,040 by default), so both sides pay their
 * start once for the same amount of work: a 2,000-delivery backlog spent a quarter of its drain
 * filling the pipeline (the first fan-outs' hook queries and task inserts before any delivery).
 */
const RAW_JOBS = LANES * CALLS_PER_LANE * HOOKS;
const REPLICAS = Number(process.env.BENCH_WEBHOOK_REPLICAS ?? 1);

/**
 * CPU time (user + system, in clock ticks) of every process on the machine, by pid, with a label:
 * the layout's apps by pid, this process, Redis and PostgreSQL (all backends together).
 */
function cpuTicks(layout, ownBackends = new Set()) {
  const apps = new Map(Object.entries(layout.pids).map(([app, pid]) => [pid, app]));
  const out = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      const label = apps.get(pid) ?? (pid === process.pid ? 'bench (receiver)' : comm.startsWith('redis') ? 'redis (shared)' : ownBackends.has(pid) ? 'postgres (this run)' : comm.startsWith('postgres') ? 'postgres (others)' : null);
      if (label) out.set(pid, { label, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The PostgreSQL backends serving this run's database (other runs may share the server). */
async function ownBackends(layout) {
  const client = new pg.Client({ connectionString: layout.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    return new Set(rows.map((r) => Number(r.pid)));
  } finally {
    await client.end();
  }
}

/** CPU seconds spent per label between two {@link cpuTicks} snapshots (processes started between them count in full). */
function cpuBetween(before, after) {
  const byLabel = new Map();
  for (const [pid, a] of after) byLabel.set(a.label, (byLabel.get(a.label) ?? 0) + (a.ticks - (before.get(pid)?.ticks ?? 0)) / 100);
  return [...byLabel].filter(([, s]) => s > 0).sort((x, y) => y[1] - x[1]);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** CPU seconds per process while the raw jobs ran. */
let rawCpu = [];

/** BullMQ no-op jobs: added in bulk while one worker (CONCURRENCY) completes them. */
async function rawBullmq() {
  const prefix = `gfbench-raw-${randomBytes(4).toString('hex')}`;
  const connection = () => new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('noop', { connection: connection(), prefix });
  let done = 0;
  let finish;
  const finished = new Promise((resolve) => (finish = resolve));
  const worker = new Worker(
    'noop',
    async () => {
      if (++done === RAW_JOBS) finish();
    },
    { connection: connection(), prefix, concurrency: CONCURRENCY },
  );
  await worker.waitUntilReady();
  const cpuBefore = cpuTicks({ pids: {} });
  const started = performance.now();
  for (let i = 0; i < RAW_JOBS; i += 500) {
    const jobs = Array.from({ length: Math.min(500, RAW_JOBS - i) }, (_, j) => ({ name: 'e', data: { i: i + j }, opts: { jobId: `j${i + j}`, removeOnComplete: { count: 5000 } } }));
    await queue.addBulk(jobs);
  }
  await finished;
  const seconds = (performance.now() - started) / 1000;
  rawCpu = cpuBetween(cpuBefore, cpuTicks({ pids: {} }));
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  return RAW_JOBS / seconds;
}

/** Reports one status on a lane's head commit under a context unique to the call; answers when it committed. */
async function report(layout, lane, context) {
  await api(layout, 'POST', `/repos/bench/${lane.name}/statuses/${lane.sha}`, { state: 'success', context });
  return performance.now();
}

/** Reports CALLS_PER_LANE statuses per lane, lanes concurrently; answers context → commit time. */
async function reports(layout, lanes, round) {
  const committedAt = new Map();
  await Promise.all(
    lanes.map(async (lane) => {
      for (let k = 1; k <= CALLS_PER_LANE; k++) {
        const context = `${lane.name}-${round}-${k}`;
        committedAt.set(context, await report(layout, lane, context));
      }
    }),
  );
  return committedAt;
}

async function endToEnd() {
  let received = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ at: performance.now(), body: Buffer.concat(chunks).toString('utf8') });
      res.end('ok');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/hook`;
  const extraEnv = JSON.parse(process.env.BENCH_WEBHOOK_ENV ?? '{}');
  const layout = await startLayout('distributed', {
    env: { GITFORGE_WEBHOOK_ALLOW_LOOPBACK: '1', GITFORGE_LOG_LEVEL: 'warn', GITFORGE_WEBHOOK_CONCURRENCY: String(CONCURRENCY), ...extraEnv },
    replicas: { webhook: REPLICAS },
    // BENCH_NODE_ARGS (every bench) applies unless BENCH_WEBHOOK_NODE_ARGS (a JSON array) says otherwise.
    nodeArgs: process.env.BENCH_WEBHOOK_NODE_ARGS ? JSON.parse(process.env.BENCH_WEBHOOK_NODE_ARGS) : undefined,
  });
  const waitFor = async (n) => {
    const deadline = performance.now() + 180_000;
    while (received.length < n && performance.now() < deadline) await sleep(10);
    if (received.length < n) throw new Error(`only ${received.length} of ${n} deliveries arrived`);
  };
  try {
    for (let h = 0; h < HOOKS; h++) {
      await api(layout, 'POST', '/user/hooks', { type: 'gitea', config: { url, content_type: 'json' }, events: ['status'], active: true });
    }
    const lanes = [];
    for (let l = 0; l < LANES; l++) {
      const name = (await api(layout, 'POST', '/user/repos', { name: `bench-${l}`, auto_init: true })).name;
      lanes.push({ name, sha: (await api(layout, 'GET', `/repos/bench/${name}/branches/main`)).commit.id });
    }
    for (const lane of lanes) await report(layout, lane, `${lane.name}-warmup`);
    await waitFor(LANES * HOOKS); // one delivery per lane and hook: warms every process up
    const expected = LANES * CALLS_PER_LANE * HOOKS;

    received = [];
    const started = performance.now();
    const committedAt = await reports(layout, lanes, 'live');
    const apiSeconds = (performance.now() - started) / 1000;
    await waitFor(expected);
    const liveSeconds = (received.at(-1).at - started) / 1000;
    const latencies = received.map((d) => Math.max(0, d.at - committedAt.get(JSON.parse(d.body).context))).sort((a, b) => a - b);

    const workers = Array.from({ length: REPLICAS }, (_, i) => layout.pids[`webhook-${i}`]);
    for (const pid of workers) process.kill(pid, 'SIGSTOP');
    received = [];
    const backlogStarted = performance.now();
    await reports(layout, lanes, 'backlog');
    const backlogApiSeconds = (performance.now() - backlogStarted) / 1000;
    await sleep(2000); // the relay has queued the events
    const backends = await ownBackends(layout);
    const cpuBefore = cpuTicks(layout, backends);
    const resumed = performance.now();
    for (const pid of workers) process.kill(pid, 'SIGCONT');
    await waitFor(expected);
    const drainSeconds = (received.at(-1).at - resumed) / 1000;
    const drainArrivals = [0, 0.5].map((q) => (received[Math.floor(q * received.length)].at - resumed) / 1000);
    const drainCpu = cpuBetween(cpuBefore, cpuTicks(layout, backends));

    received = [];
    const paced = new Map();
    for (let k = 1; k <= 30; k++) {
      const context = `${lanes[0].name}-paced-${k}`;
      paced.set(context, await report(layout, lanes[0], context));
      await sleep(100);
    }
    await waitFor(30 * HOOKS);
    const unloaded = received.map((d) => Math.max(0, d.at - paced.get(JSON.parse(d.body).context))).sort((a, b) => a - b);

    return {
      unloadedP50: quantile(unloaded, 0.5),
      unloadedP99: quantile(unloaded, 0.99),
      expected,
      apiPerSecond: (LANES * CALLS_PER_LANE) / apiSeconds,
      livePerSecond: expected / liveSeconds,
      drainPerSecond: expected / drainSeconds,
      drainSeconds,
      drainArrivals,
      backlogApiPerSecond: (LANES * CALLS_PER_LANE) / backlogApiSeconds,
      drainCpu,
      p50: quantile(latencies, 0.5),
      p99: quantile(latencies, 0.99),
    };
  } finally {
    await layout.stop();
    server.closeAllConnections();
    server.close();
  }
}

export default async function () {
  const raw = await rawBullmq();
  const e2e = await endToEnd();
  const events = LANES * CALLS_PER_LANE;
  console.log(`raw BullMQ no-op jobs (concurrency ${CONCURRENCY}, same Redis): ${raw.toFixed(0)} jobs/s`);
  console.log(`  CPU seconds for ${RAW_JOBS} jobs: ${rawCpu.filter(([label]) => !label.startsWith('postgres')).map(([label, s]) => `${label.replace(' (receiver)', '')} ${s.toFixed(2)}`).join(', ')}`);
  console.log(`webhook worker replicas: ${REPLICAS} (concurrency ${CONCURRENCY} each)`);
  console.log(`live: ${events} status reports by ${LANES} concurrent callers (${e2e.apiPerSecond.toFixed(0)} API calls/s) × ${HOOKS} hooks = ${e2e.expected} deliveries`);
  // Live, the callers set the pace (the ratio is at most 1 by construction); the target is the latency below.
  console.log(`  ${e2e.livePerSecond.toFixed(0)} deliveries/s, first call to last delivery, for ${(e2e.apiPerSecond * HOOKS).toFixed(0)}/s caused by the calls`);
  console.log(`  latency commit → delivery: p50 ${e2e.p50.toFixed(1)} ms, p99 ${e2e.p99.toFixed(1)} ms`);
  console.log(`backlog: ${events} events queued while the worker was stopped (${e2e.backlogApiPerSecond.toFixed(0)} API calls/s), fanned out and delivered in one go`);
  console.log(`  ${e2e.drainPerSecond.toFixed(0)} deliveries/s = ${(e2e.drainPerSecond / raw).toFixed(2)}× raw (target ≥ 0.5×)`);
  console.log(`  first delivery after ${e2e.drainArrivals[0].toFixed(2)} s, half after ${e2e.drainArrivals[1].toFixed(2)} s, all after ${e2e.drainSeconds.toFixed(2)} s`);
  console.log(`  CPU seconds during the ${e2e.drainSeconds.toFixed(2)} s drain: ${e2e.drainCpu.map(([label, s]) => `${label} ${s.toFixed(2)}`).join(', ')}`);
  console.log(`unloaded latency commit → delivery (one status every 100 ms × ${HOOKS} hooks): p50 ${e2e.unloadedP50.toFixed(1)} ms, p99 ${e2e.unloadedP99.toFixed(1)} ms`);
}
