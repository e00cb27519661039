import { Injectable } from '@nestjs/common';
import { escapePathSegments, isValidRefName } from '@gitforge/contracts';
import { GitObjects, parseSignature, withoutSignature, type GitCommit, type GitSignature } from './git-objects.js';
import { GitService } from './git.service.js';

export type RefKind = 'branch' | 'tag' | 'commit';

/** A ref as the caller wrote it, what kind it turned out to be, and its commit (Gitea's RefCommit). */
export interface RefCommit {
  inputRef: string;
  kind: RefKind;
  /** Branch or tag short name, or the full commit id. */
  name: string;
  commit: GitCommit;
}

/** A tag as listed: its own object (the commit for a lightweight tag), the commit, the tagger or committer, the message. */
export interface TagRef {
  name: string;
  id: string;
  commit: string;
  creator: GitSignature;
  message: string;
}

export interface BranchRef {
  name: string;
  sha: string;
  committerTime: number;
}

const HEX = /^[0-9a-f]+$/;

/** Gitea's IsStringLikelyCommitID: lower-case hex between `minLength` and the full id length. */
export function isLikelyCommitId(value: string, objectFormat: 'sha1' | 'sha256', minLength?: number): boolean {
  const full = objectFormat === 'sha256' ? 64 : 40;
  return value.length >= (minLength ?? full) && value.length <= full && HEX.test(value);
}

/**
 * Text git may resolve as a revision: no whitespace or control characters (cat-file reads one
 * name per line), no `:` (a path or message search, not a commit), and no leading `-`.
 */
export function isRevision(value: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  return value.length > 0 && value.length <= 512 && !value.startsWith('-') && !/[\s\x00-\x1f\x7f:\\]/.test(value);
}

/** Branch, tag and commit lookups. Ref names are validated before git sees them. */
@Injectable()
export class Refs {
  constructor(
    private readonly git: GitService,
    private readonly objects: GitObjects,
  ) {}

  async branchHead(repoId: number, branch: string): Promise<string | null> {
    if (!isValidRefName(branch)) return null;
    return this.objects.resolveCommit(repoId, `refs/heads/${branch}`);
  }

  async tagCommit(repoId: number, tag: string): Promise<string | null> {
    if (!isValidRefName(tag)) return null;
    return this.objects.resolveCommit(repoId, `refs/tags/${tag}`);
  }

  /** A commit by full or abbreviated id (null when unknown or ambiguous). */
  async commitById(repoId: number, id: string): Promise<string | null> {
    if (!HEX.test(id) || id.length < 4) return null;
    return this.objects.resolveCommit(repoId, id);
  }

  /**
   * Gitea's ResolveRefCommit: `refs/heads/x`, `refs/tags/x`, a branch, a tag, then a commit id
   * of at least `minShaLength` characters (the full length unless given).
   */
  async resolve(repoId: number, inputRef: string, objectFormat: 'sha1' | 'sha256', minShaLength?: number): Promise<RefCommit | null> {
    let kind: RefKind | undefined;
    let name = inputRef;
    let sha: string | null = null;
    if (inputRef.startsWith('refs/heads/')) {
      name = inputRef.slice('refs/heads/'.length);
      sha = await this.branchHead(repoId, name);
      kind = 'branch';
    } else if (inputRef.startsWith('refs/tags/')) {
      name = inputRef.slice('refs/tags/'.length);
      sha = await this.tagCommit(repoId, name);
      kind = 'tag';
    } else if ((sha = await this.branchHead(repoId, inputRef))) {
      kind = 'branch';
    } else if ((sha = await this.tagCommit(repoId, inputRef))) {
      kind = 'tag';
    } else if (isLikelyCommitId(inputRef, objectFormat, minShaLength)) {
      sha = await this.commitById(repoId, inputRef);
      kind = 'commit';
    }
    if (!sha || !kind) return null;
    const commit = await this.objects.commit(repoId, sha);
    if (!commit) return null;
    return { inputRef, kind, name: kind === 'commit' ? commit.sha : name, commit };
  }

  /**
   * Any revision a user may name for a commit: a branch, a tag, then whatever git itself resolves
   * (an abbreviated id, `HEAD`, `main~2`, `v1^`), as Gitea's GetCommit does through cat-file.
   */
  async anyCommit(repoId: number, rev: string): Promise<GitCommit | null> {
    const sha =
      (await this.branchHead(repoId, rev)) ??
      (await this.tagCommit(repoId, rev)) ??
      (isRevision(rev) ? await this.objects.resolveCommit(repoId, rev) : null);
    return sha ? this.objects.commit(repoId, sha) : null;
  }

  /** Every branch with its head and the head's committer time. */
  async branches(repoId: number): Promise<BranchRef[]> {
    const out = await this.git.run(repoId, [
      'for-each-ref',
      '--format=%(refname:strip=2)%00%(objectname)%00%(committerdate:unix)',
      'refs/heads/',
    ]);
    return out.stdout
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [name, sha, time] = line.split('\0') as [string, string, string];
        return { name, sha, committerTime: Number(time) || 0 };
      });
  }

  /**
   * Every tag with its commit, date and message, in Gitea's order (for-each-ref sorted by the
   * tagged commit's date, newest first). A lightweight tag's date and message are its commit's.
   */
  async tags(repoId: number): Promise<TagRef[]> {
    const format = '%1e%(refname:strip=2)%00%(objectname)%00%(*objectname)%00%(creator)%00%(contents)';
    const out = await this.git.run(repoId, ['for-each-ref', `--format=${format}`, '--sort=-*creatordate', 'refs/tags/']);
    return out.stdout
      .toString('utf8')
      .split('\x1e')
      .filter((record) => record.length > 0)
      .map((record) => {
        const [name = '', id = '', peeled = '', creator = '', ...message] = record.split('\0');
        // The record's own newline ends it; the message keeps its own, as Gitea sends it.
        return { name, id, commit: peeled || id, creator: parseSignature(creator), message: withoutSignature(message.join('\0').replace(/\n$/, '')) };
      });
  }

  /** Every ref with the object it points at and that object's type (Gitea's GetRefsFiltered). */
  async all(repoId: number): Promise<Array<{ name: string; sha: string; type: string }>> {
    const out = await this.git.run(repoId, ['for-each-ref', '--format=%(objectname) %(objecttype) %(refname)']);
    return out.stdout
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [sha = '', type = '', ...name] = line.split(' ');
        return { sha, type, name: name.join(' ') };
      });
  }

  /** Whether a tag of that name exists (a branch may not take its name). */
  async tagExists(repoId: number, tag: string): Promise<boolean> {
    if (!isValidRefName(tag)) return false;
    return (await this.objects.info(repoId, `refs/tags/${tag}`)) !== null;
  }
}

/** Gitea's RefWebLinkPath: `branch/<name>`, `tag/<name>` or `commit/<sha>`, path-escaped. */
export function refWebLinkPath(ref: { kind: RefKind; name: string }): string {
  return `${ref.kind}/${escapePathSegments(ref.name)}`;
}

