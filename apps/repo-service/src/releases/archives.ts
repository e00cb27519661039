import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { Injectable } from '@nestjs/common';
import { ContractError, notFound } from '@gitforge/contracts';
import { contentDisposition, createLogger, sendStream } from '@gitforge/platform';
import type { RepoView } from '../contents/repo-view.js';
import { GitService } from '../git/git.service.js';
import { Refs } from '../git/refs.js';
import { RepoServiceConfig } from '../repo.config.js';
import { archiveCacheDir } from './release-files.js';

const log = createLogger('archives');

/** How long a file being written (or a bundle being built) is left alone by a cache cleanup. */
const IN_PROGRESS_GRACE_MS = 60 * 60 * 1000;

export type ArchiveFormat = 'tar.gz' | 'zip' | 'bundle';

/** Subpaths are file names, never pathspec magic or globs. */
const LITERAL = { GIT_LITERAL_PATHSPECS: '1' };

const FORMATS: ReadonlyArray<{ ext: string; format: ArchiveFormat; type: string }> = [
  { ext: '.tar.gz', format: 'tar.gz', type: 'application/gzip' },
  { ext: '.zip', format: 'zip', type: 'application/zip' },
  { ext: '.bundle', format: 'bundle', type: 'application/octet-stream' },
];

/** `{ref}.tar.gz|.zip|.bundle` split into the ref and the format; null for any other ending (Gitea's unknown format). */
export function parseArchiveName(name: string): { ref: string; format: ArchiveFormat; type: string } | null {
  const known = FORMATS.find((f) => name.endsWith(f.ext) && name.length > f.ext.length);
  return known ? { ref: name.slice(0, -known.ext.length), format: known.format, type: known.type } : null;
}

/**
 * The `path` query of an archive (subpaths to include), refused (404) when one could leave the
 * tree or read as an option: relative, no `.`/`..` segments, no control characters.
 */
export function archivePaths(raw: string[]): string[] | null {
  const paths = [...new Set(raw.map((p) => p.replace(/\/+$/, '')).filter((p) => p !== ''))];
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  const bad = (p: string) => p.startsWith('/') || p.startsWith('-') || /[\x00-\x1f\x7f\\]/.test(p) || p.split('/').some((s) => s === '' || s === '.' || s === '..');
  return paths.some(bad) ? null : paths.sort();
}

/**
 * Repository archives (Gitea's archiver): `git archive` for tarballs and zips, with Gitea's
 * `{repo}/` prefix, and `git bundle` for bundles, cached per commit on disk under
 * `{data}/repo-archives/{repoId}/`. A first request streams git's output to the client while
 * writing the cache file beside it (under a temporary name, renamed when git succeeded); later
 * ones stream the file. Nothing is held in memory whole.
 */
@Injectable()
export class Archives {
  readonly root: string;

  constructor(
    private readonly config: RepoServiceConfig,
    private readonly git: GitService,
    private readonly refs: Refs,
  ) {
    this.root = resolve(config.GITFORGE_DATA_DIR, 'repo-archives');
  }

  /**
   * Answers `GET …/archive/{name}`: 404 for an unknown format, a ref that does not name a commit
   * (an option-like one included), or an empty repository.
   */
  async serve(view: RepoView, name: string, rawPaths: string[], res: ServerResponse, headOnly: boolean): Promise<void> {
    const parsed = parseArchiveName(name);
    if (!parsed) throw notFound(`unknown archive format: ${name}`);
    const commit = view.ctx.repo.isEmpty ? null : await this.refs.anyCommit(view.repoId, parsed.ref);
    if (!commit) throw notFound(`object does not exist [id: ${parsed.ref}, rel_path: ]`);
    // Subpaths narrow tarballs and zips (a bundle holds history, not paths); each must exist.
    const paths = parsed.format === 'bundle' ? [] : archivePaths(rawPaths);
    if (!paths) throw notFound('invalid archive path');
    if (paths.length > 0) {
      // One listing for all of them: each path that exists names its own entry.
      const found = await this.git.run(view.repoId, ['ls-tree', '-z', '--name-only', commit.sha, '--', ...paths], { env: LITERAL });
      const entries = new Set(found.stdout.toString('utf8').split('\0'));
      const missing = paths.find((path) => !entries.has(path));
      if (missing !== undefined) throw notFound(`path does not exist: ${missing}`);
    }
    const repoName = view.ctx.repo.name;
    const file = this.cachePath(view.repoId, commit.sha, repoName, parsed.format, paths);
    const headers = {
      'Content-Type': parsed.type,
      'Content-Disposition': contentDisposition('attachment', `${repoName}-${parsed.ref.replaceAll('/', '-')}.${parsed.format}`),
      'Access-Control-Expose-Headers': 'Content-Disposition',
      ETag: `"${commit.sha}.${parsed.format}"`,
    };
    if (!(await exists(file)) && parsed.format === 'bundle') await this.bundle(view.repoId, commit.sha, file);
    const cached = await stat(file).catch(() => null);
    if (cached) {
      res.writeHead(200, { ...headers, 'Content-Length': String(cached.size) });
      if (headOnly) return void res.end();
      await sendStream(createReadStream(file), res);
      return;
    }
    res.writeHead(200, headers);
    if (headOnly) return void res.end();
    await this.archiveThrough(view.repoId, commit.sha, repoName, parsed.format as 'tar.gz' | 'zip', paths, file, res);
  }

  /**
   * Removes cached archives last written more than `olderThanMs` ago (all with 0) and answers how
   * many went. For the admin cron's archive_cleanup / delete_repo_archives tasks; a missing cache
   * directory is nothing to clean.
   */
  async cleanCache(olderThanMs: number): Promise<number> {
    const cutoff = Date.now() - olderThanMs;
    // Files still being written (and bundles being built) are left an hour whatever the age asked.
    const busyCutoff = Math.min(cutoff, Date.now() - IN_PROGRESS_GRACE_MS);
    let removed = 0;
    for (const repoDir of await readdir(this.root).catch(() => [] as string[])) {
      const dir = join(this.root, repoDir);
      const busy = repoDir.startsWith('.bundle-');
      for (const name of busy ? [''] : await readdir(dir).catch(() => [] as string[])) {
        const path = join(dir, name);
        const info = await stat(path).catch(() => null);
        if (info && info.mtimeMs <= (busy || name.endsWith('.tmp') ? busyCutoff : cutoff)) {
          await rm(path, { force: true, recursive: true });
          removed++;
        }
      }
    }
    return removed;
  }

  /** One file per commit, repository name (the prefix inside) and format, and per set of subpaths. */
  private cachePath(repoId: number, commit: string, repoName: string, format: ArchiveFormat, paths: string[]): string {
    const narrowed = paths.length === 0 ? '' : `-${createHash('sha256').update(paths.join('\0')).digest('hex').slice(0, 16)}`;
    return join(archiveCacheDir(this.config.GITFORGE_DATA_DIR, repoId), `${commit}-${repoName}${narrowed}.${format}`);
  }

  /** `git archive` to the client and to the cache file at once; the file is kept only if git succeeded. */
  private async archiveThrough(repoId: number, commit: string, repoName: string, format: 'tar.gz' | 'zip', paths: string[], file: string, res: ServerResponse): Promise<void> {
    await mkdir(join(this.root, String(repoId)), { recursive: true });
    const temp = `${file}.${randomUUID()}.tmp`;
    const out = createWriteStream(temp);
    const args = ['archive', `--format=${format}`, `--prefix=${repoName}/`, commit, ...(paths.length > 0 ? ['--', ...paths] : [])];
    const child = spawn(this.git.bin, args, {
      env: this.git.env(repoId, LITERAL),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stderr: Buffer[] = [];
    child.stderr.on('data', (b: Buffer) => stderr.push(b));
    child.on('error', (err) => log.error({ err, repoId }, 'git archive could not start'));
    // A client that goes away stops receiving; git still finishes the cache file.
    res.on('close', () => child.stdout.unpipe(res));
    // A cache file that cannot be written (a full disk, its directory cleaned away) only costs the
    // cache: the client still gets the archive.
    let cached = true;
    const written = new Promise<void>((done) => {
      out.on('finish', () => done());
      out.on('error', (err) => {
        cached = false;
        child.stdout.unpipe(out);
        log.warn({ err, repoId, commit }, 'archive cache file not written');
        done();
      });
    });
    child.stdout.pipe(out);
    child.stdout.pipe(res);
    const code = await new Promise<number | null>((done) => child.on('close', done));
    if (!cached) out.destroy();
    await written;
    if (code === 0 && cached) {
      // The cache may have been cleaned meanwhile; the client has its bytes either way.
      await rename(temp, file).catch((err: unknown) => log.warn({ err, repoId, commit }, 'archive cache file not kept'));
    } else if (code === 0) {
      await rm(temp, { force: true });
    } else {
      log.error({ repoId, commit, code, stderr: Buffer.concat(stderr).toString('utf8') }, 'git archive failed');
      await rm(temp, { force: true });
      res.destroy();
    }
  }

  /**
   * Gitea's CreateBundle: a throwaway repository borrowing the objects, whose `bundle` branch and
   * HEAD are the commit, bundled into the cache file (git bundle writes a file, not a stream).
   */
  private async bundle(repoId: number, commit: string, file: string): Promise<void> {
    await mkdir(join(this.root, String(repoId)), { recursive: true });
    const scratch = await mkdtemp(join(this.root, '.bundle-'));
    try {
      const env = { ...this.git.env(repoId), GIT_DIR: scratch, GIT_OBJECT_DIRECTORY: join(this.git.repoPath(repoId), 'objects') };
      await mkdir(join(scratch, 'refs'), { recursive: true });
      await writeFile(join(scratch, 'HEAD'), 'ref: refs/heads/bundle\n');
      await run(this.git.bin, ['update-ref', 'refs/heads/bundle', commit], env);
      const temp = `${file}.${randomUUID()}.tmp`;
      await run(this.git.bin, ['bundle', 'create', temp, 'refs/heads/bundle', 'HEAD'], env);
      await rename(temp, file);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null)) !== null;
}

function run(bin: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(bin, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const err: Buffer[] = [];
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0 ? done() : fail(new ContractError('internal', `git ${args[0]} failed: ${Buffer.concat(err).toString('utf8')}`)),
    );
  });
}
