import { Injectable } from '@nestjs/common';
import { streamGit } from './git-stream.js';
import { GitService } from './git.service.js';
import { Lru } from '@gitforge/platform';

/**
 * The last commit that touched each entry of a directory, for the `last_commit_*` fields.
 *
 * One `git log --name-only` walk over the directory's history answers every entry at once (the
 * first commit in the walk naming a path under an entry is that entry's last commit), and the walk
 * stops as soon as every entry is answered. Answers are cached per (repository, commit, path):
 * history below a commit never changes, so they never go stale.
 */
@Injectable()
export class LastCommits {
  private readonly cache = new Lru<string, string>(1_000_000);

  constructor(private readonly git: GitService) {}

  /** Last commit sha per entry name of `dir` ('' for the root) as of `commit`; entries never changed are absent. */
  async forEntries(repoId: number, commit: string, dir: string, names: string[]): Promise<Map<string, string>> {
    const result = new Map<string, string>();
    const prefix = dir === '' ? '' : `${dir}/`;
    const missing = new Set<string>();
    for (const name of names) {
      const hit = this.cache.get(key(repoId, commit, prefix + name));
      if (hit) result.set(name, hit);
      else missing.add(name);
    }
    if (missing.size > 0) await this.walk(repoId, commit, prefix, missing, result);
    return result;
  }

  /**
   * Records what a writer knows without a walk: `path` changed in `commit` (it differs from the
   * commit's only parent there, or the commit has none), so `commit` is its last commit as of itself.
   */
  record(repoId: number, commit: string, path: string): void {
    this.cache.set(key(repoId, commit, path), commit);
  }

  private async walk(repoId: number, commit: string, prefix: string, missing: Set<string>, result: Map<string, string>): Promise<void> {
    // One missing entry: limit the walk to that path, not the whole directory.
    const pathspec = missing.size === 1 ? prefix + [...missing][0]! : prefix.replace(/\/$/, '');
    const args = ['log', '-z', '--format=%x1e%H', '--name-only', '--no-renames', '--diff-merges=combined', '--end-of-options', commit, '--'];
    if (pathspec !== '') args.push(pathspec);
    let pending: Buffer = Buffer.alloc(0);
    let current = '';
    let firstPath = false;
    await streamGit(
      this.git,
      repoId,
      args,
      (chunk) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        let start = 0;
        for (;;) {
          const end = pending.indexOf(0, start);
          if (end < 0) break;
          const token = pending.subarray(start, end).toString('utf8');
          start = end + 1;
          if (token.startsWith('\x1e')) {
            current = token.slice(1);
            firstPath = true;
            continue;
          }
          // git separates the commit line from its file list with a newline.
          const path = firstPath && token.startsWith('\n') ? token.slice(1) : token;
          firstPath = false;
          if (!path.startsWith(prefix)) continue;
          const name = path.slice(prefix.length).split('/', 1)[0]!;
          if (!missing.delete(name)) continue;
          result.set(name, current);
          this.cache.set(key(repoId, commit, prefix + name), current);
          if (missing.size === 0) return false;
        }
        pending = pending.subarray(start);
        return true;
      },
      { GIT_LITERAL_PATHSPECS: '1' },
    );
  }
}

const key = (repoId: number, commit: string, path: string): string => `${repoId}\0${commit}\0${path}`;
