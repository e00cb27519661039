// Clones of a repository pushed through gitforge (after its housekeeping ran) against `git
// http-backend` serving the same history, housekept the way git's own maintenance leaves it, in the
// same run: full, shallow (--depth 1) and blob-less (--filter=blob:none) clones. Reports the wall
// ratio (reference time / gitforge time: above 1 means gitforge is faster) and the server CPU
// ratio (gitforge's processes / the reference server's, children included: below 1 means cheaper).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { api, ADMIN, repoRoot, startLayout } from './lib/layout.mjs';
import { generateRepo, git, gitEnv } from './lib/git-repo.mjs';

const FIXTURE = { commits: 20_000, files: 3_000 };
const ROUNDS = 5;
// Each round times a batch of clones: CPU is read in 10 ms ticks per process, and a shallow clone
// costs a few ticks, so one clone's CPU summed over seven processes was mostly rounding.
const KINDS = [
  { name: 'full', args: [], batch: 2 },
  { name: '--depth 1', args: ['--depth', '1'], batch: 8 },
  { name: '--filter=blob:none', args: ['--filter=blob:none'], batch: 3 },
];
const TICKS = 100; // USER_HZ on Linux

function run(args, home) {
  return new Promise((ok, fail) => {
    const child = spawn('git', args, { env: gitEnv(home), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b) => (stderr += b));
    child.on('close', (code) =>
      code === 0 ? ok(stderr) : fail(new Error(`git ${args.join(' ')}: ${stderr}`)),
    );
  });
}

/** CPU seconds of a process and of its children it has waited for (git upload-pack, pack-objects). */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime are fields 14..17 (1-based), i.e. 11..14 after the command name.
    return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / TICKS;
  } catch {
    return 0;
  }
}
const totalCpu = (pids) => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/**
 * Wall seconds and server CPU per clone over a batch of `count` clones into `dir`-0, -1, … (read
 * after the servers reaped their git children), each clone's directory removed after it.
 */
async function measure(args, dir, count, home, pids) {
  const cpu0 = pids.map(cpuSeconds);
  let wall = 0;
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint();
    await run([...args, `${dir}-${i}`], home);
    wall += Number(process.hrtime.bigint() - started) / 1e9;
    rmSync(`${dir}-${i}`, { recursive: true, force: true });
  }
  let cpu = totalCpu(pids);
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const again = totalCpu(pids);
    if (again === cpu && i >= 3) break;
    cpu = again;
  }
  const each = pids.map((pid, i) => (cpuSeconds(pid) - cpu0[i]) / count);
  return { wall: wall / count, cpu: each.reduce((a, b) => a + b, 0), each };
}

async function startReference(root, home) {
  const child = spawn(process.execPath, [join(repoRoot, 'bench', 'lib', 'http-backend-server.mjs'), root], {
    env: gitEnv(home),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((ok, fail) => {
    child.stdout.once('data', (b) => ok(Number(String(b).trim())));
    child.once('exit', (code) => fail(new Error(`reference server exited ${code}`)));
  });
  return { pid: child.pid, url: `http://127.0.0.1:${port}/fixture.git`, stop: () => child.kill('SIGTERM') };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function () {
  const work = join(repoRoot, 'bench', '.work', `clone-${process.pid}`);
  const home = join(work, 'home');
  mkdirSync(home, { recursive: true });
  const root = join(work, 'reference');
  const fixture = join(root, 'fixture.git');
  let t = Date.now();
  await generateRepo(fixture, { ...FIXTURE, home });
  // The reference is housekept as git's own maintenance leaves a server repository: one pack with a
  // bitmap, a commit graph; and it allows the filters and wants partial clones use.
  git(['-C', fixture, 'repack', '-a', '-d', '-q', '--write-bitmap-index'], { home });
  git(['-C', fixture, 'commit-graph', 'write', '--reachable'], { home });
  git(['-C', fixture, 'config', 'uploadpack.allowFilter', 'true'], { home });
  git(['-C', fixture, 'config', 'uploadpack.allowAnySHA1InWant', 'true'], { home });
  const generated = (Date.now() - t) / 1000;

  const layout = await startLayout('distributed');
  const reference = await startReference(root, home);
  try {
    const repo = await api(layout, 'POST', '/user/repos', { name: 'clone-bench' });
    const pushUrl = `http://${ADMIN.username}:${ADMIN.password}@localhost:${new URL(layout.rootUrl).port}/${ADMIN.username}/clone-bench.git`;
    t = Date.now();
    await run(['-C', fixture, 'push', '--quiet', pushUrl, 'main'], home);
    const pushed = (Date.now() - t) / 1000;
    // Housekeeping runs in the background after the push; its last step writes the commit graph.
    const serverDir = join(layout.dataDir, 'repositories', `${repo.id}.git`);
    t = Date.now();
    while (!existsSync(join(serverDir, 'objects', 'info', 'commit-graph'))) {
      if (Date.now() - t > 600_000) throw new Error('housekeeping did not finish within 10 minutes');
      await new Promise((r) => setTimeout(r, 200));
    }
    const housekept = (Date.now() - t) / 1000;
    const packs = readdirSync(join(serverDir, 'objects', 'pack'));

    // Every gitforge process counts (the gateway, repo-service and the services they ask, idle ones too).
    const gfNames = Object.keys(layout.pids);
    const gfPids = Object.values(layout.pids);
    const cloneUrl = `${layout.rootUrl}${ADMIN.username}/clone-bench.git`;
    const rows = [];
    for (const kind of KINDS) {
      const ref = [];
      const gf = [];
      for (let round = 0; round < ROUNDS; round++) {
        ref.push(await measure(['clone', '--quiet', '--bare', ...kind.args, reference.url], join(work, `ref-${round}`), kind.batch, home, [reference.pid]));
        gf.push(await measure(['clone', '--quiet', '--bare', ...kind.args, cloneUrl], join(work, `gf-${round}`), kind.batch, home, gfPids));
      }
      rows.push({
        kind: kind.name,
        refWall: median(ref.map((r) => r.wall)),
        gfWall: median(gf.map((r) => r.wall)),
        refCpu: median(ref.map((r) => r.cpu)),
        gfCpu: median(gf.map((r) => r.cpu)),
        // The processes a clone goes through (the gateway, repo-service and its git children), without the others' idle work.
        gfPathCpu: median(
          gf.map((r) => r.each[gfNames.indexOf('gateway-0')] + r.each[gfNames.indexOf('repo-0')]),
        ),
        // Where gitforge's CPU went, summed over the rounds.
        split: gfNames.map((n, i) => `${n} ${sum(gf.map((r) => r.each[i])).toFixed(2)}`).join(', '),
      });
    }

    console.log(
      `fixture ${FIXTURE.commits} commits / ${FIXTURE.files} files (generated in ${generated.toFixed(1)} s); push through gitforge ${pushed.toFixed(1)} s; ` +
        `housekeeping done ${housekept.toFixed(1)} s after the push (${packs.filter((f) => f.endsWith('.pack')).length} pack, bitmap: ${packs.some((f) => f.endsWith('.bitmap'))})`,
    );
    console.log(
      `bare clones, distributed layout, median of ${ROUNDS} rounds (wall and CPU per clone, averaged over each round's batch of clones); reference: git http-backend behind node:http on a housekept copy`,
    );
    console.log(
      'clone                 ref wall s  gitforge wall s  wall ratio (>= 0.9)  ref CPU s  gitforge CPU s  CPU ratio (<= 1.5)',
    );
    for (const r of rows) {
      console.log(
        [
          r.kind.padEnd(20),
          r.refWall.toFixed(2).padStart(11),
          r.gfWall.toFixed(2).padStart(16),
          `${(r.refWall / r.gfWall).toFixed(2)}x`.padStart(20),
          r.refCpu.toFixed(2).padStart(10),
          r.gfCpu.toFixed(2).padStart(15),
          `${(r.gfCpu / Math.max(r.refCpu, 0.01)).toFixed(2)}x`.padStart(18),
        ].join(' '),
      );
    }
    for (const r of rows) {
      const ratio = (r.gfPathCpu / Math.max(r.refCpu, 0.01)).toFixed(2);
      console.log(
        `${r.kind}: CPU of the clone's path only (gateway + repo-service with its git children): ${r.gfPathCpu.toFixed(2)} s, ratio ${ratio}x`,
      );
    }
    for (const r of rows)
      console.log(
        `gitforge CPU s per clone by process, summed over ${ROUNDS} rounds, ${r.kind} (children included): ${r.split}`,
      );
  } finally {
    reference.stop();
    await layout.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
