// Webhook delivery throughput and latency, end to end in the distributed layout: API calls commit
// events (repository renames) → outbox → BullMQ → fan-out to hook tasks → delivery over HTTP to a
// local receiver. The reference is raw BullMQ no-op job throughput on the same Redis with the same
// worker concurrency, measured in the same run; the report gives the ratio, and the latency from
// each API call's commit (its response) to each delivery's arrival.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { api, startLayout } from './lib/layout.mjs';

const REDIS_URL = process.env.GITFORGE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CONCURRENCY = 16; // the worker's GITFORGE_WEBHOOK_CONCURRENCY
const HOOKS = Number(process.env.BENCH_WEBHOOK_HOOKS ?? 10);
const LANES = Number(process.env.BENCH_WEBHOOK_LANES ?? 8);
const CALLS_PER_LANE = Number(process.env.BENCH_WEBHOOK_CALLS ?? 40);
const RAW_JOBS = 5000;

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

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
  const started = performance.now();
  for (let i = 0; i < RAW_JOBS; i += 500) {
    await queue.addBulk(Array.from({ length: Math.min(500, RAW_JOBS - i) }, (_, j) => ({ name: 'e', data: { i: i + j }, opts: { jobId: `j${i + j}`, removeOnComplete: { count: 5000 } } })));
  }
  await finished;
  const seconds = (performance.now() - started) / 1000;
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  return RAW_JOBS / seconds;
}

async function endToEnd() {
  const received = [];
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
  const layout = await startLayout('distributed', { env: { GITFORGE_WEBHOOK_ALLOW_LOOPBACK: '1', GITFORGE_LOG_LEVEL: 'warn', ...JSON.parse(process.env.BENCH_WEBHOOK_ENV ?? '{}') } });
  try {
    for (let h = 0; h < HOOKS; h++) {
      await api(layout, 'POST', '/user/hooks', { type: 'gitea', config: { url, content_type: 'json' }, events: ['repository'], active: true });
    }
    const lanes = [];
    for (let l = 0; l < LANES; l++) lanes.push((await api(layout, 'POST', '/user/repos', { name: `bench-${l}-0` })).name);
    // Let the creation deliveries drain before measuring.
    const warm = LANES * HOOKS;
    while (received.length < warm) await new Promise((r) => setTimeout(r, 50));
    received.length = 0;

    const committedAt = new Map();
    const started = performance.now();
    await Promise.all(
      lanes.map(async (first, l) => {
        let name = first;
        for (let k = 1; k <= CALLS_PER_LANE; k++) {
          const next = `bench-${l}-${k}`;
          await api(layout, 'PATCH', `/repos/bench/${name}`, { name: next });
          committedAt.set(next, performance.now());
          name = next;
        }
      }),
    );
    const expected = LANES * CALLS_PER_LANE * HOOKS;
    const deadline = performance.now() + 120_000;
    while (received.length < expected && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const seconds = (received.at(-1).at - started) / 1000;
    const latencies = received
      .map((d) => d.at - committedAt.get(JSON.parse(d.body).repository.name))
      .filter((ms) => Number.isFinite(ms))
      .map((ms) => Math.max(0, ms))
      .sort((a, b) => a - b);
    return {
      deliveries: received.length,
      expected,
      perSecond: received.length / seconds,
      apiCallsPerSecond: (LANES * CALLS_PER_LANE) / ((Math.max(...committedAt.values()) - started) / 1000),
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
  console.log(`raw BullMQ no-op jobs (concurrency ${CONCURRENCY}, same Redis): ${raw.toFixed(0)} jobs/s`);
  console.log(
    `end-to-end deliveries: ${e2e.deliveries}/${e2e.expected} from ${LANES * CALLS_PER_LANE} renames × ${HOOKS} hooks ` +
      `(${LANES} concurrent callers, ${e2e.apiCallsPerSecond.toFixed(0)} API calls/s): ${e2e.perSecond.toFixed(0)} deliveries/s`,
  );
  console.log(`ratio end-to-end / raw: ${(e2e.perSecond / raw).toFixed(2)}× (target ≥ 0.5×)`);
  console.log(`latency commit → delivery: p50 ${e2e.p50.toFixed(1)} ms, p99 ${e2e.p99.toFixed(1)} ms`);
}
