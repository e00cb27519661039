// Issue 18, target 4: resident memory. The embedded process at rest, then every process of both
// layouts under the API read load of api.bench.mjs (GET /api/v1/repos/{o}/{r} with a token), sampled
// over BENCH_MEMORY_SECONDS (600 by default) in six slices, each reported by its peak (sampled
// every second): growth shows as a higher peak in the second half.
import { api, rssKiB, startLayout } from './lib/layout.mjs';
import { load, table } from './lib/load.mjs';

const SECONDS = Number(process.env.BENCH_MEMORY_SECONDS ?? 600);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
/** Load before the slices, unreported: the first minute is start-up's (code compiled, caches filled, V8's one memory-reducer pass that starts before a process tunes its heap). */
const WARMUP_SECONDS = Number(process.env.BENCH_MEMORY_WARMUP_SECONDS ?? 60);
const SLICES = 6;
const mib = (kib) => (kib / 1024).toFixed(0);
const growth = (samples) => {
  const half = Math.floor(samples.length / 2);
  const first = Math.max(...samples.slice(0, half));
  return `${(((Math.max(...samples.slice(half)) - first) / first) * 100).toFixed(1)}%`;
};

async function prepare(layout) {
  await api(layout, 'POST', '/admin/users', { username: 'benchuser', email: 'bu@example.com', password: 'bench-user-pw', must_change_password: false });
  const token = (await api(layout, 'POST', '/users/benchuser/tokens', { name: 'bench', scopes: ['read:repository'] }, { basic: ['benchuser', 'bench-user-pw'] })).sha1;
  await api(layout, 'POST', '/user/repos', { name: 'target', auto_init: true, private: true }, { basic: ['benchuser', 'bench-user-pw'] });
  return token;
}

const sample = (layout) => Object.fromEntries(Object.entries(layout.pids).map(([name, pid]) => [name, rssKiB(pid)]));

async function measure(kind) {
  const layout = await startLayout(kind);
  try {
    const token = await prepare(layout);
    // At rest: started, one repository made, a few seconds to settle.
    await new Promise((r) => setTimeout(r, 5000));
    const rest = sample(layout);
    const target = { url: `${layout.apiUrl}/repos/benchuser/target`, headers: { authorization: `token ${token}` }, concurrency: CONCURRENCY };
    await load({ ...target, seconds: WARMUP_SECONDS, warmupSeconds: 0 });
    const slices = [];
    for (let i = 0; i < SLICES; i++) {
      // Each slice's peak, sampled every second: a single sample per slice lands anywhere on the
      // collector's saw-tooth and reads as growth or shrinkage that is neither.
      const peak = sample(layout);
      const sampler = setInterval(() => {
        for (const [name, kib] of Object.entries(sample(layout))) peak[name] = Math.max(peak[name], kib);
      }, 1000);
      const r = await load({ ...target, seconds: SECONDS / SLICES, warmupSeconds: 0 }).finally(() => clearInterval(sampler));
      slices.push({ rss: peak, rps: r.rps, errors: r.errors });
    }
    return { rest, slices };
  } finally {
    await layout.stop();
  }
}

export default async function () {
  console.log(`RSS at rest and under ${CONCURRENCY} connections of GET /api/v1/repos/{owner}/{repo} for ${SECONDS} s after ${WARMUP_SECONDS} s unreported, peak of each of ${SLICES} slices (MiB)`);
  const kinds = (process.env.BENCH_LAYOUTS ?? 'embedded,distributed').split(',').map((k) => k.trim());
  const unknown = kinds.filter((k) => k !== 'embedded' && k !== 'distributed');
  if (unknown.length > 0) throw new Error(`BENCH_LAYOUTS: unknown layout ${unknown.join(', ')} (embedded, distributed)`);
  for (const kind of kinds) {
    const { rest, slices } = await measure(kind);
    const rows = Object.keys(rest).map((name) => ({
      process: `${kind} ${name}`,
      rest: mib(rest[name]),
      ...Object.fromEntries(slices.map((s, i) => [`t${i + 1}`, mib(s.rss[name])])),
      // The peak of the second half against that of the first: the heap's saw-tooth is not growth.
      'growth (peak, 2nd half vs 1st)': growth(slices.map((s) => s.rss[name])),
    }));
    table(rows, ['process', 'rest', ...slices.map((_, i) => `t${i + 1}`), 'growth (peak, 2nd half vs 1st)']);
    console.log(`${kind}: ${slices.map((s) => `${s.rps.toFixed(0)} req/s`).join(', ')}; errors ${slices.reduce((n, s) => n + s.errors, 0)}`);
  }
}
