import { Injectable } from '@nestjs/common';
import { CatFilePool, type GitObjectInfo } from './cat-file.pool.js';
import { Lru } from '@gitforge/platform';

/**
 * A tag's message without the signature block `%(contents)` ends with (Gitea's
 * parsePayloadSignature): up to the newline before its BEGIN line, when an END line follows.
 */
export function withoutSignature(contents: string): string {
  // The last BEGIN line whose END line follows, as Gitea's loop over the lines finds it.
  let cut = -1;
  for (const begin of contents.matchAll(/^-----BEGIN (.+) SIGNATURE-----$/gm)) {
    if (contents.includes(`\n-----END ${begin[1]} SIGNATURE-----`, begin.index)) cut = begin.index;
  }
  return cut < 0 ? contents : contents.slice(0, Math.max(0, cut - 1));
}

/** A commit's author or committer: `when` in epoch seconds, `tz` as git writes it (`+0200`). */
export interface GitSignature {
  name: string;
  email: string;
  when: number;
  tz: string;
}

export interface GitCommit {
  sha: string;
  tree: string;
  parents: string[];
  author: GitSignature;
  committer: GitSignature;
  /** The message as stored (usually ending in a newline), as Gitea returns it. */
  message: string;
  /** The `encoding` header, present only when the commit names one (its message is then in it). */
  encoding?: string;
}

export type GitEntryType = 'blob' | 'tree' | 'commit';

export interface GitTreeEntry {
  /** Six octal digits: 100644, 100755, 120000, 040000, 160000. */
  mode: string;
  type: GitEntryType;
  sha: string;
  name: string;
}

/** A tree entry found by path (`path` '' is the root tree). */
export interface GitPathEntry extends GitTreeEntry {
  path: string;
}

export const isExecutable = (e: { mode: string }): boolean => e.mode === '100755';
export const isSymlink = (e: { mode: string }): boolean => e.mode === '120000';
export const isSubmodule = (e: { mode: string }): boolean => e.mode === '160000';
export const isDir = (e: { mode: string }): boolean => e.mode === '040000';

const SIGNATURE = /^(.*?) ?<([^>]*)> (-?\d+) ([+-]\d{4})$/;

export function parseSignature(line: string): GitSignature {
  const m = SIGNATURE.exec(line);
  if (!m) return { name: line, email: '', when: 0, tz: '+0000' };
  return { name: m[1]!, email: m[2]!, when: Number(m[3]), tz: m[4]! };
}

/** An annotated tag object. */
export interface GitTag {
  sha: string;
  /** The tagged object and its type (usually a commit). */
  object: string;
  type: string;
  name: string;
  tagger: GitSignature;
  message: string;
}

export function parseTag(sha: string, data: Buffer): GitTag {
  const text = data.toString('utf8');
  const split = text.indexOf('\n\n');
  const tag: GitTag = { sha, object: '', type: '', name: '', tagger: parseSignature(''), message: split < 0 ? '' : withoutSignature(text.slice(split + 2)) };
  for (const line of (split < 0 ? text : text.slice(0, split)).split('\n')) {
    const space = line.indexOf(' ');
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === 'object') tag.object = value;
    else if (key === 'type') tag.type = value;
    else if (key === 'tag') tag.name = value;
    else if (key === 'tagger') tag.tagger = parseSignature(value);
  }
  return tag;
}

export function parseCommit(sha: string, data: Buffer): GitCommit {
  const text = data.toString('utf8');
  const split = text.indexOf('\n\n');
  const headers = split < 0 ? text : text.slice(0, split);
  const message = split < 0 ? '' : text.slice(split + 2);
  const commit: GitCommit = {
    sha,
    tree: '',
    parents: [],
    author: parseSignature(''),
    committer: parseSignature(''),
    message,
  };
  for (const line of headers.split('\n')) {
    if (line.startsWith(' ')) continue; // continuation of a multi-line header (gpgsig, mergetag)
    const space = line.indexOf(' ');
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === 'tree') commit.tree = value;
    else if (key === 'parent') commit.parents.push(value);
    else if (key === 'author') commit.author = parseSignature(value);
    else if (key === 'committer') commit.committer = parseSignature(value);
    else if (key === 'encoding') commit.encoding = value;
  }
  return commit;
}

/** Parses a raw tree object (`<mode> <name>\0<binary id>` entries). */
export function parseTree(data: Buffer, idBytes: number): GitTreeEntry[] {
  const entries: GitTreeEntry[] = [];
  let i = 0;
  while (i < data.length) {
    const space = data.indexOf(0x20, i);
    const nul = data.indexOf(0, space);
    const rawMode = data.subarray(i, space).toString('ascii');
    const mode = rawMode.padStart(6, '0');
    const name = data.subarray(space + 1, nul).toString('utf8');
    const sha = data.subarray(nul + 1, nul + 1 + idBytes).toString('hex');
    const type: GitEntryType = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    entries.push({ mode, type, sha, name });
    i = nul + 1 + idBytes;
  }
  return entries;
}

/**
 * Reads commits, trees and blobs through the cat-file pool. Parsed commits and trees are cached:
 * objects never change, and the key includes the repository so a cached object is only answered
 * for a repository that has it.
 */
@Injectable()
export class GitObjects {
  private readonly commits = new Lru<string, GitCommit>(20_000);
  private readonly trees = new Lru<string, GitTreeEntry[]>(400_000, (entries) => Math.max(1, entries.length));
  private readonly blobSizes = new Lru<string, number>(1_000_000);

  constructor(private readonly pool: CatFilePool) {}

  info(repoId: number, name: string): Promise<GitObjectInfo | null> {
    return this.pool.info(repoId, name);
  }

  /** The object id `name` resolves to, peeled to a commit (a ref name, a full or short sha), or null. */
  async resolveCommit(repoId: number, name: string): Promise<string | null> {
    const info = await this.pool.info(repoId, `${name}^{commit}`);
    return info?.type === 'commit' ? info.oid : null;
  }

  /** An annotated tag object by id (null for anything else). */
  async tag(repoId: number, sha: string): Promise<GitTag | null> {
    const obj = await this.pool.read(repoId, sha);
    return obj?.type === 'tag' ? parseTag(obj.oid, obj.data) : null;
  }

  async commit(repoId: number, sha: string): Promise<GitCommit | null> {
    const key = `${repoId}:${sha}`;
    const hit = this.commits.get(key);
    if (hit) return hit;
    const obj = await this.pool.read(repoId, sha);
    if (!obj || obj.type !== 'commit') return null;
    const commit = parseCommit(obj.oid, obj.data);
    this.commits.set(key, commit);
    return commit;
  }

  async tree(repoId: number, sha: string): Promise<GitTreeEntry[] | null> {
    const key = `${repoId}:${sha}`;
    const hit = this.trees.get(key);
    if (hit) return hit;
    const obj = await this.pool.read(repoId, sha);
    if (!obj || obj.type !== 'tree') return null;
    const entries = parseTree(obj.data, obj.oid.length / 2);
    this.trees.set(key, entries);
    return entries;
  }

  async blob(repoId: number, sha: string): Promise<Buffer | null> {
    const obj = await this.pool.read(repoId, sha);
    return obj && obj.type === 'blob' ? obj.data : null;
  }

  /** The entry at `path` (segments joined by `/`, '' for the root) in a commit's tree, or null. */
  async entry(repoId: number, commit: GitCommit, path: string): Promise<GitPathEntry | null> {
    let current: GitPathEntry = { mode: '040000', type: 'tree', sha: commit.tree, name: '', path: '' };
    if (path === '') return current;
    const parts = path.split('/');
    for (let i = 0; i < parts.length; i++) {
      if (current.type !== 'tree') return null;
      const entries = await this.tree(repoId, current.sha);
      const found = entries?.find((e) => e.name === parts[i]);
      if (!found) return null;
      current = { ...found, path: parts.slice(0, i + 1).join('/') };
    }
    return current;
  }

  /** Sizes of several blobs at once (pipelined on the batch-check process). */
  async sizes(repoId: number, shas: string[]): Promise<Map<string, number>> {
    const result = new Map<string, number>();
    const missing: string[] = [];
    for (const sha of new Set(shas)) {
      const hit = this.blobSizes.get(`${repoId}:${sha}`);
      if (hit === undefined) missing.push(sha);
      else result.set(sha, hit);
    }
    const infos = await Promise.all(missing.map((sha) => this.pool.info(repoId, sha)));
    missing.forEach((sha, i) => {
      const size = infos[i]?.size ?? 0;
      if (infos[i]) this.blobSizes.set(`${repoId}:${sha}`, size);
      result.set(sha, size);
    });
    return result;
  }
}
