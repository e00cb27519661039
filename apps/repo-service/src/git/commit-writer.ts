import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { GitError, GitService } from './git.service.js';

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

/**
 * Writes commits without a working tree, as STACK-NOTES.md measured: blobs with `hash-object`,
 * the tree through a throwaway index (`read-tree`, `update-index --index-info`, `write-tree`),
 * then `commit-tree`. Nothing is visible until {@link updateRef} moves the branch, and that move
 * names the old value, so two concurrent writers can never both win.
 */
@Injectable()
export class CommitWriter {
  constructor(private readonly git: GitService) {}

  async write(repoId: number, commit: NewCommit, objectFormat: 'sha1' | 'sha256'): Promise<string> {
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
      const args = ['commit-tree', tree];
      if (commit.parent) args.push('-p', commit.parent);
      args.push('-F', '-');
      const out = await this.git.run(repoId, args, { input: commit.message, env: signatureEnv(commit.author, commit.committer) });
      return out.stdout.toString().trim();
    } finally {
      await rm(index, { force: true });
      await rm(`${index}.lock`, { force: true });
    }
  }

  /**
   * Moves `ref` to `next` only if it still points at `expected` (null: only if it does not exist).
   * 'stale' when another writer got there first; 'name-conflict' when a ref like `a` blocks `a/b`.
   */
  async updateRef(repoId: number, ref: string, next: string, expected: string | null, objectFormat: 'sha1' | 'sha256'): Promise<RefUpdate> {
    const old = expected ?? '0'.repeat(objectFormat === 'sha256' ? 64 : 40);
    return this.casRef(repoId, ['update-ref', '--end-of-options', ref, next, old]);
  }

  /** Deletes `ref` only if it still points at `expected`. */
  async deleteRef(repoId: number, ref: string, expected: string): Promise<RefUpdate> {
    return this.casRef(repoId, ['update-ref', '-d', '--end-of-options', ref, expected]);
  }

  /** Moves `from` to `to` in one transaction, only if `from` still points at `expected` and `to` does not exist. */
  async renameRef(repoId: number, from: string, to: string, expected: string): Promise<RefUpdate> {
    return this.casRef(repoId, ['update-ref', '--stdin'], `create ${to} ${expected}\ndelete ${from} ${expected}\n`);
  }

  private async casRef(repoId: number, args: string[], input?: string): Promise<RefUpdate> {
    try {
      await this.git.run(repoId, args, input === undefined ? {} : { input });
      return 'ok';
    } catch (err) {
      if (!(err instanceof GitError)) throw err;
      if (/exists; cannot create|cannot process .* and .* at the same time/.test(err.stderr)) return 'name-conflict';
      if (/but expected|reference already exists|unable to resolve reference|cannot lock ref/.test(err.stderr)) return 'stale';
      throw err;
    }
  }
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
