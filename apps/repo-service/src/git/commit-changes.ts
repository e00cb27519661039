import type { GitCommit, GitObjects, GitSignature, GitTreeEntry } from './git-objects.js';
import type { CommitInfo } from './git.service.js';

export interface PathChanges {
  added: string[];
  removed: string[];
  modified: string[];
}

/** git's base_name_compare: names byte-wise, a tree as if its name ended in `/`. */
function entryKey(e: GitTreeEntry): Buffer {
  return Buffer.from(e.type === 'tree' ? `${e.name}/` : e.name, 'utf8');
}

/**
 * The files that differ between two trees, in the order and with the statuses `git log
 * --name-status --no-renames` lists them (tree order; a type change counts as modified), read
 * from the cached trees and descending only where tree ids differ.
 */
export async function changedPaths(objects: GitObjects, repoId: number, from: string | null, to: string | null): Promise<PathChanges> {
  const out: PathChanges = { added: [], removed: [], modified: [] };
  const all = async (tree: string, prefix: string, into: string[]): Promise<void> => {
    for (const e of (await objects.tree(repoId, tree)) ?? []) {
      if (e.type === 'tree') await all(e.sha, `${prefix}${e.name}/`, into);
      else into.push(prefix + e.name);
    }
  };
  const walk = async (a: string | null, b: string | null, prefix: string): Promise<void> => {
    const left = a ? ((await objects.tree(repoId, a)) ?? []) : [];
    const right = b ? ((await objects.tree(repoId, b)) ?? []) : [];
    let i = 0;
    let j = 0;
    while (i < left.length || j < right.length) {
      const l = left[i];
      const r = right[j];
      const cmp = !l ? 1 : !r ? -1 : Buffer.compare(entryKey(l), entryKey(r));
      if (cmp < 0) {
        if (l!.type === 'tree') await all(l!.sha, `${prefix}${l!.name}/`, out.removed);
        else out.removed.push(prefix + l!.name);
        i++;
      } else if (cmp > 0) {
        if (r!.type === 'tree') await all(r!.sha, `${prefix}${r!.name}/`, out.added);
        else out.added.push(prefix + r!.name);
        j++;
      } else {
        if (l!.type === 'tree') {
          if (l!.sha !== r!.sha) await walk(l!.sha, r!.sha, `${prefix}${l!.name}/`);
        } else if (l!.sha !== r!.sha || l!.mode !== r!.mode) {
          out.modified.push(prefix + l!.name);
        }
        i++;
        j++;
      }
    }
  };
  // Statuses are listed in one pass in git, so each list keeps tree order on its own.
  await walk(from, to, '');
  return out;
}

/** The last second of year 9999: later dates (past what Date holds, or 5-digit years) are left to git. */
const MAX_WHEN = 253_402_300_799;

/**
 * git's `%aI`: strict ISO 8601 in the signature's own offset; null for a date only git knows how
 * it writes (a malformed offset, a time before 1970 or after 9999), and for the very first second
 * of 1970, which is also what a line that does not read as a signature becomes (parseSignature):
 * git reads its own way into such a line, for its name, its e-mail and its date (which orders a walk).
 */
export function isoDate(s: GitSignature): string | null {
  const m = /^([+-])(\d\d)(\d\d)$/.exec(s.tz);
  if (!m) return null;
  const offsetMin = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  const local = s.when + offsetMin * 60;
  if (!Number.isSafeInteger(s.when) || s.when <= 0 || local < 0 || local > MAX_WHEN) return null;
  // git reads the offset as a number, so -0000 is written +00:00.
  return `${new Date(local * 1000).toISOString().slice(0, 19)}${offsetMin !== 0 ? `${m[1]}${m[2]}:${m[3]}` : '+00:00'}`;
}

/**
 * What {@link GitService.commitInfo} answers for a commit, without a process: its signatures,
 * message and files changed against its first parent (a merge as `--diff-merges=first-parent`
 * lists it). Null for a message in an encoding other than UTF-8, a date {@link isoDate} leaves to
 * git (or a commit that cannot be read), which git has to describe.
 */
export async function commitInfoOf(objects: GitObjects, repoId: number, sha: string): Promise<CommitInfo | null> {
  const commit = await objects.commit(repoId, sha);
  // git log re-encodes a message in another encoding to UTF-8; only git knows them all.
  if (!commit || (commit.encoding !== undefined && !/^utf-?8$/i.test(commit.encoding))) return null;
  const parent = commit.parents[0] ? await objects.commit(repoId, commit.parents[0]) : null;
  if (commit.parents[0] && !parent) return null;
  const authored = isoDate(commit.author);
  const committed = isoDate(commit.committer);
  if (authored === null || committed === null) return null;
  const changes = await changedPaths(objects, repoId, parent?.tree ?? null, commit.tree);
  return {
    sha: commit.sha,
    message: commit.message,
    author: { name: commit.author.name, email: commit.author.email, date: authored },
    committer: { name: commit.committer.name, email: commit.committer.email, date: committed },
    ...changes,
  };
}

/**
 * The commits `tip` has and `old` has not, in the order `git log tip ^old` lists them, read in
 * process; null where git has to tell: when more than `max` commits would be read, or the walk
 * meets a root commit, a commit it cannot read or a date {@link isoDate} leaves to git.
 *
 * The walk follows parents from `tip` and stops only at `old`. If it ends with every parent of
 * every commit met either `old` or met itself, no commit met is in `old`'s history (following
 * its parents would have to reach `old`, a cycle, or a root), and every commit `tip` has that
 * `old` has not was met (no path to it goes through `old`). A push of a few commits on top of the
 * branch, or a merge of a pull into it, is listed so without git's two processes; a force push
 * or a long history goes to git.
 */
export async function commitsOnTopOf(objects: GitObjects, repoId: number, tip: string, old: string, max: number): Promise<GitCommit[] | null> {
  const met = new Map<string, GitCommit>();
  const pending = [tip];
  while (pending.length > 0) {
    const sha = pending.pop()!;
    if (sha === old || met.has(sha)) continue;
    if (met.size === max) return null;
    const commit = await objects.commit(repoId, sha);
    if (!commit || commit.parents.length === 0 || isoDate(commit.committer) === null) return null;
    met.set(sha, commit);
    pending.push(...commit.parents);
  }
  // git's walk (revision.c's limit_list): commits by committer date, newest first, those of one
  // date in the order the walk queued them; a commit's parents are queued, in order, when it is
  // taken, each once.
  const order: GitCommit[] = [];
  const first = met.get(tip);
  const queue = first ? [first] : [];
  const queued = new Set([tip]);
  while (queue.length > 0) {
    let next = 0;
    for (let i = 1; i < queue.length; i++) if (queue[i]!.committer.when > queue[next]!.committer.when) next = i;
    const [commit] = queue.splice(next, 1);
    order.push(commit!);
    for (const parent of commit!.parents) {
      const queuedParent = met.get(parent);
      if (!queuedParent || queued.has(parent)) continue;
      queued.add(parent);
      queue.push(queuedParent);
    }
  }
  return order;
}
