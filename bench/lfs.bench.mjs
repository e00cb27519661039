// Git LFS throughput through the gateway (distributed layout): `git push` of a commit holding one
// 100 MiB LFS object (batch, upload, verify) and a fresh clone's `git lfs pull` of it, against a
// plain HTTP upload and download of the same bytes through the same gateway (a release asset:
// streamed to repo-service and into the same BlobStore). Also the peak RSS of the gateway and
// repo-service, which must stay flat in the object's size.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { api, ADMIN, repoRoot, rssKiB, startLayout } from './lib/layout.mjs';
import { gitEnv } from './lib/git-repo.mjs';

// BENCH_LFS_MIB: the object's size (100 MiB by default); a run at another size shows whether peak RSS follows it.
const SIZE = Number(process.env.BENCH_LFS_MIB ?? 100) * 1024 * 1024;
const ROUNDS = 3;

function run(args, home, cwd, extraEnv = {}) {
  return new Promise((ok, fail) => {
    const child = spawn('git', args, { cwd, env: { ...gitEnv(home), ...extraEnv }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b) => (stderr += b));
    child.on('close', (code) => (code === 0 ? ok() : fail(new Error(`git ${args.join(' ')}: ${stderr}`))));
  });
}

/** Wall time of `fn`, and the highest RSS of the watched processes while it ran. */
async function timed(fn, pids) {
  const peak = Object.fromEntries(Object.keys(pids).map((k) => [k, 0]));
  const sample = () => {
    for (const [k, pid] of Object.entries(pids)) peak[k] = Math.max(peak[k], rssKiB(pid));
  };
  const timer = setInterval(sample, 20);
  const started = process.hrtime.bigint();
  await fn();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  clearInterval(timer);
  sample();
  return { ms, peak };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rate = (ms) => SIZE / 1024 / 1024 / (ms / 1000);

export default async function () {
  const work = join(repoRoot, 'bench', '.work', `lfs-${process.pid}`);
  const home = join(work, 'home');
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.com\n[init]\n\tdefaultBranch = main\n');
  await run(['lfs', 'install', '--skip-repo'], home, work);
  const layout = await startLayout('distributed');
  try {
    const pids = { gateway: layout.pids['gateway-0'], 'repo-service': layout.pids['repo-0'] };
    const idle = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, rssKiB(pid)]));
    const port = new URL(layout.rootUrl).port;
    const auth = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;
    await api(layout, 'POST', '/user/repos', { name: 'lfs-bench', auto_init: true });
    const remote = `http://${ADMIN.username}:${ADMIN.password}@localhost:${port}/${ADMIN.username}/lfs-bench.git`;
    const release = await api(layout, 'POST', `/repos/${ADMIN.username}/lfs-bench/releases`, { tag_name: 'v1', name: 'v1' });
    const wc = join(work, 'wc');
    await run(['clone', '--quiet', remote, wc], home, work);
    await run(['lfs', 'track', '*.bin'], home, wc);

    const rows = { 'HTTP upload': [], 'LFS push': [], 'HTTP download': [], 'LFS pull': [] };
    const peaks = Object.fromEntries(Object.keys(rows).map((k) => [k, { gateway: 0, 'repo-service': 0 }]));
    const record = (name, r) => {
      rows[name].push(r.ms);
      for (const k of Object.keys(pids)) peaks[name][k] = Math.max(peaks[name][k], r.peak[k]);
    };
    for (let round = 0; round < ROUNDS; round++) {
      // New bytes each round (an object the server has is not uploaded again).
      const file = join(wc, `object-${round}.bin`);
      writeFileSync(file, randomBytes(SIZE));
      const assetName = `object-${round}.bin`;
      record(
        'HTTP upload',
        await timed(async () => {
          const res = await fetch(`${layout.rootUrl}api/v1/repos/${ADMIN.username}/lfs-bench/releases/${release.id}/assets?name=${assetName}`, {
            method: 'POST',
            headers: { Authorization: auth, 'Content-Type': 'application/octet-stream', 'Content-Length': String(SIZE) },
            body: Readable.toWeb(createReadStream(file)),
            duplex: 'half',
          });
          if (res.status !== 201) throw new Error(`asset upload: ${res.status} ${await res.text()}`);
        }, pids),
      );
      await run(['add', '--all'], home, wc);
      await run(['commit', '--quiet', '-m', `object ${round}`], home, wc);
      record('LFS push', await timed(() => run(['push', '--quiet', 'origin', 'main'], home, wc), pids));

      const sink = join(work, `download-${round}.bin`);
      record(
        'HTTP download',
        await timed(async () => {
          const res = await fetch(`${layout.rootUrl}${ADMIN.username}/lfs-bench/releases/download/v1/${assetName}`, { headers: { Authorization: auth } });
          if (res.status !== 200) throw new Error(`asset download: ${res.status}`);
          await pipeline(Readable.fromWeb(res.body), createWriteStream(sink));
        }, pids),
      );
      rmSync(sink, { force: true });
      const fresh = join(work, `clone-${round}`);
      await run(['clone', '--quiet', remote, fresh], home, work, { GIT_LFS_SKIP_SMUDGE: '1' });
      // Only this round's object: the pull then moves the same bytes as the download.
      record('LFS pull', await timed(() => run(['lfs', 'pull', '--include', `object-${round}.bin`], home, fresh), pids));
      rmSync(fresh, { recursive: true, force: true });
    }

    console.log(`Git LFS, distributed layout, one ${SIZE / 1024 / 1024} MiB object, median of ${ROUNDS}`);
    console.log('operation       seconds   MiB/s   ratio to plain HTTP   peak RSS gateway / repo-service MiB');
    const line = (name, ref) => {
      const ms = median(rows[name]);
      const ratio = ref ? `${(median(rows[ref]) / ms).toFixed(2)}x` : '(reference)';
      console.log(
        `${name.padEnd(14)} ${(ms / 1000).toFixed(2).padStart(8)} ${rate(ms).toFixed(1).padStart(7)}   ${ratio.padStart(19)}   ${(peaks[name].gateway / 1024).toFixed(0)} / ${(peaks[name]['repo-service'] / 1024).toFixed(0)}`,
      );
    };
    line('HTTP upload');
    line('LFS push', 'HTTP upload');
    line('HTTP download');
    line('LFS pull', 'HTTP download');
    console.log(
      `idle RSS: gateway ${(idle.gateway / 1024).toFixed(0)} MiB, repo-service ${(idle['repo-service'] / 1024).toFixed(0)} MiB; target ratio >= 0.50x, peak RSS flat in the object's size`,
    );
  } finally {
    await layout.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
