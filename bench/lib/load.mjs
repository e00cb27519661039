// A small closed-loop HTTP load generator: `concurrency` connections, each sending the next
// request when the previous answer arrives, for `seconds`. Reports requests/s and latency percentiles.
import http from 'node:http';

export async function load({ url, headers = {}, concurrency = 32, seconds = 10, warmupSeconds = 2 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const once = () =>
    new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = http.request(
        { hostname: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, headers, agent },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  const run = async (duration, record) => {
    const until = Date.now() + duration * 1000;
    const latencies = [];
    let errors = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < until) {
          const r = await once().catch(() => ({ status: 0, ms: 0 }));
          if (r.status !== 200) errors += 1;
          else if (record) latencies.push(r.ms);
        }
      }),
    );
    return { latencies, errors };
  };
  await run(warmupSeconds, false);
  const started = Date.now();
  const { latencies, errors } = await run(seconds, true);
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return { rps: latencies.length / elapsed, p50: pct(50), p99: pct(99), errors, count: latencies.length };
}

export function table(rows, columns) {
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  console.log(line(columns));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(columns.map((c) => r[c])));
}
