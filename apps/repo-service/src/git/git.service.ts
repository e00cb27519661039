import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { Injectable } from '@nestjs/common';
import { ContractError, isValidRefName } from '@gitforge/contracts';
import { gitOperationDuration, gitOperations, secondsSince } from '@gitforge/platform';
import { RepoServiceConfig } from '../repo.config.js';
import { GitSpawner } from './git-spawner.js';
import {
  ADOPTION_MARKER,
  isRealDirectory,
  ownerDirs,
  readAdoptionMarker,
  repoDirNames,
  unadoptedRelPath,
  writeAdoptionMarker,
} from './unadopted-dirs.js';

/** The kind a git invocation is counted under in the metrics: its subcommand (after any `-c key=value`). */
export function gitKind(args: string[]): string {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-c') i++;
    else if (!args[i]!.startsWith('-')) return args[i]!;
  }
  return 'git';
}

/**
 * Counts a git process in `gitforge_git_operations_total` and its duration when it ends;
 * `succeeded` judges the exit (some codes are answers, a process killed on purpose is no failure).
 */
export function measureGit(child: ChildProcess, kind: string, succeeded: (code: number | null) => boolean = (code) => code === 0): void {
  const started = process.hrtime.bigint();
  let counted = false;
  const count = (outcome: 'ok' | 'error'): void => {
    if (counted) return;
    counted = true;
    countGit(kind, outcome, started);
  };
  child.once('error', () => count('error'));
  child.once('close', (code) => count(succeeded(code) ? 'ok' : 'error'));
}

/** Counts one ended git process of `kind`, started at `started` (hrtime). */
function countGit(kind: string, outcome: 'ok' | 'error', started: bigint): void {
  gitOperations.inc({ kind, outcome });
  gitOperationDuration.observe({ kind, outcome }, secondsSince(started));
}

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

export interface GitRunOptions {
  input?: string | Buffer;
  env?: Record<string, string>;
  /** Exit codes that are answers rather than failures (e.g. 1 for "not found"). */
  okCodes?: number[];
  /** Where the repository is, when not in place (a repository still being created, see {@link GitService.stagedPath}). */
  gitDir?: string;
}

export interface CommitIdentity {
  name: string;
  email: string;
  /** Epoch seconds; now when absent. */
  when?: number;
}

/** A smart-HTTP service git runs for clients. */
export type GitHttpService = 'upload-pack' | 'receive-pack';

export interface ServiceSpawnOptions {
  /** `--advertise-refs`: the ref advertisement of `GET info/refs`. */
  advertise?: boolean;
  /** Extra environment (GIT_PROTOCOL, hook callback). */
  env?: Record<string, string>;
  /** Hooks directory for receive-pack (`core.hooksPath`). */
  hooksPath?: string;
  /**
   * Full duplex, as over SSH: one process advertises and then serves the client's requests on the
   * same pipes. Default false: smart HTTP's `--stateless-rpc`, one process per request.
   */
  duplex?: boolean;
  /** Where git writes its answer, instead of a pipe to this process: a connection, written to directly. */
  stdout?: Socket;
}

/** A commit as push payloads need it. */
export interface CommitInfo {
  sha: string;
  message: string;
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
  added: string[];
  removed: string[];
  modified: string[];
}

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** A full object id (sha1 or sha256), the only kind of revision these helpers accept from outside. */
export function isObjectId(value: string): boolean {
  return SHA.test(value);
}

export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args[0] ?? ''} exited with ${code}: ${stderr.trim().slice(0, 500)}`);
  }
}

/**
 * The only place that runs `git`. Repositories live at `<data dir>/repositories/<id>.git`,
 * named by id so that no user-supplied name ever becomes a path (repositories dropped there to be
 * adopted, `<owner>/<name>.git`, are found only by names checked in unadopted-dirs.ts). Arguments are built from
 * constants and validated values; user-supplied revisions and paths go after
 * `--end-of-options` / `--`, never where git could read them as options.
 */
@Injectable()
export class GitService {
  readonly root: string;
  /** git's HOME, where its global config would be. */
  readonly home: string;
  private readonly baseEnv: Record<string, string>;

  private readonly spawner = GitSpawner.shared();

  constructor(private readonly config: RepoServiceConfig) {
    this.root = resolve(config.GITFORGE_DATA_DIR, 'repositories');
    this.home = resolve(config.GITFORGE_DATA_DIR, 'git-home');
    this.baseEnv = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.home,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      LANG: 'C',
      LC_ALL: 'C',
    };
  }

  /** Where git itself is looked up (the PATH it runs with). */
  get searchPath(): string {
    return this.baseEnv.PATH!;
  }

  repoPath(repoId: number): string {
    if (!Number.isSafeInteger(repoId) || repoId <= 0) throw new ContractError('internal', 'bad repository id');
    return join(this.root, `${repoId}.git`);
  }

  /**
   * Where a repository is built while its row is not committed: `<root>/.staging/<id>.git`. It is
   * moved into place ({@link promote}) only after the commit, so a crash mid-create leaves at most a
   * staged directory, never a repository in place without a row; the staging sweep settles those.
   */
  stagedPath(repoId: number): string {
    if (!Number.isSafeInteger(repoId) || repoId <= 0) throw new ContractError('internal', 'bad repository id');
    return join(this.root, '.staging', `${repoId}.git`);
  }

  /** Ids of the repositories in the staging area (each either being created, or left by a crash). */
  async stagedIds(): Promise<number[]> {
    const names = await readdir(join(this.root, '.staging')).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [] as string[];
      throw err;
    });
    return names.map((n) => /^([1-9][0-9]*)\.git$/.exec(n)?.[1]).filter((id): id is string => id !== undefined).map(Number);
  }

  /**
   * Moves a staged repository into place (its row has committed); an adopted one's marker goes
   * once it is there. Idempotent: a repository already in place (moved by another replica's sweep,
   * or by the first attempt of a retried request) is done.
   */
  async promote(repoId: number): Promise<void> {
    const from = this.stagedPath(repoId);
    const to = this.repoPath(repoId);
    try {
      await rename(from, to);
    } catch (err) {
      if (!((err as NodeJS.ErrnoException).code === 'ENOENT' && (await exists(join(to, 'HEAD'))))) throw err;
    }
    await rm(join(to, ADOPTION_MARKER), { force: true });
  }

  /**
   * Removes a staged repository whose row never committed. An adoption's (it has the marker of
   * {@link adoptStaged}) is the operator's data: it goes back where it was dropped, and when that
   * place is taken this throws and leaves it staged, for the next sweep or someone to look at.
   */
  async discardStaged(repoId: number): Promise<void> {
    const path = this.stagedPath(repoId);
    const origin = await readAdoptionMarker(path);
    if (origin === null) {
      await rm(path, { recursive: true, force: true });
      return;
    }
    const to = join(this.root, origin);
    await mkdir(dirname(to), { recursive: true });
    // rename(2) refuses a non-empty directory in the way: nothing there is ever replaced.
    await rename(path, to);
    await rm(join(to, ADOPTION_MARKER), { force: true });
  }

  /** The owner directories of repositories dropped in Gitea's layout (`<owner>/<name>.git`), in name order. */
  unadoptedOwners(): Promise<string[]> {
    return ownerDirs(this.root);
  }

  /** The names of the repositories dropped in an owner directory, in name order. */
  unadoptedNames(owner: string): Promise<string[]> {
    return repoDirNames(this.root, owner);
  }

  /** Whether a repository of `owner` named `name` was dropped: `<owner>/<name>.git` is a directory, and no symbolic link leads there. */
  async isUnadopted(owner: string, name: string): Promise<boolean> {
    const rel = unadoptedRelPath(owner, name);
    if (rel === null) return false;
    return (await isRealDirectory(join(this.root, dirname(rel)))) && (await isRealDirectory(join(this.root, rel)));
  }

  /** Removes a dropped repository; false when there is none. */
  async removeUnadopted(owner: string, name: string): Promise<boolean> {
    if (!(await this.isUnadopted(owner, name))) return false;
    await rm(join(this.root, unadoptedRelPath(owner, name)!), { recursive: true, force: true, maxRetries: 5 });
    return true;
  }

  /**
   * Moves a dropped repository into the staging area as repository `repoId` (the caller holds the
   * uncommitted row that owns the id, as for {@link initStaged}) and gives it the settings every
   * repository gets; null when it is not there (any more). It must be a git repository: anything
   * else is refused where it lies. The marker goes in before the move, so the directory is never
   * staged without it and the staging sweep never deletes it ({@link discardStaged}).
   */
  async adoptStaged(repoId: number, owner: string, name: string): Promise<string | null> {
    const rel = unadoptedRelPath(owner, name);
    if (rel === null || !(await this.isUnadopted(owner, name))) return null;
    const from = join(this.root, rel);
    await mkdir(this.baseEnv.HOME!, { recursive: true });
    if ((await this.objectFormat(repoId, from).catch(() => null)) === null) {
      throw new ContractError('unprocessable', `${rel} is not a git repository`);
    }
    const path = this.stagedPath(repoId);
    await mkdir(join(this.root, '.staging'), { recursive: true });
    await this.discardStaged(repoId);
    await rm(this.repoPath(repoId), { recursive: true, force: true });
    try {
      await writeAdoptionMarker(from, rel);
      await rename(from, path);
    } catch (err) {
      await rm(join(from, ADOPTION_MARKER), { force: true });
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    await this.configure(repoId, path);
    return path;
  }

  /** The repository's object format (`sha1` or `sha256`); fails when `gitDir` holds no repository. */
  async objectFormat(repoId: number, gitDir?: string): Promise<'sha1' | 'sha256'> {
    const format = (await this.run(repoId, ['rev-parse', '--show-object-format'], { gitDir })).stdout.toString().trim();
    if (format !== 'sha1' && format !== 'sha256') throw new ContractError('internal', `unknown object format ${format}`);
    return format;
  }

  /** The branch HEAD names (whether or not it exists), null when HEAD is detached. */
  async headBranch(repoId: number, gitDir?: string): Promise<string | null> {
    const r = await this.run(repoId, ['symbolic-ref', '--quiet', 'HEAD'], { gitDir, okCodes: [1] });
    const ref = r.stdout.toString().trim();
    return r.code === 0 && ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
  }

  /**
   * Environment that lets a git process read the objects of other repositories too (git's
   * alternates, C-quoted so that any path is one entry). It copies none of theirs in; what the
   * process writes (merge-tree's trees, say) still goes to its own repository.
   */
  readingObjectsOf(repoIds: number[]): Record<string, string> {
    const quoted = repoIds.map((id) => `"${join(this.repoPath(id), 'objects').replace(/[\\"]/g, (c) => `\\${c}`)}"`);
    return { GIT_ALTERNATE_OBJECT_DIRECTORIES: quoted.join(':') };
  }

  /** Environment for a git process working on one repository (also used by smart HTTP). */
  env(repoId: number, extra: Record<string, string> = {}): Record<string, string> {
    return { ...this.baseEnv, GIT_DIR: this.repoPath(repoId), ...extra };
  }

  get bin(): string {
    return this.config.GITFORGE_GIT_BIN;
  }

  run(repoId: number, args: string[], options: GitRunOptions = {}): Promise<GitResult> {
    const env = this.env(repoId, options.env);
    if (options.gitDir) env.GIT_DIR = options.gitDir;
    return this.exec(args, env, options);
  }

  /** A one-shot git run, started by the process's {@link GitSpawner} (not forked from this process). */
  private async exec(args: string[], env: Record<string, string>, options: GitRunOptions): Promise<GitResult> {
    const kind = gitKind(args);
    const started = process.hrtime.bigint();
    let run;
    try {
      run = await this.spawner.run(this.bin, args, env, options.input);
    } catch (err) {
      countGit(kind, 'error', started);
      throw err;
    }
    const { code, stdout, stderr } = run;
    const ok = code === 0 || (code !== null && options.okCodes?.includes(code) === true);
    countGit(kind, ok ? 'ok' : 'error', started);
    if (!ok) throw new GitError(args, code, stderr);
    return { stdout, stderr, code: code! };
  }

  /**
   * Creates the bare repository in the staging area ({@link stagedPath}); the caller holds the
   * uncommitted row that owns the id, so anything already at the id's paths was left by a crash
   * (an aborted create whose id the database handed out again) and is replaced (an aborted
   * adoption's directory goes back where it was dropped, {@link discardStaged}).
   */
  async initStaged(repoId: number, defaultBranch: string, objectFormat: 'sha1' | 'sha256' = 'sha1'): Promise<string> {
    if (!isValidRefName(defaultBranch)) throw new ContractError('unprocessable', `invalid branch name: ${defaultBranch}`);
    const path = this.stagedPath(repoId);
    await mkdir(join(this.root, '.staging'), { recursive: true });
    await mkdir(this.baseEnv.HOME!, { recursive: true });
    await this.discardStaged(repoId);
    await rm(this.repoPath(repoId), { recursive: true, force: true });
    await this.exec(['init', '--bare', '--quiet', `--object-format=${objectFormat}`, `--initial-branch=${defaultBranch}`, path], this.baseEnv, {});
    await this.configure(repoId, path);
    return path;
  }

  /**
   * Creates a fork of `sourceId` in the staging area, as {@link initStaged} does for a new
   * repository: a bare local clone, whose objects are hard links to the source's (as cheap on disk
   * as alternates, yet either repository can be deleted without breaking the other, since a hard
   * link keeps its data until its last name goes). Branches and tags are copied; HEAD names
   * `defaultBranch`. A source without refs is initialised instead: git clones an empty repository
   * in its own default object format, not the source's. Both paths are built from ids, never from input.
   */
  async cloneStaged(sourceId: number, repoId: number, defaultBranch: string, objectFormat: 'sha1' | 'sha256'): Promise<string> {
    if (!isValidRefName(defaultBranch)) throw new ContractError('unprocessable', `invalid branch name: ${defaultBranch}`);
    const anyRef = (await this.run(sourceId, ['for-each-ref', '--count=1', '--format=%(refname)', 'refs/heads/', 'refs/tags/'])).stdout.length > 0;
    if (!anyRef) return this.initStaged(repoId, defaultBranch, objectFormat);
    const path = this.stagedPath(repoId);
    await mkdir(join(this.root, '.staging'), { recursive: true });
    await mkdir(this.baseEnv.HOME!, { recursive: true });
    await this.discardStaged(repoId);
    await rm(this.repoPath(repoId), { recursive: true, force: true });
    await this.exec(['clone', '--bare', '--local', '--quiet', '--', this.repoPath(sourceId), path], this.baseEnv, {});
    // The clone remembers where it came from; the fork stands on its own (the parent may be deleted or moved).
    await this.run(repoId, ['config', '--remove-section', 'remote.origin'], { gitDir: path, okCodes: [5, 128] });
    await this.run(repoId, ['symbolic-ref', 'HEAD', `refs/heads/${defaultBranch}`], { gitDir: path });
    await this.configure(repoId, path);
    return path;
  }

  /** The settings every repository gets: partial clone needs filters and wants of any reachable object; pushes are checked by gitforge itself. */
  private async configure(repoId: number, path: string): Promise<void> {
    for (const [key, value] of [
      ['uploadpack.allowFilter', 'true'],
      ['uploadpack.allowAnySHA1InWant', 'true'],
      ['receive.denyNonFastForwards', 'false'],
      ['receive.denyDeleteCurrent', 'false'],
      ['core.logAllRefUpdates', 'false'],
      ['gc.auto', '0'],
    ] as const) {
      await this.run(repoId, ['config', key, value], { gitDir: path });
    }
  }

  async remove(repoId: number): Promise<void> {
    // A git process still writing in it (a housekeeper) can refill a directory being removed: retried.
    await rm(this.repoPath(repoId), { recursive: true, force: true, maxRetries: 5 });
  }

  async exists(repoId: number): Promise<boolean> {
    return exists(join(this.repoPath(repoId), 'HEAD'));
  }

  /**
   * Whether anything of the repository is on disk: staged (a create not yet moved into place) or in
   * place, even a directory git would not call a repository. Staged is looked at first: a create
   * moving its repository into place meanwhile is then found in place.
   */
  async anythingOnDisk(repoId: number): Promise<boolean> {
    return (await exists(this.stagedPath(repoId))) || (await exists(this.repoPath(repoId)));
  }

  /**
   * Writes the first commit of an empty repository (auto_init) with plumbing only, and creates
   * `branch` on it atomically: update-ref with an empty old value refuses if the branch exists.
   * Answers the commit and each file's blob id by name.
   */
  async createInitialCommit(
    repoId: number,
    params: { branch: string; files: Array<{ name: string; content: string }>; message: string; author: CommitIdentity },
    gitDir?: string,
  ): Promise<{ commit: string; blobs: Map<string, string> }> {
    const entries: string[] = [];
    const blobs = new Map<string, string>();
    for (const f of params.files) {
      if (!/^[^/\0]+$/.test(f.name) || f.name === '.' || f.name === '..') throw new ContractError('internal', `bad file name ${f.name}`);
      const blob = (await this.run(repoId, ['hash-object', '-w', '--stdin'], { input: f.content, gitDir })).stdout.toString().trim();
      entries.push(`100644 blob ${blob}\t${f.name}`);
      blobs.set(f.name, blob);
    }
    const tree = (await this.run(repoId, ['mktree'], { input: `${entries.join('\n')}\n`, gitDir })).stdout.toString().trim();
    const commit = (
      await this.run(repoId, ['commit-tree', tree, '-F', '-'], {
        input: params.message.endsWith('\n') ? params.message : `${params.message}\n`,
        env: identityEnv(params.author, params.author),
        gitDir,
      })
    ).stdout
      .toString()
      .trim();
    await this.run(repoId, ['update-ref', `refs/heads/${params.branch}`, commit, ''], { gitDir });
    return { commit, blobs };
  }

  /** Size on disk in KiB (loose and packed objects), as Gitea reports `size`. */
  async sizeKiB(repoId: number, gitDir?: string): Promise<number> {
    const out = (await this.run(repoId, ['count-objects', '-v'], { gitDir })).stdout.toString();
    const field = (name: string): number => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(out)?.[1] ?? 0);
    return field('size') + field('size-pack');
  }

  /** Every branch name, in git's (byte) order. */
  async branchNames(repoId: number, gitDir?: string): Promise<string[]> {
    const out = (await this.run(repoId, ['for-each-ref', '--format=%(refname:lstrip=2)', 'refs/heads/'], { gitDir })).stdout.toString('utf8');
    return out.split('\n').filter(Boolean);
  }

  async branchCount(repoId: number, gitDir?: string): Promise<number> {
    return (await this.branchNames(repoId, gitDir)).length;
  }

  async setHead(repoId: number, branch: string, gitDir?: string): Promise<void> {
    if (!isValidRefName(branch)) throw new ContractError('unprocessable', `invalid branch name: ${branch}`);
    await this.run(repoId, ['symbolic-ref', 'HEAD', `refs/heads/${branch}`], { gitDir });
  }

  /**
   * Spawns `git <service> --stateless-rpc` for smart HTTP (or the full-duplex service for SSH), in
   * its own process group so that an abort can signal git and its children (pack-objects,
   * index-pack, hooks) together.
   */
  spawnService(repoId: number, service: GitHttpService, options: ServiceSpawnOptions = {}): ChildProcess {
    const args = [
      ...(options.hooksPath ? ['-c', `core.hooksPath=${options.hooksPath}`] : []),
      // As Gitea's global git config: `git push -o …` works (receive-pack refuses options unless advertised).
      ...(service === 'receive-pack' ? ['-c', 'receive.advertisePushOptions=true'] : []),
      // Housekeeping decides when to repack (maintenance/housekeeping.ts), one housekeeper per
      // repository; receive-pack's own `gc --auto` would run beside it, unlocked and in the push.
      ...(service === 'receive-pack' ? ['-c', 'receive.autogc=false'] : []),
      service,
      ...(options.duplex ? [] : ['--stateless-rpc']),
      ...(options.advertise ? ['--advertise-refs'] : []),
      this.repoPath(repoId),
    ];
    const child = spawn(this.bin, args, { env: this.env(repoId, options.env), stdio: ['pipe', options.stdout ?? 'pipe', 'pipe'], detached: true });
    // Clones (upload-pack) and pushes (receive-pack), apart from the ref advertisements that precede them.
    measureGit(child, options.advertise ? `${service}-advertise` : service);
    return child;
  }

  /** Whether `ancestor` is reachable from `descendant` (false for a force push). */
  async isAncestor(repoId: number, ancestor: string, descendant: string, env?: Record<string, string>): Promise<boolean> {
    assertObjectIds(ancestor, descendant);
    const r = await this.run(repoId, ['merge-base', '--is-ancestor', ancestor, descendant], { env, okCodes: [1] });
    return r.code === 0;
  }

  /** Paths that differ between two commits. */
  async changedFiles(repoId: number, from: string, to: string, env?: Record<string, string>): Promise<string[]> {
    assertObjectIds(from, to);
    const out = (await this.run(repoId, ['diff', '--name-only', '--no-renames', '-z', from, to, '--'], { env })).stdout.toString('utf8');
    return out.split('\0').filter(Boolean);
  }

  /**
   * Commits reachable from `tips` but not from `exclude`, newest first: how many there are, and
   * the first `limit` of them with their changed files. Revisions go through stdin, never argv.
   */
  async commitsBetween(
    repoId: number,
    tips: string[],
    exclude: string[],
    limit: number,
    env?: Record<string, string>,
  ): Promise<{ total: number; commits: CommitInfo[] }> {
    assertObjectIds(...tips, ...exclude);
    const revs = `${[...tips, ...exclude.map((x) => `^${x}`)].join('\n')}\n`;
    const [counted, commits] = await Promise.all([
      this.run(repoId, ['rev-list', '--count', '--stdin'], { input: revs, env }),
      limit > 0 ? this.log(repoId, revs, ['--max-count', String(limit)], env) : Promise.resolve([]),
    ]);
    return { total: Number(counted.stdout.toString().trim()) || 0, commits };
  }

  /** The commit an object id names (a tag is peeled), with its changed files. */
  async commitInfo(repoId: number, sha: string, env?: Record<string, string>): Promise<CommitInfo | null> {
    assertObjectIds(sha);
    const [commit] = await this.log(repoId, `${sha}\n`, ['--no-walk'], env);
    return commit ?? null;
  }

  private async log(repoId: number, revs: string, extra: string[], env?: Record<string, string>): Promise<CommitInfo[]> {
    const format = '%x1e%H%x1f%an%x1f%ae%x1f%aI%x1f%cn%x1f%ce%x1f%cI%x1f%B%x1f';
    const out = (
      await this.run(
        repoId,
        ['log', '--stdin', ...extra, '--no-renames', '--diff-merges=first-parent', '--name-status', '-z', `--format=${format}`],
        { input: revs, env },
      )
    ).stdout.toString('utf8');
    return out
      .split('\x1e')
      .filter((record) => record.length > 0)
      .map((record) => {
        const [sha = '', an = '', ae = '', ad = '', cn = '', ce = '', cd = '', message = '', files = ''] = record.split('\x1f');
        const commit: CommitInfo = {
          sha,
          message,
          author: { name: an, email: ae, date: ad },
          committer: { name: cn, email: ce, date: cd },
          added: [],
          removed: [],
          modified: [],
        };
        const parts = files.replace(/^[\n\0]+/, '').split('\0');
        for (let i = 0; i + 1 < parts.length; i += 2) {
          const status = parts[i]!.trim();
          const path = parts[i + 1]!;
          if (status.startsWith('A')) commit.added.push(path);
          else if (status.startsWith('D')) commit.removed.push(path);
          else if (status) commit.modified.push(path);
        }
        return commit;
      });
  }

  async branchExists(repoId: number, branch: string): Promise<boolean> {
    if (!isValidRefName(branch)) return false;
    const r = await this.run(repoId, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { okCodes: [1] });
    return r.stdout.length > 0;
  }
}

function assertObjectIds(...values: string[]): void {
  for (const v of values) if (!isObjectId(v)) throw new ContractError('internal', 'not an object id');
}

export function identityEnv(author: CommitIdentity, committer: CommitIdentity): Record<string, string> {
  const date = (when?: number): string => `${when ?? Math.floor(Date.now() / 1000)} +0000`;
  return {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_AUTHOR_DATE: date(author.when),
    GIT_COMMITTER_NAME: committer.name,
    GIT_COMMITTER_EMAIL: committer.email,
    GIT_COMMITTER_DATE: date(committer.when),
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
