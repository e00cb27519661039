/**
 * Starts gitforge the way users do, as real processes: the embedded layout (`node
 * apps/embedded/dist/main.js`, SQLite, in-process transport) or the distributed one (every app
 * its own process on PostgreSQL and Redis, optionally several replicas of a service).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createTestDatabase,
  dropRedisNamespace,
  requireRedis,
  testRedisUrl,
  uniqueSuffix,
  type TestDatabase,
} from '@gitforge/platform/testing';

export type LayoutKind = 'embedded' | 'distributed';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');

export const ADMIN = { username: 'root', password: 'root-password-1', email: 'root@example.com' };

const APPS = {
  org: 'apps/org-service/dist/main.js',
  repo: 'apps/repo-service/dist/main.js',
  issue: 'apps/issue-service/dist/main.js',
  admin: 'apps/admin-service/dist/main.js',
  actions: 'apps/actions-service/dist/main.js',
  webhook: 'apps/webhook-worker/dist/main.js',
  gateway: 'apps/gateway/dist/main.js',
  embedded: 'apps/embedded/dist/main.js',
} as const;
export type AppName = keyof typeof APPS;

export interface LayoutOptions {
  /** Replicas per service in the distributed layout (default 1). */
  replicas?: Partial<Record<Exclude<AppName, 'embedded' | 'gateway'>, number>>;
  /** Extra environment for every process. */
  env?: Record<string, string>;
}

interface RunningProcess {
  app: AppName;
  index: number;
  child: ChildProcess;
  logFile: string;
}

export class Layout {
  readonly processes: RunningProcess[] = [];

  /** Per-process environment on top of `env` (each repo-service replica has its own smart-HTTP port). */
  private readonly processEnv = new Map<string, Record<string, string>>();

  private constructor(
    readonly kind: LayoutKind,
    readonly port: number,
    readonly dataDir: string,
    readonly env: Record<string, string>,
    private readonly cleanup: Array<() => Promise<void>>,
  ) {}

  get rootUrl(): string {
    return `http://localhost:${this.port}/`;
  }

  get apiUrl(): string {
    return `${this.rootUrl}api/v1`;
  }

  static async start(kind: LayoutKind, options: LayoutOptions = {}): Promise<Layout> {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), `gf-e2e-${kind}-`));
    const env: Record<string, string> = {
      PORT: String(port),
      GITFORGE_ROOT_URL: `http://localhost:${port}/`,
      GITFORGE_DATA_DIR: dataDir,
      GITFORGE_ADMIN_USER: ADMIN.username,
      GITFORGE_ADMIN_PASSWORD: ADMIN.password,
      GITFORGE_ADMIN_EMAIL: ADMIN.email,
      GITFORGE_LOG_LEVEL: process.env.GITFORGE_TEST_SERVER_LOG_LEVEL ?? 'info',
      // The git SSH server: a free port, not the default 2222, as suites may run side by side.
      GITFORGE_SSH_PORT: String(await freePort()),
      GITFORGE_SSH_HOST: '127.0.0.1',
      ...options.env,
    };
    const cleanup: Array<() => Promise<void>> = [async () => rmSync(dataDir, { recursive: true, force: true })];
    let db: TestDatabase | undefined;
    if (kind === 'distributed') {
      await requireRedis();
      db = await createTestDatabase('e2e');
      const namespace = `gfe2e-${uniqueSuffix()}`;
      env.DATABASE_URL = db.url;
      env.REDIS_URL = testRedisUrl();
      env.GITFORGE_REDIS_NAMESPACE = namespace;
      // The gateway signs the caller it streams to the services' own listeners (smart HTTP, attachments) with this.
      env.GITFORGE_INTERNAL_SECRET ??= randomBytes(32).toString('hex');
      // actions-service seals secrets with it, as docker-compose requires it.
      env.GITFORGE_SECRET_KEY ??= randomBytes(32).toString('hex');
      cleanup.push(() => db!.drop(), () => dropRedisNamespace(namespace));
    }
    const layout = new Layout(kind, port, dataDir, env, cleanup);
    if (kind === 'distributed') {
      // Free ports, not the default 3100: other suites may run on this machine at the same time.
      for (let i = 0; i < (options.replicas?.repo ?? 1); i++) {
        const gitPort = await freePort();
        layout.processEnv.set(`repo-${i}`, { ...layout.processEnv.get(`repo-${i}`), GITFORGE_GIT_HTTP_PORT: String(gitPort), GITFORGE_GIT_HTTP_HOST: '127.0.0.1' });
        if (i === 0) layout.processEnv.set('gateway-0', { GITFORGE_REPO_GIT_URL: `http://127.0.0.1:${gitPort}` });
        // Replicas on one host cannot share the SSH port (in Kubernetes each pod has its own); the
        // addresses they hand out name the first one's.
        else layout.processEnv.set(`repo-${i}`, { ...layout.processEnv.get(`repo-${i}`), GITFORGE_SSH_PORT: String(await freePort()), GITFORGE_SSH_PUBLIC_PORT: env.GITFORGE_SSH_PORT! });
      }
      // Each service process's own metrics and health listener (GITFORGE_METRICS_PORT).
      for (const app of ['org', 'repo', 'issue', 'admin', 'webhook'] as const) {
        for (let i = 0; i < (options.replicas?.[app] ?? 1); i++) {
          layout.processEnv.set(`${app}-${i}`, { ...layout.processEnv.get(`${app}-${i}`), GITFORGE_METRICS_PORT: String(await freePort()), GITFORGE_METRICS_HOST: '127.0.0.1' });
        }
      }
      // issue-service's attachment listeners; the gateway streams uploads and downloads to the first.
      for (let i = 0; i < (options.replicas?.issue ?? 1); i++) {
        const issuePort = await freePort();
        layout.processEnv.set(`issue-${i}`, { ...layout.processEnv.get(`issue-${i}`), GITFORGE_ISSUE_HTTP_PORT: String(issuePort), GITFORGE_ISSUE_HTTP_HOST: '127.0.0.1' });
        if (i === 0) layout.processEnv.set('gateway-0', { ...layout.processEnv.get('gateway-0'), GITFORGE_ISSUE_HTTP_URL: `http://127.0.0.1:${issuePort}` });
      }
    }
    try {
      if (kind === 'embedded') {
        layout.spawn('embedded', 0);
      } else {
        // org-service first: it ensures the admin; the others can start together.
        for (const app of ['org', 'repo', 'issue', 'admin', 'actions', 'webhook'] as const) {
          for (let i = 0; i < (options.replicas?.[app] ?? 1); i++) layout.spawn(app, i);
        }
        layout.spawn('gateway', 0);
      }
      await layout.waitHealthy();
    } catch (err) {
      layout.dumpLogs();
      await layout.stop();
      throw err;
    }
    return layout;
  }

  /** A distributed service process's metrics and health listener (`/metrics`, `/healthz`, `/readyz`). */
  metricsUrl(app: Exclude<AppName, 'embedded' | 'gateway'>, index = 0): string {
    const port = this.processEnv.get(`${app}-${index}`)?.GITFORGE_METRICS_PORT;
    if (!port) throw new Error(`${app}-${index} has no metrics listener in the ${this.kind} layout`);
    return `http://127.0.0.1:${port}`;
  }

  spawn(app: AppName, index: number): RunningProcess {
    const logFile = join(this.dataDir, `${app}-${index}.log`);
    const out = createWriteStream(logFile, { flags: 'a' });
    const child = spawn(process.execPath, [resolve(repoRoot, APPS[app])], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: this.dataDir,
        ...this.env,
        ...this.processEnv.get(`${app}-${index}`),
        GITFORGE_INSTANCE_ID: `${app}-${index}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.pipe(out);
    child.stderr!.pipe(out);
    const proc = { app, index, child, logFile };
    this.processes.push(proc);
    return proc;
  }

  /**
   * Waits until /api/healthz answers 200 (every service answering through the transport). Two
   * minutes: on a 2-core machine busy with builds and other suites a start has taken over one.
   */
  async waitHealthy(timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      const dead = this.processes.find((p) => p.child.exitCode !== null);
      if (dead) throw new Error(`${dead.app}-${dead.index} exited with ${dead.child.exitCode}`);
      try {
        const res = await fetch(`${this.rootUrl}api/healthz`);
        if (res.status === 200) return;
        last = `${res.status} ${await res.text()}`;
      } catch (err) {
        last = String(err);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`gitforge (${this.kind}) did not become healthy: ${last}`);
  }

  /** Kills one process at once (SIGKILL: no graceful shutdown, as a crash). */
  kill(app: AppName, index = 0): void {
    // A process killed by a signal keeps exitCode null (signalCode says how it ended): skip those too.
    const p = this.processes.find((x) => x.app === app && x.index === index && x.child.exitCode === null && x.child.signalCode === null);
    p?.child.kill('SIGKILL');
  }

  dumpLogs(): void {
    for (const p of this.processes) {
      try {
        const lines = readFileSync(p.logFile, 'utf8').split('\n');
        console.log(`--- ${p.app}-${p.index} (last lines) ---\n${lines.slice(-40).join('\n')}`);
      } catch {
        // no log yet
      }
    }
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.processes.map(
        (p) =>
          new Promise<void>((resolveStop) => {
            if (p.child.exitCode !== null || p.child.signalCode !== null) return resolveStop();
            const timer = setTimeout(() => p.child.kill('SIGKILL'), 10_000);
            p.child.once('exit', () => {
              clearTimeout(timer);
              resolveStop();
            });
            p.child.kill('SIGTERM');
          }),
      ),
    );
    for (const fn of this.cleanup.reverse()) await fn().catch(() => undefined);
  }
}

/** Ports this suite has handed out (its processes may not have bound them yet). */
const handedOut = new Set<number>();
const PORT_BAND = 1000;

/**
 * A port for a process the suite starts. Not one the kernel picks for `listen(0)`: those come
 * from the ephemeral range (32768 and up), where every outgoing connection on the machine (this
 * suite's processes talking to PostgreSQL, Redis and each other, git clients, other suites) takes
 * its local port too, and one can take this port between the pick and the service's bind
 * (EADDRINUSE, and the layout never starts). Below that range, in a band of its own per Jest
 * worker, no connection and no suite in another worker picks it.
 */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.JEST_WORKER_ID ?? 1);
  const base = 20_000 + ((worker - 1) % 12) * PORT_BAND;
  for (let tries = 0; tries < PORT_BAND; tries++) {
    const port = base + Math.floor(Math.random() * PORT_BAND);
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port in ${base}-${base + PORT_BAND - 1}`);
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolveBindable) => {
    const server = createServer();
    server.unref();
    server.on('error', () => resolveBindable(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolveBindable(true)));
  });
}

/** The layouts a suite runs in: both by default; GITFORGE_TEST_LAYOUTS=embedded narrows it. */
export function layoutsUnderTest(): LayoutKind[] {
  const wanted = (process.env.GITFORGE_TEST_LAYOUTS ?? 'embedded,distributed').split(',').map((s) => s.trim());
  return (['embedded', 'distributed'] as const).filter((k) => wanted.includes(k));
}
