// Starts gitforge for benchmarks the way users run it: the embedded entry, or every app as its
// own process on PostgreSQL + Redis (a throwaway database and Redis namespace per run).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Redis } from 'ioredis';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const ADMIN = { username: 'bench', password: 'bench-password-1', email: 'bench@example.com' };
const pgUrl = process.env.GITFORGE_TEST_DATABASE_URL ?? `postgres://${encodeURIComponent(userInfo().username)}@127.0.0.1:5432/test`;
const redisUrl = process.env.GITFORGE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const APPS = {
  org: 'apps/org-service/dist/main.js',
  repo: 'apps/repo-service/dist/main.js',
  issue: 'apps/issue-service/dist/main.js',
  admin: 'apps/admin-service/dist/main.js',
  actions: 'apps/actions-service/dist/main.js',
  webhook: 'apps/webhook-worker/dist/main.js',
  gateway: 'apps/gateway/dist/main.js',
  embedded: 'apps/embedded/dist/main.js',
};

export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

export async function createDatabase(label) {
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  const name = `gf_bench_${label}_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

async function dropNamespace(ns) {
  const r = new Redis(redisUrl);
  let cursor = '0';
  do {
    const [next, keys] = await r.scan(cursor, 'MATCH', `${ns}*`, 'COUNT', 1000);
    if (keys.length) await r.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  r.disconnect();
}

/**
 * @param {'embedded'|'distributed'} kind
 * @param {{ env?: Record<string,string>, replicas?: Record<string, number>, nodeArgs?: string[] }} [options]
 *   nodeArgs: extra node flags for every process (e.g. ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'])
 */
/** BENCH_NODE_ARGS: node flags for every process of any bench (`BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' npm run bench pulls`). */
const nodeArgsFromEnv = () => (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

export async function startLayout(kind, options = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `gf-bench-${kind}-`));
  const env = {
    PATH: process.env.PATH,
    HOME: dataDir,
    PORT: String(port),
    GITFORGE_ROOT_URL: `http://localhost:${port}/`,
    GITFORGE_DATA_DIR: dataDir,
    GITFORGE_ADMIN_USER: ADMIN.username,
    GITFORGE_ADMIN_PASSWORD: ADMIN.password,
    GITFORGE_ADMIN_EMAIL: ADMIN.email,
    GITFORGE_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    // The git SSH server on a free port: benches may run beside other servers.
    GITFORGE_SSH_PORT: String(await freePort()),
    // Settings to compare builds or tunings by, as JSON (`BENCH_ENV='{"GITFORGE_HEAP_GROWING_PERCENT":"100"}'`).
    ...JSON.parse(process.env.BENCH_ENV ?? '{}'),
    ...options.env,
  };
  const cleanup = [() => rmSync(dataDir, { recursive: true, force: true })];
  if (kind === 'distributed') {
    const db = await createDatabase(kind);
    const ns = `gfbench-${randomBytes(4).toString('hex')}`;
    Object.assign(env, { DATABASE_URL: db.url, REDIS_URL: redisUrl, GITFORGE_REDIS_NAMESPACE: ns });
    // Smart HTTP: the gateway streams to repo-service's own listener and signs the caller with this secret.
    const gitPort = await freePort();
    env.GITFORGE_INTERNAL_SECRET ??= randomBytes(32).toString('hex');
    env.GITFORGE_GIT_HTTP_HOST ??= '127.0.0.1';
    env.GITFORGE_GIT_HTTP_PORT ??= String(gitPort);
    env.GITFORGE_REPO_GIT_URL ??= `http://127.0.0.1:${env.GITFORGE_GIT_HTTP_PORT}`;
    // issue-service's attachment listener on a free port too: another run on this machine may hold 3200.
    env.GITFORGE_ISSUE_HTTP_HOST ??= '127.0.0.1';
    env.GITFORGE_ISSUE_HTTP_PORT ??= String(await freePort());
    env.GITFORGE_ISSUE_HTTP_URL ??= `http://127.0.0.1:${env.GITFORGE_ISSUE_HTTP_PORT}`;
    cleanup.push(() => db.drop(), () => dropNamespace(ns));
  }
  const procs = [];
  // Each further repo-service replica needs its own smart-HTTP port; the gateway talks to the first.
  const gitPorts = [];
  if (kind === 'distributed') for (let i = 1; i < (options.replicas?.repo ?? 1); i++) gitPorts[i] = String(await freePort());
  const launch = (app, index) => {
    // BENCH_LOG_DIR keeps the processes' logs after the run (with BENCH_LOG_LEVEL=debug: each transport call's time).
    const out = createWriteStream(join(process.env.BENCH_LOG_DIR ?? dataDir, `${app}-${index}.log`));
    const child = spawn(process.execPath, [...(options.nodeArgs ?? nodeArgsFromEnv()), resolve(repoRoot, APPS[app])], {
      cwd: repoRoot,
      env: { ...env, ...(app === 'repo' && gitPorts[index] ? { GITFORGE_GIT_HTTP_PORT: gitPorts[index] } : {}), GITFORGE_INSTANCE_ID: `${app}-${index}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(out);
    child.stderr.pipe(out);
    procs.push({ app, index, child });
  };
  if (kind === 'embedded') launch('embedded', 0);
  else {
    for (const app of ['org', 'repo', 'issue', 'admin', 'actions', 'webhook']) for (let i = 0; i < (options.replicas?.[app] ?? 1); i++) launch(app, i);
    launch('gateway', 0);
  }
  const rootUrl = `http://localhost:${port}/`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${rootUrl}api/healthz`)).status === 200) break;
    } catch {
      // not yet listening
    }
    if (Date.now() > deadline) {
      for (const p of procs) p.child.kill('SIGKILL');
      throw new Error(`${kind} layout did not start; logs in ${dataDir}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    kind,
    rootUrl,
    apiUrl: `${rootUrl}api/v1`,
    dataDir,
    env,
    /** pid per app name (first replica). */
    pids: Object.fromEntries(procs.map((p) => [`${p.app}-${p.index}`, p.child.pid])),
    async stop() {
      await Promise.all(
        procs.map(
          (p) =>
            new Promise((ok) => {
              if (p.child.exitCode !== null) return ok();
              p.child.once('exit', ok);
              p.child.kill('SIGTERM');
              setTimeout(() => p.child.kill('SIGKILL'), 10_000).unref();
            }),
        ),
      );
      for (const fn of cleanup.reverse()) await fn();
    },
  };
}

/** A JSON API call with Basic auth or a token. */
export async function api(layout, method, path, body, auth = { basic: [ADMIN.username, ADMIN.password] }) {
  const headers = { 'content-type': 'application/json' };
  if (auth?.basic) headers.authorization = `Basic ${Buffer.from(auth.basic.join(':')).toString('base64')}`;
  if (auth?.token) headers.authorization = `token ${auth.token}`;
  const res = await fetch(`${layout.apiUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Resident set size of a process in KiB, from /proc. */
export function rssKiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Busy and total CPU ticks of the whole machine so far (every core), from /proc/stat: user to steal (guest time is within user already); iowait counts as idle. Null without /proc. */
function machineTicks() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    return { busy: total - fields[3] - fields[4], total };
  } catch {
    return null;
  }
}

/**
 * Waits for the machine to go quiet before a timed transfer: the dirty pages written back
 * (`sync`), then a `windowMs` window in which its busy CPU came to under `busyCores` of one core,
 * whatever the number of cores (given up after `timeoutMs`: answers false then, and true at once
 * without /proc). Neither side of a comparison then pays for what the other left behind: the
 * kernel writing back the last copy's file, the services handling the last upload's events.
 */
export async function machineQuiet({ windowMs = 100, busyCores = 0.2, timeoutMs = 5000 } = {}) {
  execFileSync('sync', { timeout: timeoutMs });
  let last = machineTicks();
  if (!last) return true;
  const cores = availableParallelism();
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, windowMs));
    const now = machineTicks();
    const busy = ((now.busy - last.busy) / Math.max(1, now.total - last.total)) * cores;
    last = now;
    if (busy < busyCores) return true;
  }
  return false;
}
