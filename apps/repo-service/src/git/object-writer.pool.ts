import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { createLogger } from '@gitforge/platform';
import { GitError, GitService, measureGit } from './git.service.js';
import { RepoProcessPool } from './repo-process-pool.js';

const log = createLogger('object-writer');

/**
 * The long-lived writers of one repository: blobs and commits by `hash-object --stdin-paths`, trees
 * by `mktree --batch`, ref transactions by `update-ref --stdin`.
 */
type WriterKind = 'blob' | 'commit' | 'tree' | 'refs';

const ARGS: Record<WriterKind, string[]> = {
  blob: ['hash-object', '-w', '--no-filters', '--stdin-paths'],
  commit: ['hash-object', '-w', '-t', 'commit', '--stdin-paths'],
  // Without the existence check: a kept mktree only looks at the packs it started with (a repack
  // meanwhile makes the objects it moved look missing), and every entry names an object that exists
  // (the parent's entries, blobs and trees just written). The one-shot fallback checks.
  tree: ['mktree', '-z', '--missing', '--batch'],
  refs: ['update-ref', '--stdin'],
};

/** One-shot equivalents, for a request whose long-lived process died under it. */
const ONE_SHOT: Record<Exclude<WriterKind, 'refs'>, string[]> = {
  blob: ['hash-object', '-w', '--stdin'],
  commit: ['hash-object', '-w', '-t', 'commit', '--stdin'],
  tree: ['mktree', '-z'],
};

interface Pending {
  resolve: (answer: string) => void;
  reject: (err: Error) => void;
  /** Lines of the answer still to come, and those come so far. */
  lines: number;
  got: string[];
}

/** A git process that answers each request written to its stdin with a known number of lines, in order. */
class LineProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending: Pending[] = [];
  private buffer = '';
  private stderr = '';
  private closed = false;
  lastUsed = Date.now();

  constructor(bin: string, env: Record<string, string>, kind: WriterKind, private readonly onExit: () => void) {
    const args = ARGS[kind];
    this.child = spawn(bin, args, { env: { ...env, GIT_FLUSH: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    // Counted once, under its own kind, when it ends (it serves many requests).
    measureGit(this.child, `${args[0]}-${kind}-batch`, (code) => this.closed || code === 0);
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.onData(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-2000);
    });
    this.child.stdin.on('error', () => undefined);
    this.child.on('error', (err) => this.fail(err));
    this.child.on('close', (code) => this.fail(new GitError(args, code, this.stderr || 'exited')));
  }

  get busy(): boolean {
    return this.pending.length > 0;
  }

  request(input: string, lines = 1): Promise<string> {
    if (this.closed) return Promise.reject(new ClosedWriter('git object writer is closed'));
    this.lastUsed = Date.now();
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject, lines, got: [] });
      this.child.stdin.write(input);
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.child.stdin.end();
  }

  private fail(err: Error): void {
    const wasOpen = !this.closed;
    this.closed = true;
    const pending = this.pending.splice(0);
    if (pending.length > 0) log.warn({ err: err.message.slice(0, 500), pending: pending.length }, 'git object writer ended with requests pending');
    for (const p of pending) p.reject(err);
    if (wasOpen) this.onExit();
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    for (;;) {
      const nl = this.buffer.indexOf('\n');
      if (nl < 0) return;
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      const head = this.pending[0];
      if (!head) continue;
      head.got.push(line.trim());
      if (head.got.length < head.lines) continue;
      this.pending.shift();
      head.resolve(head.got.join('\n'));
    }
  }
}

/**
 * Writes objects into repositories through long-lived git processes (as {@link CatFilePool} reads
 * them): a write costs a pipe round trip instead of a process start (~3 ms each). Blob and commit
 * contents go through a temporary file in the repository (`hash-object --stdin-paths` reads paths);
 * trees go to `mktree -z --batch` as listings. git does the hashing, compression and loose-object
 * writing, so objects are exactly what the one-shot commands write. A request whose process dies
 * under it (a malformed object makes git exit, taking the requests queued behind it) is retried
 * once with the one-shot command, so only the bad request fails.
 */
@Injectable()
export class ObjectWriterPool implements OnModuleDestroy {
  private readonly pool: RepoProcessPool<WriterKind, LineProcess>;
  private readonly refQueues = new Map<number, Promise<unknown>>();

  constructor(private readonly git: GitService) {
    this.pool = new RepoProcessPool((repoId, kind, onExit) => new LineProcess(git.bin, git.env(repoId), kind, onExit));
  }

  /** Writes a blob; its id. */
  blob(repoId: number, content: Buffer): Promise<string> {
    return this.viaFile(repoId, 'blob', content);
  }

  /** Writes a commit object from its raw text (headers, blank line, message); its id. */
  commit(repoId: number, raw: Buffer): Promise<string> {
    return this.viaFile(repoId, 'commit', raw);
  }

  /** Writes a tree from its entries (mktree sorts them); its id. Names may hold neither `/` nor NUL. */
  async tree(repoId: number, entries: Array<{ mode: string; type: string; sha: string; name: string }>): Promise<string> {
    const listing = entries.map((e) => `${e.mode} ${e.type} ${e.sha}\t${e.name}\0`).join('');
    try {
      return checked(await this.process(repoId, 'tree').request(`${listing}\0`));
    } catch (err) {
      if (!(err instanceof GitError) && !(err instanceof ClosedWriter)) throw err;
      return this.oneShot(repoId, 'tree', Buffer.from(listing));
    }
  }

  /**
   * Runs one ref transaction (`update`, `create`, `delete` lines of `update-ref --stdin`) and
   * commits it, all or nothing; a refusal (a ref not at the expected value, a name in the way)
   * rejects with git's error. Transactions of a repository run one after the other, as a refusal
   * ends the process and must not take another transaction with it. Lines may hold no newline.
   */
  async refs(repoId: number, lines: string[]): Promise<void> {
    const previous = this.refQueues.get(repoId) ?? Promise.resolve();
    const run = async (): Promise<void> => {
      const input = `start\n${lines.map((l) => `${l}\n`).join('')}prepare\ncommit\n`;
      let answer: string;
      try {
        answer = await this.process(repoId, 'refs').request(input, 3);
      } catch (err) {
        // Never written (the process was closed or could not start): a one-shot run is the same transaction.
        if (!(err instanceof ClosedWriter)) throw err;
        await this.git.run(repoId, ['update-ref', '--stdin'], { input });
        return;
      }
      if (answer !== 'start: ok\nprepare: ok\ncommit: ok') throw new GitError(ARGS.refs, null, `unexpected answer: ${answer.slice(0, 200)}`);
    };
    const next = previous.then(run, run);
    const tail = next.catch(() => undefined);
    this.refQueues.set(repoId, tail);
    void tail.then(() => {
      if (this.refQueues.get(repoId) === tail) this.refQueues.delete(repoId);
    });
    return next;
  }

  /** Stops the processes of a repository (it is being deleted or replaced). */
  release(repoId: number): void {
    this.pool.release(repoId);
  }

  onModuleDestroy(): void {
    this.pool.close();
  }

  private async viaFile(repoId: number, kind: 'blob' | 'commit', content: Buffer): Promise<string> {
    const file = join(this.git.repoPath(repoId), `gitforge-object-${randomUUID()}`);
    await writeFile(file, content);
    try {
      return checked(await this.process(repoId, kind).request(`${file}\n`));
    } catch (err) {
      if (!(err instanceof GitError) && !(err instanceof ClosedWriter)) throw err;
      return this.oneShot(repoId, kind, content);
    } finally {
      await rm(file, { force: true });
    }
  }

  private async oneShot(repoId: number, kind: Exclude<WriterKind, 'refs'>, input: Buffer): Promise<string> {
    return checked((await this.git.run(repoId, ONE_SHOT[kind], { input })).stdout.toString().trim());
  }

  private process(repoId: number, kind: WriterKind): { request: (input: string, lines?: number) => Promise<string> } {
    const used = this.pool.get(repoId, kind);
    return { request: (input, lines) => used.request(input, lines).catch((err: Error) => Promise.reject(err instanceof GitError ? err : new ClosedWriter(err.message))) };
  }
}

/** A writer that closed (idle sweep, release) between the request and its answer. */
class ClosedWriter extends Error {}

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

function checked(oid: string): string {
  if (!OID.test(oid)) throw new Error(`git object writer answered ${JSON.stringify(oid.slice(0, 100))}`);
  return oid;
}
