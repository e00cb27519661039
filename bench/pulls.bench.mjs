// Issue 12: pull request merges on the 20k-commit fixture, in each layout (BENCH_LAYOUTS, default
// embedded then distributed; each layout has its own reference, run on its own server's repository).
// 1. `POST /pulls/{index}/merge` (Do=merge) through the gateway, next to the same plumbing run
//    directly on the server's bare repository in the same run (merge-tree --write-tree,
//    commit-tree, update-ref with the expected old value): the target is <= 2x. Both sides merge a
//    branch tip with a child of it. Timed in two kinds of rounds, alternating:
//    - quiet: both sides set up first, then each timed merge started once the machine has gone
//      quiet (`machineQuiet`), so neither pays for the events the setup (a branch, a pull, the
//      reference's branch) and the other merge left the services to handle: a merge on its own;
//    - back to back: each merge right after its own setup, as users' calls follow each other: the
//      services still handle that setup's events (webhooks, feeds, pull sync, language statistics,
//      Actions triggers) on the same 2 cores while the merge runs.
// 2. The time from a push to the base branch until 100 open pulls show the new base (their
//    mergeability recomputed by the pull-sync consumer).
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN, api, machineQuiet, repoRoot, startLayout } from './lib/layout.mjs';
import { generateRepo, git } from './lib/git-repo.mjs';

const COMMITS = Number(process.env.BENCH_COMMITS ?? 20_000);
const FILES = Number(process.env.BENCH_FILES ?? 3_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const OPEN_PULLS = Number(process.env.BENCH_OPEN_PULLS ?? 100);
const LAYOUTS = (process.env.BENCH_LAYOUTS ?? 'embedded,distributed').split(',').map((k) => k.trim()).filter(Boolean);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const b64 = (s) => Buffer.from(s).toString('base64');
const now = () => Number(process.hrtime.bigint()) / 1e6;

/** A branch `name` off main with one commit adding `file` (through the API, not timed). */
async function branchWithCommit(layout, repo, name, file) {
  const res = await api(layout, 'POST', `/repos/${ADMIN.username}/${repo}/contents/${file}`, { content: b64(`${name}\n`), message: `add ${file}`, branch: 'main', new_branch: name });
  return res.commit.sha;
}

/** The same plumbing a merge does, run directly: merge-tree, commit-tree, then a compare-and-swap of the ref. */
function directMerge(gitDir, ref, base, head, home) {
  const started = now();
  const tree = git(['--git-dir', gitDir, 'merge-tree', '--write-tree', base, head], { home }).trim().split('\n')[0];
  const commit = git(['--git-dir', gitDir, 'commit-tree', tree, '-p', base, '-p', head, '-m', 'Merge for the reference run'], {
    home,
    env: { GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.com' },
  }).trim();
  git(['--git-dir', gitDir, 'update-ref', ref, commit, base], { home });
  return now() - started;
}

async function allPulls(layout, repo) {
  const out = [];
  for (let page = 1; ; page++) {
    const got = await api(layout, 'GET', `/repos/${ADMIN.username}/${repo}/pulls?state=open&limit=50&page=${page}`);
    out.push(...got);
    if (got.length < 50) return out;
  }
}

export default async function () {
  const unknown = LAYOUTS.filter((k) => k !== 'embedded' && k !== 'distributed');
  if (unknown.length > 0) throw new Error(`BENCH_LAYOUTS: unknown layout ${unknown.join(', ')} (embedded, distributed)`);
  const work = join(repoRoot, 'bench', '.work', `pulls-${process.pid}`);
  const home = join(work, 'home');
  mkdirSync(home, { recursive: true });
  try {
    const source = join(work, 'merges.git');
    await generateRepo(source, { commits: COMMITS, files: FILES, home });
    for (const kind of LAYOUTS) await measureLayout(kind, source, home);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The merges and the recomputation on a server of one layout, the fixture pushed to it first. */
async function measureLayout(kind, source, home) {
  const layout = await startLayout(kind);
  try {
    const name = 'merges';
    const repo = await api(layout, 'POST', '/user/repos', { name });
    const pushUrl = `http://${ADMIN.username}:${ADMIN.password}@localhost:${new URL(layout.rootUrl).port}/${ADMIN.username}/${name}.git`;
    git(['-C', source, 'push', '--quiet', pushUrl, 'main'], { home });
    const serverDir = join(layout.dataDir, 'repositories', `${repo.id}.git`);

    /** The reference's setup: a branch with one new commit on main's tip, and a scratch ref at that tip. */
    const scratch = async (label) => {
      const head = await branchWithCommit(layout, name, `ref-${label}`, `bench/ref-${label}.txt`);
      const base = git(['--git-dir', serverDir, 'rev-parse', 'refs/heads/main'], { home }).trim();
      git(['--git-dir', serverDir, 'update-ref', `refs/bench/${label}`, base], { home });
      return { head, base };
    };
    /** One round: a pull merged through the API and the same merge done directly, each timed. */
    const round = async (label, quiet) => {
      // Through the gateway: a pull of one new commit, merged into main.
      await branchWithCommit(layout, name, `api-${label}`, `bench/api-${label}.txt`);
      const pull = await api(layout, 'POST', `/repos/${ADMIN.username}/${name}/pulls`, { head: `api-${label}`, base: 'main', title: `Bench ${label}` });
      // A quiet round sets both sides up before either is timed; a back-to-back one the reference's after the API merge.
      const early = quiet ? await scratch(label) : null;
      let calm = !quiet || (await machineQuiet());
      const started = now();
      await api(layout, 'POST', `/repos/${ADMIN.username}/${name}/pulls/${pull.number}/merge`, { Do: 'merge' });
      const viaApi = now() - started;
      // Directly: the same shape of merge, on the scratch ref.
      const { head, base } = early ?? (await scratch(label));
      if (quiet) calm = (await machineQuiet()) && calm;
      return { viaApi, direct: directMerge(serverDir, `refs/bench/${label}`, base, head, home), calm };
    };
    const measured = { quiet: { viaApi: [], direct: [] }, busy: { viaApi: [], direct: [] } };
    let unquiet = 0;
    // Alternating, so both kinds see the repository at the same sizes.
    for (let r = 0; r < ROUNDS; r++) {
      for (const kind of ['quiet', 'busy']) {
        const got = await round(`${kind}-${r}`, kind === 'quiet');
        measured[kind].viaApi.push(got.viaApi);
        measured[kind].direct.push(got.direct);
        if (!got.calm) unquiet++;
      }
    }

    // 100 open pulls, then a push to their base: how long until every one is checked against it.
    for (let i = 0; i < OPEN_PULLS; i++) {
      await branchWithCommit(layout, name, `open-${i}`, `bench/open-${i}.txt`);
      await api(layout, 'POST', `/repos/${ADMIN.username}/${name}/pulls`, { head: `open-${i}`, base: 'main', title: `Open ${i}` });
    }
    const pushed = now();
    const moved = await api(layout, 'POST', `/repos/${ADMIN.username}/${name}/contents/bench/base-move.txt`, { content: b64('moved\n'), message: 'move the base', branch: 'main' });
    const tip = moved.commit.sha;
    for (;;) {
      const pulls = await allPulls(layout, name);
      if (pulls.length === OPEN_PULLS && pulls.every((p) => p.base.sha === tip && p.mergeable)) break;
      if (now() - pushed > 300_000) throw new Error('the open pulls were not recomputed within 5 minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
    const recompute = now() - pushed;

    console.log(`pull request merges, ${kind} layout, ${COMMITS} commits / ${FILES} files, median of ${ROUNDS} each`);
    for (const [kind, title] of [
      ['quiet', 'each merge started on a quiet machine'],
      ['busy', "back to back, the setup's events still being handled"],
    ]) {
      const apiMs = median(measured[kind].viaApi);
      const directMs = median(measured[kind].direct);
      console.log(`  ${title}:`);
      console.log(`    merge through the API (POST /pulls/{index}/merge, Do=merge): ${apiMs.toFixed(1)} ms`);
      console.log(`    same plumbing run directly (merge-tree, commit-tree, update-ref): ${directMs.toFixed(1)} ms`);
      console.log(`    ratio: ${(apiMs / directMs).toFixed(2)}x (target <= 2x)`);
    }
    if (unquiet) console.log(`  ${unquiet} of the ${ROUNDS} quiet rounds did not find the machine quiet within 5 s: their figures may be disturbed`);
    console.log(`  ${OPEN_PULLS} open pulls recomputed after a push to their base: ${(recompute / 1000).toFixed(2)} s (polled every 100 ms)`);
  } finally {
    await layout.stop();
  }
}
