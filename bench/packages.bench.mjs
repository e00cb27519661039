// Issue 16: generic package upload and download through gitforge (distributed layout: client →
// gateway → repo-service's listener → BlobStore on disk) against a plain HTTP file copy of the
// same bytes in the same run (a Node server that streams a PUT body to a file and a file back on
// GET), and the peak memory of the gateway and repo-service while the bytes move, for 10 MiB and
// 50 MiB files: the memory must stay flat in the file size. Target: >= 0.5x the plain copy's throughput.
// Every timed transfer, on either side, starts on a quiet machine (`machineQuiet`): otherwise one
// side pays for what the last transfer left running, the kernel writing back the plain copy's
// unsynced file or the services handling the last upload's events.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { api, ADMIN, machineQuiet, repoRoot, rssKiB, startLayout } from './lib/layout.mjs';

const SIZES_MIB = [10, 50];
const ROUNDS = 9;
/** Unmeasured rounds of each size first, on both sides: the first transfers through the services run slower (JIT, heap and page-cache growth); about the fifth 10 MiB upload is as fast as the later ones. */
const WARM_ROUNDS = 5;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One HTTP request with a file as the body (PUT) or a file as the destination (GET); answers the status. */
function transfer(url, method, file, headers) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: method === 'PUT' ? { ...headers, 'content-length': String(statSync(file).size) } : headers }, (res) => {
      if (method === 'GET' && res.statusCode === 200) pipeline(res, createWriteStream(file)).then(() => resolve(res.statusCode), reject);
      else res.resume().on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    if (method === 'PUT') pipeline(createReadStream(file), req).catch(reject);
    else req.end();
  });
}

/** Transfers that began without the machine going quiet first (see `machineQuiet`): reported, since they may have shared the CPU with leftovers. */
let unquiet = 0;

/** Wall time of `fn`, started on a quiet machine, and the highest RSS of the watched processes while it ran. */
async function timed(fn, pids) {
  if (!(await machineQuiet())) unquiet++;
  const peak = Object.fromEntries(Object.keys(pids).map((k) => [k, 0]));
  const sample = () => {
    for (const [k, pid] of Object.entries(pids)) peak[k] = Math.max(peak[k], rssKiB(pid));
  };
  const timer = setInterval(sample, 10);
  try {
    const started = process.hrtime.bigint();
    const status = await fn();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    sample();
    return { ms, peak, status };
  } finally {
    clearInterval(timer);
  }
}

/** The reference: a plain HTTP server that stores a PUT body as a file and streams it back on GET. */
async function plainServer(dir) {
  const server = createServer((req, res) => {
    const file = join(dir, req.url.replace(/[^A-Za-z0-9.-]/g, '_'));
    if (req.method === 'PUT') {
      pipeline(req, createWriteStream(file)).then(
        () => res.writeHead(201).end(),
        () => res.writeHead(500).end(),
      );
    } else {
      res.writeHead(200, { 'content-length': String(statSync(file).size) });
      pipeline(createReadStream(file), res).catch(() => res.destroy());
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

export default async function () {
  const work = join(repoRoot, 'bench', '.work', `packages-${process.pid}`);
  mkdirSync(join(work, 'plain'), { recursive: true });
  const layout = await startLayout('distributed');
  const plain = await plainServer(join(work, 'plain'));
  try {
    const token = (await api(layout, 'POST', `/users/${ADMIN.username}/tokens`, { name: 'bench-packages', scopes: ['write:package'] })).sha1;
    const auth = { authorization: `token ${token}` };
    const pids = { gateway: layout.pids['gateway-0'], 'repo-service': layout.pids['repo-0'] };
    const idle = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, rssKiB(pid)]));
    const rows = [];
    for (const mib of SIZES_MIB) {
      const times = { plainUp: [], plainDown: [], gfUp: [], gfDown: [] };
      const peaks = { gateway: 0, 'repo-service': 0 };
      for (let n = 0; n < WARM_ROUNDS + ROUNDS; n++) {
        const measured = n >= WARM_ROUNDS;
        // Fresh bytes every round: identical ones would be stored once and skip nothing, but stay honest.
        const file = join(work, `in-${mib}-${n}.bin`);
        writeFileSync(file, randomBytes(mib * 1024 * 1024));
        const out = join(work, `out-${mib}-${n}.bin`);

        const plainUp = await timed(() => transfer(`${plain.url}/f-${mib}-${n}`, 'PUT', file, {}), {});
        const plainDown = await timed(() => transfer(`${plain.url}/f-${mib}-${n}`, 'GET', out, {}), {});
        rmSync(out, { force: true });

        const url = `${layout.rootUrl}api/packages/${ADMIN.username}/generic/bench/${mib}.0.${n}/file.bin`;
        const up = await timed(() => transfer(url, 'PUT', file, auth), pids);
        if (up.status !== 201) throw new Error(`upload answered ${up.status}`);
        const down = await timed(() => transfer(url, 'GET', out, auth), pids);
        if (down.status !== 200 || statSync(out).size !== statSync(file).size) throw new Error(`download answered ${down.status}`);
        if (measured) {
          times.plainUp.push(plainUp.ms);
          times.plainDown.push(plainDown.ms);
          times.gfUp.push(up.ms);
          times.gfDown.push(down.ms);
        }
        for (const k of Object.keys(peaks)) peaks[k] = Math.max(peaks[k], up.peak[k], down.peak[k]);
        rmSync(out, { force: true });
        rmSync(file, { force: true });
      }
      rows.push({ mib, ...Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])), peaks });
    }

    console.log(`generic package upload/download, distributed layout, median of ${ROUNDS} rounds after ${WARM_ROUNDS} unmeasured; reference: plain HTTP file copy of the same bytes`);
    console.log('size MiB  plain up MB/s  gitforge up MB/s  ratio  plain down MB/s  gitforge down MB/s  ratio  peak RSS gateway / repo-service MiB');
    for (const r of rows) {
      const rate = (ms) => r.mib / (ms / 1000);
      console.log(
        [
          String(r.mib).padStart(8),
          rate(r.plainUp).toFixed(0).padStart(14),
          rate(r.gfUp).toFixed(0).padStart(17),
          `${(r.plainUp / r.gfUp).toFixed(2)}x`.padStart(6),
          rate(r.plainDown).toFixed(0).padStart(16),
          rate(r.gfDown).toFixed(0).padStart(19),
          `${(r.plainDown / r.gfDown).toFixed(2)}x`.padStart(6),
          `  ${(r.peaks.gateway / 1024).toFixed(0)} / ${(r.peaks['repo-service'] / 1024).toFixed(0)}`,
        ].join(' '),
      );
    }
    console.log(
      `idle RSS before transfers: gateway ${(idle.gateway / 1024).toFixed(0)} MiB, repo-service ${(idle['repo-service'] / 1024).toFixed(0)} MiB; target ratio >= 0.50x, peak RSS flat in the file size`,
    );
    if (unquiet > 0) console.log(`${unquiet} transfers began without the machine going quiet within 5 s: the figures may be disturbed`);
  } finally {
    plain.server.close();
    await layout.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
