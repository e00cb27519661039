// Issue 18, target 2: file writes through the contents API.
//
// 16 writers, each on its own branch, each adding one new file per request with
// `POST /repos/{o}/{r}/contents/{path}` (so every branch's tree grows), against the reference: the
// same commits made with git plumbing run directly (hash-object, mktree, commit-tree, update-ref
// with the expected old value) in a bare repository, at the same concurrency, in the same run.
// The rate is reported per round of writes, to show whether it falls as the repository grows, and
// the git processes the server spawned per write (from its `gitforge_git_operations_total`; the
// long-lived cat-file and object-writer processes are counted when they start, not per request).
//
// BENCH_WRITES (default 10,000) and BENCH_ROUND (default 2,000) shorten it; BENCH_LAYOUTS
// (default "embedded") may name "embedded,distributed"; BENCH_CPU_PROF=<dir> writes the server
// processes' CPU profiles there.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, api, startLayout } from './lib/layout.mjs';

const WRITES = Number(process.env.BENCH_WRITES ?? 10_000);
const ROUND = Number(process.env.BENCH_ROUND ?? 2_000);
const WRITERS = 16;
const LAYOUTS = (process.env.BENCH_LAYOUTS ?? 'embedded').split(',').filter(Boolean);

const b64 = (s) => Buffer.from(s).toString('base64');
const now = () => Number(process.hrtime.bigint()) / 1e6;
const branchName = (w) => `writer-${String(w).padStart(2, '0')}`;
const fileName = (w, n) => `w${String(w).padStart(2, '0')}-${String(n).padStart(5, '0')}.txt`;
const content = (w, n) => `writer ${w} file ${n}\n`;

function git(gitDir, args, input, env = {}) {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      { env: { PATH: process.env.PATH, GIT_DIR: gitDir, GIT_CONFIG_NOSYSTEM: '1', HOME: gitDir, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => (err ? reject(new Error(`git ${args[0]}: ${stderr || err.message}`)) : resolve(stdout.trim())),
    );
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

/**
 * Runs `WRITES` writes over `WRITERS` loops (writer w does its n-th write as `write(w, n)`) and
 * answers the rate of each round of `ROUND` writes, in the order the rounds completed.
 */
async function drive(write) {
  let issued = 0;
  let done = 0;
  let roundStart = now();
  const rounds = [];
  const started = now();
  const perWriter = Array.from({ length: WRITERS }, () => 0);
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      for (let n = 0; ; n++) {
        if (issued >= WRITES) return;
        issued++;
        await write(w, n);
        perWriter[w]++;
        done++;
        if (done % ROUND === 0 || done === WRITES) {
          const t = now();
          const count = done % ROUND === 0 ? ROUND : done % ROUND;
          rounds.push((count * 1000) / (t - roundStart));
          roundStart = t;
        }
      }
    }),
  );
  return { rate: (WRITES * 1000) / (now() - started), rounds, perWriter };
}

/** The same commits with plumbing run directly: each writer keeps its branch's tree listing in memory. */
async function reference() {
  const dir = mkdtempSync(join(tmpdir(), 'gf-bench-writes-ref-'));
  const gitDir = join(dir, 'ref.git');
  try {
    await git(gitDir, ['init', '--bare', '--quiet', '--initial-branch=main', gitDir]);
    await git(gitDir, ['config', 'gc.auto', '0']);
    const ident = { GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.com' };
    const readme = await git(gitDir, ['hash-object', '-w', '--stdin'], '# writes\n');
    const rootTree = await git(gitDir, ['mktree'], `100644 blob ${readme}\tREADME.md\n`);
    const root = await git(gitDir, ['commit-tree', rootTree, '-m', 'Initial commit'], undefined, ident);
    const branches = [];
    for (let w = 0; w < WRITERS; w++) {
      await git(gitDir, ['update-ref', `refs/heads/${branchName(w)}`, root, '']);
      branches.push({ head: root, entries: [`100644 blob ${readme}\tREADME.md`] });
    }
    return await drive(async (w, n) => {
      const b = branches[w];
      const blob = await git(gitDir, ['hash-object', '-w', '--stdin'], content(w, n));
      const entries = [...b.entries, `100644 blob ${blob}\t${fileName(w, n)}`];
      const tree = await git(gitDir, ['mktree'], `${entries.join('\n')}\n`);
      const commit = await git(gitDir, ['commit-tree', tree, '-p', b.head], `Add ${fileName(w, n)}\n`, ident);
      await git(gitDir, ['update-ref', `refs/heads/${branchName(w)}`, commit, b.head]);
      b.head = commit;
      b.entries = entries;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Sum of the process's `gitforge_git_operations_total` (every kind and outcome), from the gateway's /metrics. */
async function gitProcesses(layout) {
  const text = await (await fetch(`${layout.rootUrl}metrics`)).text();
  let sum = 0;
  const kinds = {};
  for (const line of text.split('\n')) {
    const m = /^gitforge_git_operations_total\{([^}]*)\} (\d+)/.exec(line);
    if (!m) continue;
    sum += Number(m[2]);
    const kind = /kind="([^"]*)"/.exec(m[1])?.[1] ?? '?';
    kinds[kind] = (kinds[kind] ?? 0) + Number(m[2]);
  }
  return { sum, kinds };
}

async function throughApi(kind) {
  const prof = process.env.BENCH_CPU_PROF;
  const layout = await startLayout(kind, prof ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${prof}`] } : {});
  try {
    const repo = await api(layout, 'POST', '/user/repos', { name: 'writes', auto_init: true, default_branch: 'main' });
    for (let w = 0; w < WRITERS; w++) {
      await api(layout, 'POST', `/repos/${repo.full_name}/branches`, { new_branch_name: branchName(w), old_branch_name: 'main' });
    }
    const auth = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;
    // Only the embedded layout's gateway process runs the git work (and counts it).
    const before = kind === 'embedded' ? await gitProcesses(layout) : null;
    const result = await drive(async (w, n) => {
      const res = await fetch(`${layout.apiUrl}/repos/${repo.full_name}/contents/${fileName(w, n)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: auth },
        body: JSON.stringify({ content: b64(content(w, n)), branch: branchName(w), message: `Add ${fileName(w, n)}` }),
      });
      const text = await res.text();
      if (res.status !== 201) throw new Error(`write ${w}/${n}: ${res.status} ${text}`);
      const body = JSON.parse(text);
      if (body.content?.path !== fileName(w, n) || body.commit?.parents?.length !== 1) throw new Error(`write ${w}/${n}: unexpected answer ${text.slice(0, 300)}`);
    });
    if (before) {
      const after = await gitProcesses(layout);
      const kinds = Object.entries(after.kinds)
        .map(([k, v]) => [k, v - (before.kinds[k] ?? 0)])
        .filter(([, v]) => v > 0)
        .map(([k, v]) => `${k} ${(v / WRITES).toFixed(2)}`);
      result.spawnsPerWrite = (after.sum - before.sum) / WRITES;
      result.spawnKinds = kinds.join(', ');
    }
    // Every branch holds exactly its writer's commits (plus the initial one): nothing lost, nothing written twice.
    const gitDir = join(layout.dataDir, 'repositories', `${repo.id}.git`);
    for (let w = 0; w < WRITERS; w++) {
      const count = Number(await git(gitDir, ['rev-list', '--count', `refs/heads/${branchName(w)}`]));
      if (count !== result.perWriter[w] + 1) throw new Error(`${branchName(w)} has ${count} commits for ${result.perWriter[w]} writes`);
    }
    return result;
  } finally {
    await layout.stop();
  }
}

export default async function () {
  console.log(`${WRITES} writes by ${WRITERS} writers (one branch each, one new file per write), rate per ${ROUND}`);
  const ref = await reference();
  const fmt = (r) => r.rounds.map((x) => x.toFixed(1)).join(' → ');
  console.log(`reference (hash-object, mktree, commit-tree, update-ref; 4 git processes per write): ${ref.rate.toFixed(1)} commits/s; per round ${fmt(ref)}`);
  for (const kind of LAYOUTS) {
    const r = await throughApi(kind);
    console.log(`${kind}: ${r.rate.toFixed(1)} commits/s = ${(r.rate / ref.rate).toFixed(2)}x the reference (target >= 0.5x); per round ${fmt(r)}`);
    // The reference slows too as every branch's tree grows (each commit writes its whole root tree).
    console.log(`  per round against the reference's same round: ${r.rounds.map((x, i) => `${(x / ref.rounds[i]).toFixed(2)}x`).join(' → ')}`);
    if (r.spawnsPerWrite !== undefined) console.log(`  git processes per write: ${r.spawnsPerWrite.toFixed(2)} (${r.spawnKinds})`);
  }
}
