import { Injectable } from '@nestjs/common';
import {
  ContractError,
  notFound,
  pageOf,
  type ChangedFile,
  type Commit,
  type ListOptions,
  type Page,
  type PullRangeRequest,
  type RawText,
  escapePathSegments,
  pathEscape,
} from '@gitforge/contracts';
import { CommitUsers } from '../commits/commit-users.js';
import { toCommit } from '../commits/commit.mapper.js';
import { CommitLog } from '../git/commit-log.js';
import { streamGit } from '../git/git-stream.js';
import { GitService, isObjectId } from '../git/git.service.js';
import type { RepoUrls } from '../repos/repo.mapper.js';
import { PullRepos } from './pull-repos.js';

/**
 * The largest `.diff`/`.patch` answered. Gitea streams any size; here the text crosses the
 * message transport in one piece, so a larger one is refused (413) instead of filling memory.
 */
export const MAX_RAW_DIFF_BYTES = 16 * 1024 * 1024;
/** Gitea's [api] DEFAULT_PAGING_NUM, when the caller gives no limit. */
const DEFAULT_LIMIT = 30;

interface FileRecord {
  status: string;
  name: string;
  oldName: string;
}

/** The range of a pull (merge base to head) as a diff or patch, a list of changed files, and commits. */
@Injectable()
export class PullRangeService {
  constructor(
    private readonly git: GitService,
    private readonly log: CommitLog,
    private readonly users: CommitUsers,
    private readonly repos: PullRepos,
  ) {}

  /** Gitea's GetDiffOrPatch: `diff -p` (`--full-index --binary` with binary), or `format-patch --binary --stdout`. */
  async diff(req: PullRangeRequest): Promise<RawText> {
    const range = checkRange(req);
    const args =
      req.kind === 'patch'
        ? ['format-patch', '--binary', '--no-signature', '--stdout', '--end-of-options', `${range.from}...${range.to}`]
        : req.binary
          ? ['diff', '--full-index', '--binary', '--end-of-options', range.from, range.to, '--']
          : ['diff', '-p', '--end-of-options', range.from, range.to, '--'];
    const chunks: Buffer[] = [];
    let size = 0;
    await streamGit(this.git, req.repoId, args, (chunk) => {
      size += chunk.length;
      if (size > MAX_RAW_DIFF_BYTES) return false;
      chunks.push(chunk);
      return true;
    });
    if (size > MAX_RAW_DIFF_BYTES) throw new ContractError('payload_too_large', 'the diff is too large to download; compare the branches with git instead');
    return { text: Buffer.concat(chunks).toString('utf8') };
  }

  /**
   * Gitea's GetPullRequestFiles: every file of the diff from the merge base to the head (with
   * renames), one page of them, as ToChangedFile shows them with the head repository's links.
   * `skipTo` starts the list at that file (git's `--skip-to`; a path not in the diff is 404, where
   * Gitea fails with a 500); the total stays every file's, as Gitea reports it. `whitespace`
   * (Gitea's whitespace behaviours) is how the line counts treat whitespace: a file whose changes
   * it ignores all stays listed with 0/0 (Gitea drops it from its list but not from its total, and
   * then fails reading past the list's end). Both listings are streamed: only the page's records
   * are kept, however many files change.
   */
  async files(req: PullRangeRequest): Promise<Page<ChangedFile>> {
    const range = checkRange(req);
    const options = listOptions(req);
    const start = (options.page - 1) * options.limit;
    const end = start + options.limit;
    const page: FileRecord[] = [];
    /** Every file of the diff, as Gitea counts them for its paging headers (skip-to or not); `listed`, those from skip-to on. */
    let total = 0;
    let listed = 0;
    let skipping = !!req.skipTo;
    const statusFields: string[] = [];
    await streamGit(
      this.git,
      req.repoId,
      ['diff', '--name-status', '-z', '-M', '--end-of-options', range.from, range.to, '--'],
      nulFields((field) => {
        statusFields.push(field);
        const status = statusFields[0]!;
        const need = /^[RC]/.test(status) ? 3 : 2;
        if (statusFields.length < need) return true;
        const record = { status, oldName: statusFields[1]!, name: statusFields[need - 1]! };
        statusFields.length = 0;
        total++;
        if (skipping && record.name !== req.skipTo) return true;
        skipping = false;
        if (listed >= start && listed < end) page.push(record);
        listed++;
        return true;
      }),
    );
    if (skipping) throw notFound(`no such path '${req.skipTo}' in the diff`);
    // The counts of the page's files, by path: whitespace flags leave some files out of numstat.
    const counts = new Map<string, { additions: number; deletions: number }>();
    const wanted = new Set(page.map((f) => f.name));
    if (wanted.size > 0) {
      let pending: { additions: number; deletions: number } | null = null;
      let renameFields = 0;
      const found = (path: string): boolean => {
        if (wanted.has(path)) counts.set(path, pending!);
        return counts.size < wanted.size;
      };
      await streamGit(
        this.git,
        req.repoId,
        ['diff', '--numstat', '-z', '-M', ...whitespaceFlags(req.whitespace), '--end-of-options', range.from, range.to, '--'],
        nulFields((field) => {
          if (renameFields > 0) {
            // a rename's numstat is `a\td\t` then the old and the new path as their own fields
            return --renameFields === 0 ? found(field) : true;
          }
          // `added\tdeleted\tpath`: the path is all after the second tab (it may hold tabs itself).
          const first = field.indexOf('\t');
          const second = field.indexOf('\t', first + 1);
          const path = field.slice(second + 1);
          pending = { additions: Number(field.slice(0, first)) || 0, deletions: Number(field.slice(first + 1, second)) || 0 };
          if (path === '') {
            renameFields = 2;
            return true;
          }
          return found(path);
        }),
      );
    }
    const urls = await this.repos.urls(req.headRepoId ?? req.repoId);
    return pageOf(
      page.map((f) => toChangedFile(f, counts.get(f.name) ?? { additions: 0, deletions: 0 }, urls, range.to)),
      total,
      options,
    );
  }

  /** Gitea's GetPullRequestCommits: the head's commits not on the base, newest first, with stats. */
  async commits(req: PullRangeRequest): Promise<Page<Commit>> {
    const range = checkRange(req);
    const options = listOptions(req);
    const revs = [range.to, `^${range.from}`];
    const [total, commits] = await Promise.all([
      this.log.count(req.repoId, { revs }),
      this.log.log(req.repoId, { revs, skip: (options.page - 1) * options.limit, maxCount: options.limit }),
    ]);
    const [urls, users] = await Promise.all([
      this.repos.urls(req.repoId),
      this.users.byEmail(commits.flatMap((c) => [c.author.email, c.committer.email])),
    ]);
    const flags = { stat: true, files: req.files ?? true, verification: req.verification ?? true };
    return pageOf(
      commits.map((c) => toCommit(c, urls, users, flags)),
      total,
      options,
    );
  }
}

function checkRange(req: PullRangeRequest): { from: string; to: string } {
  if (!isObjectId(req.mergeBase) || !isObjectId(req.headSha)) throw new ContractError('invalid_argument', 'mergeBase and headSha must be object ids');
  return { from: req.mergeBase, to: req.headSha };
}

/** Gitea's GetWhitespaceFlag: how a diff's line counts treat whitespace (anything else shows all). */
function whitespaceFlags(behaviour: string | undefined): string[] {
  switch (behaviour) {
    case 'ignore-all':
      return ['-w'];
    case 'ignore-change':
      return ['-b'];
    case 'ignore-eol':
      return ['--ignore-space-at-eol'];
    default:
      return [];
  }
}

function listOptions(req: PullRangeRequest): ListOptions {
  return { page: Math.max(1, Math.trunc(req.page ?? 1)), limit: Math.max(1, Math.trunc(req.limit ?? DEFAULT_LIMIT)) };
}

/** A chunk handler for `-z` output that calls `onField` with each NUL-terminated field; false stops. */
export function nulFields(onField: (field: string) => boolean): (chunk: Buffer) => boolean {
  let rest = Buffer.alloc(0);
  return (chunk) => {
    let buf = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    let at: number;
    while ((at = buf.indexOf(0)) >= 0) {
      const field = buf.subarray(0, at).toString('utf8');
      buf = buf.subarray(at + 1);
      if (!onField(field)) return false;
    }
    rest = Buffer.from(buf);
    return true;
  };
}

/** Gitea's convert.ToChangedFile: its status words, and links to the file at the head commit in the head repository. */
export function toChangedFile(f: FileRecord, counts: { additions: number; deletions: number }, head: RepoUrls, commit: string): ChangedFile {
  let status = 'changed';
  let previous: string | undefined;
  if (f.status === 'D') status = 'deleted';
  else if (f.status === 'A') status = 'added';
  else if (f.status.startsWith('C')) status = 'copied';
  else if (f.status.startsWith('R')) {
    status = 'renamed';
    previous = f.oldName;
  } else if (counts.additions === 0 && counts.deletions === 0) status = 'unchanged';
  const path = escapePathSegments(f.name);
  const sha = pathEscape(commit);
  return {
    filename: f.name,
    ...(previous !== undefined ? { previous_filename: previous } : {}),
    status,
    additions: counts.additions,
    deletions: counts.deletions,
    changes: counts.additions + counts.deletions,
    html_url: `${head.html}/src/commit/${sha}/${path}`,
    contents_url: `${head.api}/contents/${path}?ref=${sha}`,
    raw_url: `${head.html}/raw/commit/${sha}/${path}`,
  };
}
