import { Injectable } from '@nestjs/common';
import { parseSignature, type GitCommit } from './git-objects.js';
import { GitService } from './git.service.js';

/** What a commit changed against its first parent (the empty tree for a root commit). */
export interface CommitChanges {
  added: string[];
  removed: string[];
  modified: string[];
  additions: number;
  deletions: number;
}

export interface LoggedCommit extends GitCommit {
  changes: CommitChanges;
}

export interface LogOptions {
  /** Revisions as resolved object ids, optionally with a leading `^` to exclude. */
  revs: string[];
  path?: string;
  skip?: number;
  maxCount?: number;
  since?: string;
  until?: string;
  /** Walk nothing: show exactly `revs` in the given order. */
  noWalk?: boolean;
  /** More environment for git (the objects of other repositories to read). */
  env?: Record<string, string>;
}

const HEADER_FIELDS = 10;
const FORMAT = `--format=%x1e${['%H', '%T', '%P', '%an', '%ae', '%ad', '%cn', '%ce', '%cd', '%B'].join('%x00')}%x00`;

/**
 * Commit listings with what each commit changed, from one `git log` run: the file statuses
 * (Gitea's added/removed/modified against the first parent) and line counts come with the
 * commits instead of one diff per commit.
 */
@Injectable()
export class CommitLog {
  constructor(private readonly git: GitService) {}

  async log(repoId: number, options: LogOptions): Promise<LoggedCommit[]> {
    const args = [
      'log',
      '-z',
      FORMAT,
      '--date=raw',
      // Renames are found for the line counts (Gitea's stats come from a rename-aware diff) and
      // reported as a removal and an addition in the file lists, as Gitea's --no-renames lists are.
      '-M',
      '--diff-merges=first-parent',
      '--raw',
      '--numstat',
      '--no-abbrev',
      ...this.limits(options),
    ];
    if (options.path !== undefined) args.push('--full-diff');
    if (options.noWalk) args.push('--no-walk=unsorted');
    args.push('--end-of-options', ...options.revs, '--');
    if (options.path !== undefined) args.push(options.path);
    const out = await this.git.run(repoId, args, { env: { GIT_LITERAL_PATHSPECS: '1', ...options.env } });
    return parseLog(out.stdout);
  }

  /** How many commits `log` would list without skip/max-count. */
  async count(repoId: number, options: LogOptions): Promise<number> {
    const args = ['rev-list', '--count', ...this.limits({ ...options, skip: undefined, maxCount: undefined })];
    args.push('--end-of-options', ...options.revs, '--');
    if (options.path !== undefined) args.push(options.path);
    const out = await this.git.run(repoId, args, { env: { GIT_LITERAL_PATHSPECS: '1' } });
    return Number(out.stdout.toString().trim()) || 0;
  }

  private limits(options: LogOptions): string[] {
    const args: string[] = [];
    if (options.skip) args.push(`--skip=${Math.trunc(options.skip)}`);
    if (options.maxCount !== undefined) args.push(`--max-count=${Math.trunc(options.maxCount)}`);
    if (options.since) args.push(`--since=${options.since}`);
    if (options.until) args.push(`--until=${options.until}`);
    return args;
  }
}

const byPath = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Parses the `-z` output of {@link FORMAT} followed by `--raw` and `--numstat` records. */
export function parseLog(out: Buffer): LoggedCommit[] {
  const commits: LoggedCommit[] = [];
  let pos = 0;
  const readField = (): string => {
    const end = out.indexOf(0, pos);
    const stop = end < 0 ? out.length : end;
    const value = out.subarray(pos, stop).toString('utf8');
    pos = stop + 1;
    return value;
  };
  while (pos < out.length) {
    if (out[pos] !== 0x1e) {
      pos++;
      continue;
    }
    pos++;
    const f: string[] = [];
    for (let i = 0; i < HEADER_FIELDS; i++) f.push(readField());
    const [sha, tree, parents, an, ae, ad, cn, ce, cd, message] = f as [string, string, string, string, string, string, string, string, string, string];
    const changes: CommitChanges = { added: [], removed: [], modified: [], additions: 0, deletions: 0 };
    let renamed = false;
    for (;;) {
      while (pos < out.length && (out[pos] === 0 || out[pos] === 0x0a)) pos++;
      if (pos >= out.length || out[pos] === 0x1e) break;
      if (out[pos] === 0x3a) {
        // :<old mode> <new mode> <old id> <new id> <status>\0<path>\0, or for a rename
        // :… R<score>\0<old path>\0<new path>\0
        const meta = readField();
        const path = readField();
        const status = meta.slice(meta.lastIndexOf(' ') + 1);
        if (status.startsWith('R')) {
          changes.removed.push(path);
          changes.added.push(readField());
          renamed = true;
        } else if (status === 'A') changes.added.push(path);
        else if (status === 'D') changes.removed.push(path);
        else if (status === 'M') changes.modified.push(path);
      } else {
        // <added>\t<deleted>\t<path>\0 ("-" for binary files), or for a rename
        // <added>\t<deleted>\t\0<old path>\0<new path>\0
        const [a, d, path] = readField().split('\t');
        if (path === '') {
          readField();
          readField();
        }
        changes.additions += Number(a) || 0;
        changes.deletions += Number(d) || 0;
      }
    }
    if (renamed) {
      // Back to the path order a --no-renames listing has.
      changes.added.sort(byPath);
      changes.removed.sort(byPath);
    }
    const sig = (name: string, email: string, raw: string) => parseSignature(`${name} <${email}> ${raw}`);
    commits.push({
      sha,
      tree,
      parents: parents ? parents.split(' ') : [],
      author: sig(an, ae, ad),
      committer: sig(cn, ce, cd),
      message,
      changes,
    });
  }
  return commits;
}
