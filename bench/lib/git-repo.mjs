// Synthetic git histories for benchmarks, written with `git fast-import` (seconds, not minutes).
import { spawn, spawnSync } from 'node:child_process';

/** Runs git and answers stdout; throws with stderr on failure. */
export function git(args, options = {}) {
  const r = spawnSync('git', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...options, env: { ...gitEnv(options.home), ...options.env } });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

export function gitEnv(home = process.env.HOME) {
  return { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', LANG: 'C', LC_ALL: 'C' };
}

/**
 * A bare repository with `commits` commits on `main`: the first adds `files` files spread over
 * directories of 100, every later one rewrites one file (round robin) with a few changed lines,
 * as a long-lived project looks. Packed into one pack, as a server keeps it.
 */
export async function generateRepo(dir, { commits, files, home }) {
  git(['init', '--quiet', '--bare', '--initial-branch=main', dir], { home });
  const child = spawn('git', ['fast-import', '--quiet', '--done'], { cwd: dir, env: gitEnv(home), stdio: ['pipe', 'inherit', 'inherit'] });
  const exited = new Promise((ok, fail) => child.on('close', (code) => (code === 0 ? ok() : fail(new Error(`fast-import exited ${code}`)))));
  const path = (i) => `src/d${String(Math.floor(i / 100)).padStart(3, '0')}/file${String(i).padStart(5, '0')}.txt`;
  const content = (i, rev) => {
    const lines = [];
    for (let l = 0; l < 12; l++) lines.push(`file ${i} line ${l} ${l === rev % 12 ? `revision ${rev}` : 'stable text that stays the same'}`);
    return `${lines.join('\n')}\n`;
  };
  const write = (s) => (child.stdin.write(s) ? Promise.resolve() : new Promise((ok) => child.stdin.once('drain', ok)));
  const blob = (s) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  let time = 1_600_000_000;
  for (let c = 1; c <= commits; c++) {
    time += 60;
    let out = `commit refs/heads/main\nmark :${c}\ncommitter Bench Author <author${c % 17}@example.com> ${time} +0000\n`;
    out += blob(c === 1 ? 'initial import\n' : `change ${c}: update ${path((c - 2) % files)}\n`);
    if (c > 1) out += `from :${c - 1}\n`;
    if (c === 1) for (let i = 0; i < files; i++) out += `M 100644 inline ${path(i)}\n${blob(content(i, 0))}`;
    else out += `M 100644 inline ${path((c - 2) % files)}\n${blob(content((c - 2) % files, c))}`;
    await write(`${out}\n`);
  }
  await write('done\n');
  child.stdin.end();
  await exited;
  git(['repack', '-a', '-d', '-q'], { cwd: dir, home });
}
