import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { ContractError } from '@gitforge/contracts';
import { createLogger } from '@gitforge/platform';
import { GitService } from './git.service.js';
import { RepoProcessPool } from './repo-process-pool.js';

const log = createLogger('cat-file');

export type GitObjectType = 'blob' | 'tree' | 'commit' | 'tag';

export interface GitObjectInfo {
  oid: string;
  type: GitObjectType;
  size: number;
}

export interface GitObject extends GitObjectInfo {
  data: Buffer;
}

interface Pending {
  resolve: (value: GitObject | GitObjectInfo | null) => void;
  reject: (err: Error) => void;
}

/**
 * One long-lived `git cat-file --batch` (or `--batch-check`) process. Requests are written as
 * they come and answered in order; a spawn costs ~3 ms, a batched read ~0.05 ms. Object names
 * are built by callers from full object ids, validated ref names and validated paths, and may not
 * contain a newline (the protocol's separator).
 */
class CatFileProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending: Pending[] = [];
  private buffer: Buffer = Buffer.alloc(0);
  private closed = false;
  lastUsed = Date.now();

  constructor(
    bin: string,
    env: Record<string, string>,
    private readonly withContent: boolean,
    private readonly onExit: () => void,
  ) {
    this.child = spawn(bin, ['cat-file', withContent ? '--batch' : '--batch-check'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => log.warn({ stderr: chunk.toString('utf8').slice(0, 500) }, 'cat-file stderr'));
    this.child.stdin.on('error', () => undefined);
    this.child.on('error', (err) => this.fail(err));
    this.child.on('close', () => this.fail(new Error('git cat-file exited')));
  }

  get busy(): boolean {
    return this.pending.length > 0;
  }

  request(name: string): Promise<GitObject | GitObjectInfo | null> {
    if (name.includes('\n') || name.includes('\0')) return Promise.reject(new ContractError('invalid_argument', 'invalid object name'));
    if (this.closed) return Promise.reject(new Error('git cat-file is closed'));
    this.lastUsed = Date.now();
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.child.stdin.write(`${name}\n`);
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.child.stdin.end();
    this.child.kill();
  }

  private fail(err: Error): void {
    const wasOpen = !this.closed;
    this.closed = true;
    for (const p of this.pending.splice(0)) p.reject(err);
    if (wasOpen) this.onExit();
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const nl = this.buffer.indexOf(0x0a);
      if (nl < 0) return;
      const header = this.buffer.subarray(0, nl).toString('utf8');
      const parts = header.split(' ');
      const kind = parts[parts.length - 1];
      if (kind === 'missing' || kind === 'ambiguous' || parts.length < 3) {
        this.buffer = this.buffer.subarray(nl + 1);
        this.pending.shift()?.resolve(null);
        continue;
      }
      const [oid, type, sizeText] = parts as [string, GitObjectType, string];
      const size = Number(sizeText);
      if (!this.withContent) {
        this.buffer = this.buffer.subarray(nl + 1);
        this.pending.shift()?.resolve({ oid, type, size });
        continue;
      }
      // Content and its trailing newline must be complete before the answer can go out.
      if (this.buffer.length < nl + 1 + size + 1) return;
      const data = Buffer.from(this.buffer.subarray(nl + 1, nl + 1 + size));
      this.buffer = this.buffer.subarray(nl + 1 + size + 1);
      this.pending.shift()?.resolve({ oid, type, size, data });
    }
  }
}

type CatFileKind = 'batch' | 'check';

/**
 * Long-lived cat-file processes per repository (docs/architecture.md, "Git"): one `--batch` and one
 * `--batch-check`, started on first use and stopped after a minute without requests. New objects
 * and ref updates written by other processes are seen: git re-reads refs per lookup and rescans
 * packs when an object is missing.
 */
@Injectable()
export class CatFilePool implements OnModuleDestroy {
  private readonly pool: RepoProcessPool<CatFileKind, CatFileProcess>;

  constructor(git: GitService) {
    this.pool = new RepoProcessPool((repoId, kind, onExit) => new CatFileProcess(git.bin, git.env(repoId), kind === 'batch', onExit));
  }

  /** The object's type, size and content, or null when it does not exist. */
  async read(repoId: number, name: string): Promise<GitObject | null> {
    return (await this.pool.get(repoId, 'batch').request(name)) as GitObject | null;
  }

  /** The object's type and size, or null when it does not exist. */
  async info(repoId: number, name: string): Promise<GitObjectInfo | null> {
    return this.pool.get(repoId, 'check').request(name);
  }

  /** Stops the processes of a repository (it is being deleted or replaced). */
  release(repoId: number): void {
    this.pool.release(repoId);
  }

  onModuleDestroy(): void {
    this.pool.close();
  }
}
