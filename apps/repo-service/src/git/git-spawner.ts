import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compiledScript } from '@gitforge/platform';

/** What GitSpawner sends its process (git-spawner.process.ts): one git run. */
export interface SpawnRequest {
  id: number;
  bin: string;
  args: string[];
  env: Record<string, string>;
  input: string | Uint8Array;
}

/** The process's answer: how the run ended and what it wrote, or why it could not start. */
export type SpawnReply =
  | { id: number; code: number | null; signal: string | null; stdout: Uint8Array; stderr: string }
  | { id: number; error: { message: string; code?: string } };

/** A finished run: `code` is null when a signal ended it. */
export interface SpawnedRun {
  code: number | null;
  signal: string | null;
  stdout: Buffer;
  stderr: string;
}

/** A run waiting for its answer. */
interface Pending {
  resolve(run: SpawnedRun): void;
  reject(err: Error): void;
}

/** A helper with no run for this long exits (the next run starts another): an idle service, or a test file done with git, keeps no process around. */
const IDLE_MS = 30_000;

/**
 * Starts one-shot git processes from a small helper process. spawn(2) in Node forks the calling
 * process, and fork copies its page tables: measured here, spawning from a process of 200 MB
 * held its event loop for about 6 ms (15 ms at 450 MB), against under 1 ms at 50 MB. repo-service
 * runs git for nearly every request, and a merge or a pull-sync pass runs several in a row, so
 * every other request of the service waited out each fork. The helper (a bare Node process,
 * started on first use and shared by the process) does the forking; a run costs the service one
 * message each way. The helper holds the service open only while runs are pending, exits after
 * {@link IDLE_MS} without a run, and exits when the service does (its channel closes); git
 * processes it started then run to their end (a killed `update-ref` would leave its lock behind).
 *
 * Long-lived and streaming git processes (cat-file batches, smart HTTP, archives) are still
 * spawned where their pipes are read.
 */
export class GitSpawner {
  private static instance: GitSpawner | undefined;

  /** The process's spawner. */
  static shared(): GitSpawner {
    return (GitSpawner.instance ??= new GitSpawner());
  }

  private child: ChildProcess | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly script: string = fileURLToPath(compiledScript(import.meta.url, 'git-spawner.process'))) {}

  /** Runs `bin` with `args` and `env`, `input` on its stdin; fails only when it could not start (or the helper died). */
  run(bin: string, args: string[], env: Record<string, string>, input: string | Buffer = ''): Promise<SpawnedRun> {
    const child = this.child ?? this.start();
    const id = this.nextId++;
    return new Promise<SpawnedRun>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.holdOpen(child, true);
      const failed = (err: Error | null): void => {
        if (err) this.settle(id, (p) => p.reject(err));
      };
      try {
        child.send({ id, bin, args, env, input } satisfies SpawnRequest, failed);
      } catch (err) {
        failed(err as Error);
      }
    });
  }

  /** Stops the helper; pending runs fail. */
  close(): void {
    const child = this.child;
    if (!child) return;
    this.gone(child, new Error('the git spawner was closed'));
    child.kill();
  }

  private start(): ChildProcess {
    // No inherited node flags: an --inspect port, a profiler or a preloaded agent is the service's, not the helper's.
    const { NODE_OPTIONS: _, ...env } = process.env;
    const child = fork(this.script, [], { serialization: 'advanced', execArgv: [], env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (m: SpawnReply) => {
      this.settle(m.id, (p) => {
        if ('error' in m) p.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
        else p.resolve({ code: m.code, signal: m.signal, stdout: ownBuffer(m.stdout), stderr: m.stderr });
      });
    });
    child.on('error', (err) => this.gone(child, err));
    child.on('exit', (code, signal) => this.gone(child, new Error(`the git spawner exited (${signal ?? code}); what its runs did is unknown`)));
    this.child = child;
    return child;
  }

  private settle(id: number, fn: (p: Pending) => void): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (this.pending.size === 0 && this.child) this.holdOpen(this.child, false);
    fn(p);
  }

  /** The helper went away: its pending runs fail, and the next run starts another. */
  private gone(child: ChildProcess, err: Error): void {
    if (this.child !== child) return;
    this.child = undefined;
    clearTimeout(this.idle);
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(err);
  }

  private holdOpen(child: ChildProcess, open: boolean): void {
    clearTimeout(this.idle);
    if (open) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
      this.idle = setTimeout(() => this.close(), IDLE_MS).unref();
    }
  }
}

/** The answer's bytes as a Buffer of their own: a small answer may be a view into a larger buffer the channel read, which it would keep alive. */
function ownBuffer(bytes: Uint8Array): Buffer {
  return bytes.byteLength === bytes.buffer.byteLength ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : Buffer.from(bytes);
}
