// Issue 5: repository content reads on a large history.
//
// A repository of 20,000 commits is generated with `git fast-import` straight into the data
// directory of a repository created through the API. `big/` holds 1,000 files whose last changes
// are spread evenly over the whole history (one of them untouched since the root commit), so the
// last-commit metadata of that directory needs the full history. Every commit also edits one of
// 100 files in `other/`.
//
// 1. `contents-ext/big?includes=commit_metadata`: cold (first request for a commit: one history
//    walk for all entries) and warm (answered from the per-(commit, path) cache), against the naive
//    reference of one `git log -1 -- big/<file>` per entry. Target: ≥ 20× faster cold, < 20 ms warm.
// 2. `compare/base...head` for refs 1,000 commits apart (JSON: every commit with its files and
//    stats), against `git diff --stat base...head` of the same refs. Target: ≤ 1.5×. Also shown:
//    against `git log --raw --numstat` of the range, the per-commit git work that JSON needs.
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { api, startLayout } from './lib/layout.mjs';

const COMMITS = Number(process.env.BENCH_COMMITS ?? 20_000);
const BIG_FILES = 1000;
const OTHER_FILES = 100;
const LINES = 40;
const COMPARE_DISTANCE = 1000;
const WARM_RUNS = 20;
/** Requests before the warm measurement, so it sees the steady state (JIT, caches) rather than start-up. */
const WARMUP_RUNS = 10;
const COLD_RUNS = 5;
const COMPARE_RUNS = 5;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(1)} ms`;

function git(gitDir, args) {
  return new Promise((resolve, reject) => {
    execFile('git', args, { env: { PATH: process.env.PATH, GIT_DIR: gitDir, GIT_CONFIG_NOSYSTEM: '1', HOME: gitDir }, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`git ${args[0]}: ${stderr || err.message}`)) : resolve(stdout),
    );
  });
}

async function timed(fn) {
  const started = process.hrtime.bigint();
  const value = await fn();
  return { value, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

/** Streams the generated history into `git fast-import` (replacing the repository's main). */
async function generate(gitDir) {
  const child = spawn('git', ['fast-import', '--quiet', '--force'], {
    env: { PATH: process.env.PATH, GIT_DIR: gitDir, GIT_CONFIG_NOSYSTEM: '1', HOME: gitDir },
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  const done = new Promise((resolve, reject) => child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`fast-import exited ${code}`)))));
  const files = new Map();
  const name = (dir, i) => `${dir}/f${String(i).padStart(4, '0')}.txt`;
  for (let i = 0; i < BIG_FILES; i++) files.set(name('big', i), Array.from({ length: LINES }, (_, l) => `big ${i} line ${l}`));
  for (let i = 0; i < OTHER_FILES; i++) files.set(name('other', i), Array.from({ length: LINES }, (_, l) => `other ${i} line ${l}`));
  let chunk = [];
  let pending = 0;
  const flush = async () => {
    if (!child.stdin.write(chunk.join(''))) await new Promise((r) => child.stdin.once('drain', r));
    chunk = [];
    pending = 0;
  };
  const data = (text) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const modify = (path) => `M 100644 inline ${path}\n${data(`${files.get(path).join('\n')}\n`)}`;
  for (let k = 0; k < COMMITS; k++) {
    const touched = [];
    if (k === 0) touched.push(...files.keys());
    else {
      touched.push(name('other', k % OTHER_FILES));
      // big/f0001… are last changed at commits 20, 40, … ; big/f0000 only in the root commit.
      if (k % 20 === 0 && (k / 20) % BIG_FILES !== 0) touched.push(name('big', (k / 20) % BIG_FILES));
      for (const path of touched) files.get(path)[k % LINES] = `edit ${k}`;
    }
    chunk.push(`commit refs/heads/main\ncommitter Bench <bench@example.com> ${1_600_000_000 + k * 60} +0000\n${data(`commit ${k}`)}`);
    for (const path of touched) chunk.push(modify(path));
    chunk.push('\n');
    if (++pending >= 200) await flush();
  }
  await flush();
  child.stdin.end();
  await done;
}

async function measureLayout(kind, generated) {
  const layout = await startLayout(kind);
  try {
    const repo = await api(layout, 'POST', '/user/repos', { name: 'big-history', auto_init: true });
    const gitDir = join(layout.dataDir, 'repositories', `${repo.id}.git`);
    const gen = await timed(() => generate(gitDir));
    await git(gitDir, ['update-ref', 'refs/heads/bench-base', `main~${COMPARE_DISTANCE}`]);
    const path = `/repos/${repo.full_name}/contents-ext/big?includes=commit_metadata`;

    // Cold: a commit nobody asked about yet has nothing cached; one walk answers all 1,000 entries.
    const cold = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      const sha = (await git(gitDir, ['rev-parse', `main~${i}`])).trim();
      const r = await timed(() => api(layout, 'GET', `${path}&ref=${sha}`));
      if (r.value.dir_contents.length !== BIG_FILES || r.value.dir_contents.some((e) => !e.last_commit_sha)) throw new Error('incomplete listing');
      cold.push(r.ms);
    }
    for (let i = 0; i < WARMUP_RUNS; i++) await api(layout, 'GET', path);
    const warm = [];
    for (let i = 0; i < WARM_RUNS; i++) warm.push((await timed(() => api(layout, 'GET', path))).ms);

    const compareApi = [];
    let compared;
    for (let i = 0; i < COMPARE_RUNS; i++) {
      const r = await timed(() => api(layout, 'GET', `/repos/${repo.full_name}/compare/bench-base...main`));
      compared = r.value;
      compareApi.push(r.ms);
    }
    if (compared.total_commits !== COMPARE_DISTANCE) throw new Error(`compare answered ${compared.total_commits} commits`);
    const result = { kind, gen: gen.ms, cold: median(cold), coldAll: cold, warm: median(warm), compare: median(compareApi), gitDir };
    if (!generated.gitDir) {
      // References are measured once, on the first layout's repository, with the same git.
      generated.gitDir = gitDir;
      generated.reference = await referenceLastCommits(gitDir);
      generated.diffStat = await referenceDiffStat(gitDir);
      generated.logNumstat = await referenceLogNumstat(gitDir);
    }
    return result;
  } finally {
    await layout.stop();
  }
}

/** The naive way: one `git log -1 -- big/<file>` per entry, sequentially. */
async function referenceLastCommits(gitDir) {
  const names = (await git(gitDir, ['ls-tree', '--name-only', 'main', 'big/'])).trim().split('\n');
  const r = await timed(async () => {
    for (const n of names) await git(gitDir, ['log', '-1', '--format=%H %aI %cI', 'main', '--', n]);
  });
  return { total: r.ms, entries: names.length };
}

async function referenceDiffStat(gitDir) {
  const runs = [];
  for (let i = 0; i < COMPARE_RUNS; i++) runs.push((await timed(() => git(gitDir, ['diff', '--stat', 'bench-base...main']))).ms);
  return median(runs);
}

async function referenceLogNumstat(gitDir) {
  const runs = [];
  for (let i = 0; i < COMPARE_RUNS; i++) {
    runs.push((await timed(() => git(gitDir, ['log', '--raw', '--numstat', '--no-renames', 'bench-base..main']))).ms);
  }
  return median(runs);
}

export default async function () {
  console.log(`${COMMITS} commits, big/ with ${BIG_FILES} files (last changes spread over the whole history); compare over ${COMPARE_DISTANCE} commits`);
  const generated = {};
  const rows = [];
  for (const kind of ['embedded', 'distributed']) rows.push(await measureLayout(kind, generated));
  const ref = generated.reference;
  console.log(`generated with fast-import in ${ms(rows[0].gen)}`);
  console.log(`reference: git log -1 per entry, ${ref.entries} entries: ${ms(ref.total)}`);
  console.log(`reference: git diff --stat bench-base...main: ${ms(generated.diffStat)}; git log --raw --numstat bench-base..main: ${ms(generated.logNumstat)}`);
  console.table(
    rows.map((r) => ({
      layout: r.kind,
      'contents-ext cold (median)': ms(r.cold),
      'cold vs reference': `${(ref.total / r.cold).toFixed(1)}x faster`,
      'contents-ext warm (median)': ms(r.warm),
      'compare JSON (median)': ms(r.compare),
      'compare vs diff --stat': `${(r.compare / generated.diffStat).toFixed(2)}x`,
      'compare vs log --numstat': `${(r.compare / generated.logNumstat).toFixed(2)}x`,
    })),
  );
  console.log('cold runs:', rows.map((r) => `${r.kind}: ${r.coldAll.map((x) => x.toFixed(0)).join(', ')} ms`).join(' | '));
}
