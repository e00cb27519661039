import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { ContractError, unprocessable } from '@gitforge/contracts';
import { GitObjects, type GitTreeEntry } from './git-objects.js';
import { GitError, GitService } from './git.service.js';
import { ObjectWriterPool } from './object-writer.pool.js';

/** An author or committer with the date git should record: epoch seconds and `+hhmm` offset. */
export interface CommitSignature {
  name: string;
  email: string;
  when: number;
  tz: string;
}

/** One path of the new tree: removed, or set to a blob (new content, or an existing blob id). */
export type TreeChange =
  | { path: string; remove: true }
  | { path: string; mode: '100644' | '100755'; content: Buffer }
  | { path: string; mode: string; blob: string };

export interface NewCommit {
  /** The commit the change applies to; null for the first commit of an empty repository. */
  parent: string | null;
  changes: TreeChange[];
  message: string;
  author: CommitSignature;
  committer: CommitSignature;
}

/** Outcome of a compare-and-swap ref update. */
export type RefUpdate = 'ok' | 'stale' | 'name-conflict';

/** A directory of the tree being built: entries by name, subdirectories being edited as nested nodes. */
interface DirNode {
  entries: Map<string, GitTreeEntry | DirNode>;
}

const isNode = (e: GitTreeEntry | DirNode): e is DirNode => 'entries' in e;

/**
 * Writes commits without a working tree or index. The new tree is built in process from the
 * parent's (trees read through the cat-file pool and cached): only the directories on the changed
 * paths are rewritten, each by the long-lived `mktree --batch`; blobs and the commit object go
 * through long-lived `hash-object --stdin-paths` ({@link ObjectWriterPool}), so a commit starts no
 * process. The result is the tree git's own index would write (`read-tree`, `update-index
 * --index-info`, `write-tree`: later changes win, a file replaces a directory in its way and the
 * other way round, emptied directories go, modes of rewritten directories are canonical), and the
 * commit is the one `commit-tree` writes. Identities or dates git would refuse or rewrite in ways
 * not reproduced here, and names that are not UTF-8, take the old path through git's own commands.
 * Nothing is visible until {@link updateRef} moves the branch, and that move names the old value,
 * so two concurrent writers can never both win.
 */
@Injectable()
export class CommitWriter {
  constructor(
    private readonly git: GitService,
    private readonly objects: GitObjects,
    private readonly writers: ObjectWriterPool,
  ) {}

  async write(repoId: number, commit: NewCommit, objectFormat: 'sha1' | 'sha256'): Promise<string> {
    const header = commitHeader(commit.author, commit.committer);
    // A NUL in the message: commit-tree refuses it, where hash-object would write a commit fsck rejects.
    if (header === null || commit.message.includes('\0') || commit.changes.some((c) => protectedPath(c.path))) {
      return this.writeThroughIndex(repoId, commit, objectFormat);
    }
    const parent = commit.parent ? await this.objects.commit(repoId, commit.parent) : null;
    if (commit.parent && !parent) throw new GitError(['commit-tree'], 128, `fatal: not a valid object name ${commit.parent}`);
    const root: DirNode = { entries: new Map() };
    if (parent) await this.load(repoId, root, parent.tree);
    for (const change of commit.changes) {
      if ('remove' in change) {
        await this.remove(repoId, root, change.path.split('/'));
      } else {
        const type = change.mode === '160000' ? 'commit' : change.mode === '040000' ? 'tree' : 'blob';
        const sha = 'content' in change ? await this.writers.blob(repoId, change.content) : await this.existing(repoId, change, type);
        await this.set(repoId, root, change.path.split('/'), { mode: change.mode, type, sha, name: '' });
      }
    }
    const tree = await this.writeDir(repoId, root);
    if (tree === null) return this.writeThroughIndex(repoId, commit, objectFormat);
    return this.commitTree(repoId, tree, commit.parent ? [commit.parent] : [], commit.message, commit.author, commit.committer);
  }

  /**
   * The commit `commit-tree` writes for an existing tree, these parents and this message (taken
   * as it is), through the long-lived object writer: no process starts. Identities git would
   * refuse or rewrite, and messages holding a NUL, go through `commit-tree` itself.
   */
  async commitTree(repoId: number, tree: string, parents: string[], message: string, author: CommitSignature, committer: CommitSignature): Promise<string> {
    // commit-tree ignores a parent given twice (a merge of a head the base holds already).
    const unique = parents.filter((p, i) => parents.indexOf(p) === i);
    const header = commitHeader(author, committer);
    const raw = header === null ? null : `tree ${tree}\n${unique.map((p) => `parent ${p}\n`).join('')}${header}\n${message}`;
    // A NUL, or a non-character commit-tree's verify_utf8 would re-encode: git's own way.
    if (raw === null || message.includes('\0') || NON_CHARACTER.test(raw)) return this.commitTreeByGit(repoId, tree, unique, message, author, committer);
    return this.writers.commit(repoId, Buffer.from(raw, 'utf8'));
  }

  private async commitTreeByGit(repoId: number, tree: string, parents: string[], message: string, author: CommitSignature, committer: CommitSignature): Promise<string> {
    const args = ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'];
    const out = await this.git.run(repoId, args, { input: message, env: signatureEnv(author, committer) }).catch((err: unknown) => {
      throw refusedIdentity(err) ?? err;
    });
    return out.stdout.toString().trim();
  }

  /**
   * An object a change names, checked as write-tree checks it: `mktree --missing` would take an id
   * the repository lacks (a renamed submodule's commit as a file), and the branch would then name
   * a broken tree. A submodule's commit lives elsewhere.
   */
  private async existing(repoId: number, change: { path: string; mode: string; blob: string }, type: string): Promise<string> {
    if (type === 'commit') return change.blob;
    const info = await this.objects.info(repoId, change.blob);
    if (info?.type !== type || info.oid !== change.blob) {
      throw new GitError(['write-tree'], 128, `error: invalid object ${change.mode} ${change.blob} for '${change.path}'\nfatal: git-write-tree: error building trees`);
    }
    return change.blob;
  }

  private async load(repoId: number, node: DirNode, sha: string): Promise<void> {
    const entries = await this.objects.tree(repoId, sha);
    if (!entries) throw new GitError(['read-tree'], 128, `fatal: failed to unpack tree object ${sha}`);
    for (const e of entries) node.entries.set(e.name, e);
  }

  /** The subdirectory `name` of `node` as an editable node (null when there is none). */
  private async child(repoId: number, node: DirNode, name: string, create: boolean): Promise<DirNode | null> {
    const existing = node.entries.get(name);
    if (existing && isNode(existing)) return existing;
    if (existing && existing.mode === '040000') {
      const loaded: DirNode = { entries: new Map() };
      await this.load(repoId, loaded, existing.sha);
      node.entries.set(name, loaded);
      return loaded;
    }
    if (!create) return null;
    // As update-index: a file (or submodule) in the way of a directory is replaced by it.
    const made: DirNode = { entries: new Map() };
    node.entries.set(name, made);
    return made;
  }

  private async set(repoId: number, root: DirNode, parts: string[], entry: GitTreeEntry): Promise<void> {
    let node = root;
    for (const part of parts.slice(0, -1)) node = (await this.child(repoId, node, part, true))!;
    const name = parts[parts.length - 1]!;
    // A file replaces whatever was at its path, a directory included (update-index's replace).
    node.entries.set(name, { ...entry, name });
  }

  private async remove(repoId: number, root: DirNode, parts: string[]): Promise<void> {
    let node: DirNode | null = root;
    for (const part of parts.slice(0, -1)) {
      node = await this.child(repoId, node, part, false);
      if (!node) return;
    }
    const name = parts[parts.length - 1]!;
    const existing = node.entries.get(name);
    // The index holds files only: removing a directory's path removes nothing.
    if (existing && !isNode(existing) && existing.mode !== '040000') node.entries.delete(name);
  }

  /**
   * Writes an edited directory and those below it; its id, '' when it ended up empty (it goes, as
   * an index has no empty directories; the root is then the empty tree), or null when a name is
   * not UTF-8 (it would not survive the round trip through a string).
   */
  private async writeDir(repoId: number, node: DirNode, isRoot = true): Promise<string | null> {
    const out: GitTreeEntry[] = [];
    for (const [name, e] of node.entries) {
      if (name.includes('\uFFFD')) return null;
      if (isNode(e)) {
        const sha = await this.writeDir(repoId, e, false);
        if (sha === null) return null;
        if (sha !== '') out.push({ mode: '040000', type: 'tree', sha, name });
      } else {
        out.push({ ...e, mode: canonicalMode(e.mode), name });
      }
    }
    if (out.length === 0 && !isRoot) return '';
    return this.writers.tree(repoId, out);
  }

  /**
   * The same commit through git's own commands: blobs with `hash-object`, the tree through a
   * throwaway index (`read-tree`, `update-index --index-info`, `write-tree`), then `commit-tree`
   * (six processes or more; also what the in-process way is tested against).
   */
  async writeThroughIndex(repoId: number, commit: NewCommit, objectFormat: 'sha1' | 'sha256'): Promise<string> {
    const index = join(this.git.repoPath(repoId), `gitforge-index-${randomUUID()}`);
    const env = { GIT_INDEX_FILE: index };
    try {
      if (commit.parent) await this.git.run(repoId, ['read-tree', '--end-of-options', commit.parent], { env });
      else await this.git.run(repoId, ['read-tree', '--empty'], { env });
      const zero = '0'.repeat(objectFormat === 'sha256' ? 64 : 40);
      const lines: string[] = [];
      for (const change of commit.changes) {
        if ('remove' in change) {
          lines.push(`0 ${zero}\t${change.path}`);
        } else if ('content' in change) {
          const blob = (await this.git.run(repoId, ['hash-object', '-w', '--stdin'], { input: change.content })).stdout.toString().trim();
          lines.push(`${change.mode} ${blob}\t${change.path}`);
        } else {
          lines.push(`${change.mode} ${change.blob}\t${change.path}`);
        }
      }
      if (lines.length > 0) {
        await this.git.run(repoId, ['update-index', '-z', '--index-info'], { env, input: `${lines.join('\0')}\0` });
      }
      const tree = (await this.git.run(repoId, ['write-tree'], { env })).stdout.toString().trim();
      return await this.commitTreeByGit(repoId, tree, commit.parent ? [commit.parent] : [], commit.message, commit.author, commit.committer);
    } finally {
      await rm(index, { force: true });
      await rm(`${index}.lock`, { force: true });
    }
  }


  /**
   * Moves `ref` to `next` only if it still points at `expected` (null: only if it does not exist).
   * 'stale' when another writer got there first; 'name-conflict' when a ref like `a` blocks `a/b`.
   */
  async updateRef(repoId: number, ref: string, next: string, expected: string | null, objectFormat: 'sha1' | 'sha256', also: Array<{ ref: string; next: string }> = []): Promise<RefUpdate> {
    const old = expected ?? '0'.repeat(objectFormat === 'sha256' ? 64 : 40);
    // `also`: refs moved in the same transaction whatever they held (a pull's own head ref).
    return this.casRef(repoId, [`update ${ref} ${next} ${old}`, ...also.map((a) => `update ${a.ref} ${a.next}`)], [ref, ...also.map((a) => a.ref)]);
  }

  /** Deletes `ref` only if it still points at `expected`. */
  async deleteRef(repoId: number, ref: string, expected: string): Promise<RefUpdate> {
    return this.casRef(repoId, [`delete ${ref} ${expected}`], [ref]);
  }

  /** Moves `from` to `to` in one transaction, only if `from` still points at `expected` and `to` does not exist. */
  async renameRef(repoId: number, from: string, to: string, expected: string): Promise<RefUpdate> {
    return this.casRef(repoId, [`create ${to} ${expected}`, `delete ${from} ${expected}`], [from, to]);
  }

  /**
   * One ref transaction through the repository's long-lived `update-ref --stdin` (a one-shot
   * process for names it cannot carry: git refuses them anyway, with the error to answer).
   */
  private async casRef(repoId: number, lines: string[], refs: string[]): Promise<RefUpdate> {
    try {
      if (refs.some((r) => /\s/.test(r) || r.startsWith('-'))) await this.git.run(repoId, ['update-ref', '--stdin'], { input: `${lines.join('\n')}\n` });
      else await this.writers.refs(repoId, lines);
      return 'ok';
    } catch (err) {
      if (!(err instanceof GitError)) throw err;
      if (/exists; cannot create|cannot process .* and .* at the same time/.test(err.stderr)) return 'name-conflict';
      if (/but expected|reference already exists|unable to resolve reference|cannot lock ref/.test(err.stderr)) return 'stale';
      throw err;
    }
  }
}

/**
 * git's refusal of an author or committer (a name of only `<>`, `.` and the like, an empty one, a
 * date before 1970) as the caller's mistake, a 422, rather than a failure of the forge.
 */
function refusedIdentity(err: unknown): ContractError | null {
  if (!(err instanceof GitError)) return null;
  const line = err.stderr.split('\n').find((l) => /invalid date format|disallowed characters|empty ident|ident name/.test(l));
  return line ? unprocessable(`invalid author or committer: ${line.replace(/^fatal: /, '').trim()}`) : null;
}

export function signatureEnv(author: CommitSignature, committer: CommitSignature): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_AUTHOR_DATE: `${author.when} ${author.tz}`,
    GIT_COMMITTER_NAME: committer.name,
    GIT_COMMITTER_EMAIL: committer.email,
    GIT_COMMITTER_DATE: `${committer.when} ${committer.tz}`,
  };
}

/** The mode git's index gives an entry (create_ce_mode): a file is 100644 or 100755, by its owner's execute bit. */
function canonicalMode(mode: string): string {
  if (mode === '040000' || mode === '120000' || mode === '160000') return mode;
  return (Number.parseInt(mode, 8) & 0o100) !== 0 ? '100755' : '100644';
}

/**
 * A path git's index may refuse (core.protectNTFS, on by default: a component NTFS reads as `.git`
 * such as `.git.`, `git~1`, `.git::$INDEX_ALLOCATION`, or a backslash, NTFS's separator). Told
 * generously: such a change takes git's own path, which decides (mktree would take any name).
 */
function protectedPath(path: string): boolean {
  return path.includes('\\') || path.split('/').some((part) => /^(?:\.git|git~\d+)[. ]*(?::.*)?$/i.test(part));
}

/** git ident.c's crud(): characters trimmed from both ends of a name or e-mail. */
const crud = (c: string): boolean => c <= ' ' || '.,:;<>"\\\''.includes(c);

/** git's strbuf_addstr_without_crud: crud trimmed from the ends, the line's delimiters dropped inside. */
function withoutCrud(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && crud(value[start]!)) start++;
  while (end > start && crud(value[end - 1]!)) end--;
  return value.slice(start, end).replace(/[\n<>]/g, '');
}

/**
 * The author and committer lines `commit-tree` writes for these signatures (git's fmt_ident with
 * an explicit date), or null where git would refuse them or rewrite the date: an empty name, one of
 * nothing but crud, a NUL (no environment variable can carry it), a time git would not read as seconds since the epoch, or an unusual offset.
 */
/** What git's verify_utf8 takes for Latin-1 and re-encodes: U+FFFE, U+FFFF and U+FDD0..U+FDEF. */
const NON_CHARACTER = /[\uFDD0-\uFDEF\uFFFE\uFFFF]/;

/** The last second git 2.39's date parser takes (2099-12-31T23:59:59Z); later ones it refuses. */
const LAST_GIT_DATE = 4_102_444_799;

export function commitHeader(author: CommitSignature, committer: CommitSignature): string | null {
  const line = (s: CommitSignature): string | null => {
    const name = withoutCrud(s.name);
    if (s.name === '' || name === '' || `${s.name}${s.email}`.includes('\0') || !Number.isInteger(s.when) || s.when < 100_000_000 || s.when > LAST_GIT_DATE) return null;
    const tz = /^([+-])([01]\d|2[0-3])([0-5]\d)$/.exec(s.tz);
    if (!tz) return null;
    const offset = tz[2] === '00' && tz[3] === '00' ? '+0000' : s.tz;
    return `${name} <${withoutCrud(s.email)}> ${s.when} ${offset}`;
  };
  const a = line(author);
  const c = line(committer);
  return a === null || c === null ? null : `author ${a}\ncommitter ${c}\n`;
}
