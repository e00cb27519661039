// Clone throughput through the gateway (distributed layout) against `git clone --no-local` from the
// file system, which is the limit set by git upload-pack itself, and the peak memory of the gateway
// and repo-service while they stream the pack, for two sizes of repository.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { api, ADMIN, repoRoot, rssKiB, startLayout } from './lib/layout.mjs';
import { generateRepo, gitEnv } from './lib/git-repo.mjs';

const SIZES = [
  { commits: 20_000, files: 3_000 },
  { commits: 40_000, files: 6_000 },
];
const ROUNDS = 5;

function run(args, home) {
  return new Promise((ok, fail) => {
    const child = spawn('git', args, { env: gitEnv(home), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b) => (stderr += b));
    child.on('close', (code) => (code === 0 ? ok() : fail(new Error(`git ${args.join(' ')}: ${stderr}`))));
  });
}

/** Wall time of one clone, and the highest RSS of the watched processes while it ran. */
async function timedClone(args, home, pids) {
  const peak = Object.fromEntries(Object.keys(pids).map((k) => [k, 0]));
  const sample = () => {
    for (const [k, pid] of Object.entries(pids)) peak[k] = Math.max(peak[k], rssKiB(pid));
  };
  const timer = setInterval(sample, 20);
  const started = process.hrtime.bigint();
  await run(args, home);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  clearInterval(timer);
  sample();
  return { ms, peak };
}

function packBytes(bareDir) {
  const dir = join(bareDir, 'objects', 'pack');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.pack'))
    .reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);

export default async function () {
  const work = join(repoRoot, 'bench', '.work', `git-clone-${process.pid}`);
  const home = join(work, 'home');
  mkdirSync(home, { recursive: true });
  const layout = await startLayout('distributed');
  try {
    const pids = { gateway: layout.pids['gateway-0'], 'repo-service': layout.pids['repo-0'] };
    const idle = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, rssKiB(pid)]));
    const rows = [];
    for (const size of SIZES) {
      const name = `bench-${size.commits}`;
      const source = join(work, `${name}.git`);
      let t = Date.now();
      await generateRepo(source, { ...size, home });
      const generated = (Date.now() - t) / 1000;
      const repo = await api(layout, 'POST', '/user/repos', { name });
      const pushUrl = `http://${ADMIN.username}:${ADMIN.password}@localhost:${new URL(layout.rootUrl).port}/${ADMIN.username}/${name}.git`;
      t = Date.now();
      await run(['-C', source, 'push', '--quiet', pushUrl, 'main'], home);
      const pushed = (Date.now() - t) / 1000;
      const serverDir = join(layout.dataDir, 'repositories', `${repo.id}.git`);
      const cloneUrl = `${layout.rootUrl}${ADMIN.username}/${name}.git`;

      const fs = [];
      const gw = [];
      const peaks = { gateway: 0, 'repo-service': 0 };
      let bytes = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const a = join(work, `fs-${name}-${round}`);
        fs.push((await timedClone(['clone', '--quiet', '--bare', '--no-local', serverDir, a], home, {})).ms);
        bytes = packBytes(a);
        rmSync(a, { recursive: true, force: true });
        const b = join(work, `gw-${name}-${round}`);
        const r = await timedClone(['clone', '--quiet', '--bare', cloneUrl, b], home, pids);
        gw.push(r.ms);
        for (const k of Object.keys(peaks)) peaks[k] = Math.max(peaks[k], r.peak[k]);
        rmSync(b, { recursive: true, force: true });
      }
      const fsMs = median(fs);
      const gwMs = median(gw);
      rows.push({ ...size, generated, pushed, bytes, fsMs, gwMs, peaks });
      rmSync(source, { recursive: true, force: true });
    }

    console.log(`git clone, distributed layout, median of ${ROUNDS} (bare clones; pack as received)`);
    console.log('commits  files  pack MB  push s  fs clone s  fs MB/s  gateway clone s  gateway MB/s  ratio  peak RSS gateway / repo-service MiB');
    for (const r of rows) {
      const fsRate = r.bytes / 1024 / 1024 / (r.fsMs / 1000);
      const gwRate = r.bytes / 1024 / 1024 / (r.gwMs / 1000);
      console.log(
        [
          String(r.commits).padStart(7),
          String(r.files).padStart(6),
          mb(r.bytes).padStart(8),
          r.pushed.toFixed(1).padStart(7),
          (r.fsMs / 1000).toFixed(2).padStart(11),
          fsRate.toFixed(1).padStart(8),
          (r.gwMs / 1000).toFixed(2).padStart(16),
          gwRate.toFixed(1).padStart(13),
          `${(r.fsMs / r.gwMs).toFixed(2)}x`.padStart(6),
          `  ${(r.peaks.gateway / 1024).toFixed(0)} / ${(r.peaks['repo-service'] / 1024).toFixed(0)}`,
        ].join(' '),
      );
    }
    console.log(
      `idle RSS before cloning: gateway ${(idle.gateway / 1024).toFixed(0)} MiB, repo-service ${(idle['repo-service'] / 1024).toFixed(0)} MiB; target ratio >= 0.80x`,
    );
  } finally {
    await layout.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
