import type { GitObjects, GitSignature, GitTreeEntry } from './git-objects.js';
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
 * it writes (a malformed offset, a time before 1970 or after 9999).
 */
export function isoDate(s: GitSignature): string | null {
  const m = /^([+-])(\d\d)(\d\d)$/.exec(s.tz);
  if (!m) return null;
  const offsetMin = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  const local = s.when + offsetMin * 60;
  if (!Number.isSafeInteger(s.when) || s.when < 0 || local < 0 || local > MAX_WHEN) return null;
  // git reads the offset as a number, so -0000 is written +00:00.
  return `${new Date(local * 1000).toISOString().slice(0, 19)}${offsetMin !== 0 ? `${m[1]}${m[2]}:${m[3]}` : '+00:00'}`;
}

/**
 * What {@link GitService.commitInfo} answers for a commit with at most one parent, without a
 * process: its signatures, message and files changed against the parent. Null for a merge, a
 * message in an encoding other than UTF-8, a date {@link isoDate} leaves to git (or a commit that
 * cannot be read), which git has to describe.
 */
export async function commitInfoOf(objects: GitObjects, repoId: number, sha: string): Promise<CommitInfo | null> {
  const commit = await objects.commit(repoId, sha);
  // git log re-encodes a message in another encoding to UTF-8; only git knows them all.
  if (!commit || commit.parents.length > 1 || (commit.encoding !== undefined && !/^utf-?8$/i.test(commit.encoding))) return null;
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
