import { Injectable } from '@nestjs/common';
import {
  ContractError,
  GIT_TREES_PER_PAGE,
  MAX_BLOB_SIZE,
  MAX_FILES_RESPONSE_BYTES,
  MAX_PAGE_LIMIT,
  notFound,
  type Actor,
  type ContentsExtResponse,
  type ContentsResponse,
  type GitBlobResponse,
  type GitEntry,
  type GitTreeResponse,
  type RawFile,
  pathEscape,
} from '@gitforge/contracts';
import { Lru, PlatformConfig } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import { GitObjects, isDir, isSubmodule, isSymlink, type GitCommit, type GitTreeEntry } from '../git/git-objects.js';
import { GitService } from '../git/git.service.js';
import { LastCommits } from '../git/last-commits.js';
import { isLikelyCommitId, isRevision, Refs, type RefCommit } from '../git/refs.js';
import { toContentsResponse, toGitBlobResponse, type EntryFacts } from './contents.mapper.js';
import { LFS_POINTER_MAX_SIZE, LfsStore, parseLfsPointer, type LfsPointer } from './lfs.js';
import { codeReader, type RepoView } from './repo-view.js';
import { cleanTreePath, requireTreePath, splitPath } from './tree-path.js';


export interface ContentOptions {
  fileContent: boolean;
  lfsMetadata: boolean;
  commitMetadata: boolean;
  commitMessage: boolean;
}

const INCLUDES: Record<string, keyof ContentOptions> = {
  file_content: 'fileContent',
  lfs_metadata: 'lfsMetadata',
  commit_metadata: 'commitMetadata',
  commit_message: 'commitMessage',
};

/**
 * Reads a repository's tree: contents, contents-ext, raw and media, git blobs and trees.
 * Directory listings are cached whole: everything in one depends only on the commit, the path,
 * the options and how the ref was named (its URLs), none of which can change under a key.
 */
@Injectable()
export class ContentsService {
  private readonly listings = new Lru<string, ContentsResponse[]>(200_000, (entries) => Math.max(1, entries.length));

  constructor(
    private readonly access: RepoAccessService,
    private readonly git: GitService,
    private readonly objects: GitObjects,
    private readonly refs: Refs,
    private readonly lastCommits: LastCommits,
    private readonly lfs: LfsStore,
    private readonly config: PlatformConfig,
  ) {}

  /** `GET …/contents/{filepath}`: an object for a file, an array for a directory. */
  async contents(actor: Actor | null, owner: string, repo: string, rawPath: string, ref?: string): Promise<ContentsResponse | ContentsResponse[]> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    const result = await this.contentsOrList(view, rawPath, ref, {
      fileContent: true,
      lfsMetadata: false,
      commitMetadata: true,
      commitMessage: false,
    });
    return result.file_contents ?? result.dir_contents ?? [];
  }

  /** `GET …/contents-ext/{filepath}`: exactly one of `file_contents` / `dir_contents`. */
  async contentsExt(actor: Actor | null, owner: string, repo: string, rawPath: string, ref?: string, includes?: string): Promise<ContentsExtResponse> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    const options: ContentOptions = { fileContent: false, lfsMetadata: false, commitMetadata: false, commitMessage: false };
    for (const token of (includes ?? '').split(',')) {
      if (token === '') continue;
      const key = INCLUDES[token];
      if (!key) throw new ContractError('invalid_argument', `unknown include option "${token}"`);
      options[key] = true;
    }
    return this.contentsOrList(view, rawPath === '.' || rawPath === '/' ? '' : rawPath, ref, options);
  }

  /**
   * `GET|POST …/file-contents` (Gitea's GetContentsListFromTreePaths): each path with its
   * content, LFS and last-commit facts, or null where nothing is; contents stop being included
   * once the answer holds MAX_FILES_RESPONSE_BYTES of them.
   */
  async files(actor: Actor | null, owner: string, repo: string, ref: string | undefined, paths: string[]): Promise<Array<ContentsResponse | null>> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    if (paths.length > MAX_PAGE_LIMIT) throw new ContractError('invalid_argument', `pagesize must be less than or equal to ${MAX_PAGE_LIMIT}`);
    const refCommit = await this.resolveRef(view, ref);
    const out: Array<ContentsResponse | null> = [];
    let size = 0;
    for (const raw of paths) {
      const path = cleanTreePath(raw);
      const entry = path === null ? null : await this.objects.entry(view.repoId, refCommit.commit, path);
      if (path === null || !entry) {
        out.push(null);
        continue;
      }
      const options = { fileContent: size < MAX_FILES_RESPONSE_BYTES, lfsMetadata: true, commitMetadata: true, commitMessage: true };
      const [facts] = await this.facts(view, refCommit, splitPath(path).dir, [entry], options);
      const response = toContentsResponse(view.urls, refCommit, facts!);
      if (response.content !== null) size += response.size;
      out.push(response);
    }
    return out;
  }

  /** Gitea's GetContentsOrList; directory entries never carry content. */
  private async contentsOrList(view: RepoView, rawPath: string, ref: string | undefined, options: ContentOptions): Promise<ContentsExtResponse> {
    const path = requireTreePath(rawPath);
    const refCommit = await this.resolveRef(view, ref);
    const entry = await this.objects.entry(view.repoId, refCommit.commit, path);
    if (!entry) throw notFound();
    if (!isDir(entry)) {
      const { dir } = splitPath(path);
      const [facts] = await this.facts(view, refCommit, dir, [entry], options);
      return { file_contents: toContentsResponse(view.urls, refCommit, facts!) };
    }
    const key = [view.repoId, view.urls.api, refCommit.commit.sha, refCommit.kind, refCommit.name, refCommit.inputRef, path, options.lfsMetadata, options.commitMetadata, options.commitMessage].join('\0');
    const cached = this.listings.get(key);
    if (cached) return { dir_contents: cached };
    const entries = (await this.objects.tree(view.repoId, entry.sha)) ?? [];
    const facts = await this.facts(view, refCommit, path, entries, { ...options, fileContent: false });
    const listing = facts.map((f) => toContentsResponse(view.urls, refCommit, f));
    this.listings.set(key, listing);
    return { dir_contents: listing };
  }

  /** The ref (default branch when empty) as a branch, tag or full commit id; 404 otherwise. */
  async resolveRef(view: RepoView, ref: string | undefined): Promise<RefCommit> {
    const input = ref?.trim() || view.ctx.repo.defaultBranch;
    const resolved = await this.refs.resolve(view.repoId, input, view.objectFormat);
    if (!resolved) throw notFound(`object does not exist [id: ${input}, rel_path: ]`);
    return resolved;
  }

  /** The ContentsResponse of `path` at `ref`, or null when nothing is there (file change responses). */
  async entryResponse(view: RepoView, ref: RefCommit, path: string): Promise<ContentsResponse | null> {
    const entry = await this.objects.entry(view.repoId, ref.commit, path);
    if (!entry || isDir(entry)) return null;
    const [facts] = await this.facts(view, ref, splitPath(path).dir, [entry], {
      fileContent: true,
      lfsMetadata: true,
      commitMetadata: true,
      commitMessage: false,
    });
    return toContentsResponse(view.urls, ref, facts!);
  }

  /** Sizes, last commits, contents, symlink targets and submodule URLs of entries of one directory. */
  private async facts(view: RepoView, ref: RefCommit, dir: string, entries: GitTreeEntry[], options: ContentOptions): Promise<EntryFacts[]> {
    const { repoId } = view;
    const prefix = dir === '' ? '' : `${dir}/`;
    const blobs = entries.filter((e) => e.type === 'blob');
    const sizes = await this.objects.sizes(repoId, blobs.map((e) => e.sha));
    let lastCommits: Map<string, GitCommit> | undefined;
    if (options.commitMetadata || options.commitMessage) {
      const shas = await this.lastCommits.forEntries(repoId, ref.commit.sha, dir, entries.map((e) => e.name));
      const commits = await Promise.all([...new Set(shas.values())].map((sha) => this.objects.commit(repoId, sha)));
      const bySha = new Map(commits.filter((c): c is GitCommit => c !== null).map((c) => [c.sha, c]));
      lastCommits = new Map([...shas].flatMap(([name, sha]) => (bySha.has(sha) ? [[name, bySha.get(sha)!] as const] : [])));
    }
    const submodules = entries.some(isSubmodule) ? await this.submoduleUrls(repoId, ref.commit) : new Map<string, string>();
    return Promise.all(
      entries.map(async (entry): Promise<EntryFacts> => {
        const facts: EntryFacts = {
          path: prefix + entry.name,
          entry,
          size: entry.type === 'blob' ? (sizes.get(entry.sha) ?? 0) : 0,
          lastCommit: lastCommits?.get(entry.name),
          withMetadata: options.commitMetadata,
          withMessage: options.commitMessage,
        };
        if (isSymlink(entry)) {
          facts.symlinkTarget = ((await this.objects.blob(repoId, entry.sha)) ?? Buffer.alloc(0)).subarray(0, 1024).toString('utf8');
        } else if (isSubmodule(entry)) {
          facts.submoduleUrl = submodules.get(facts.path) ?? null;
        } else if (entry.type === 'blob') {
          if (options.fileContent) facts.blob = await this.blobContent(repoId, entry.sha, facts.size);
          else if (options.lfsMetadata && facts.size <= LFS_POINTER_MAX_SIZE) facts.lfs = parseLfsPointer((await this.objects.blob(repoId, entry.sha)) ?? Buffer.alloc(0));
        }
        return facts;
      }),
    );
  }

  /** Gitea's GetBlobBySHA: base64 content unless too large, and the LFS pointer a small blob holds. */
  private async blobContent(repoId: number, sha: string, size: number): Promise<{ content: string | null; lfs: LfsPointer | null }> {
    if (size > MAX_BLOB_SIZE) return { content: null, lfs: null };
    const data = (await this.objects.blob(repoId, sha)) ?? Buffer.alloc(0);
    return { content: data.toString('base64'), lfs: size > 0 && size < LFS_POINTER_MAX_SIZE ? parseLfsPointer(data) : null };
  }

  /** `path → url` from the commit's `.gitmodules`. */
  private async submoduleUrls(repoId: number, commit: GitCommit): Promise<Map<string, string>> {
    const entry = await this.objects.entry(repoId, commit, '.gitmodules');
    const data = entry?.type === 'blob' ? await this.objects.blob(repoId, entry.sha) : null;
    return parseGitmodules(data?.toString('utf8') ?? '');
  }

  /** `GET …/raw/{filepath}` and `…/media/{filepath}` (the latter serves an LFS pointer's object when stored). */
  async raw(actor: Actor | null, owner: string, repo: string, rawPath: string, ref: string | undefined, media: boolean): Promise<RawFile> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    if (view.ctx.repo.isEmpty) throw notFound();
    const { commit, treePath } = await this.legacyRef(view, rawPath, ref?.trim() ?? '');
    const path = requireTreePath(treePath);
    const entry = commit ? await this.objects.entry(view.repoId, commit, path) : null;
    if (!commit || !entry || entry.type !== 'blob') throw notFound();
    const data = (await this.objects.blob(view.repoId, entry.sha)) ?? Buffer.alloc(0);
    const { dir, name } = splitPath(path);
    const last = (await this.lastCommits.forEntries(view.repoId, commit.sha, dir, [name])).get(name);
    const lastCommit = last ? await this.objects.commit(view.repoId, last) : null;
    const lastModified = lastCommit ? new Date(lastCommit.committer.when * 1000).toUTCString() : null;
    const objectType = isSymlink(entry) ? 'symlink' : 'file';
    if (media && data.length <= LFS_POINTER_MAX_SIZE) {
      const pointer = parseLfsPointer(data);
      const object = pointer ? await this.lfs.read(view.repoId, pointer) : null;
      if (pointer && object) {
        return { content: object.toString('base64'), name, size: object.length, objectType, etag: pointer.oid, lastModified };
      }
    }
    return { content: data.toString('base64'), name, size: data.length, objectType, etag: entry.sha, lastModified };
  }

  /**
   * Gitea's getRefNameLegacy for raw and media: `ref` (when given) and the path are joined, then
   * the shortest leading part naming a branch, else a tag, else a full commit id is the ref;
   * without a match the whole path is read from the default branch.
   */
  private async legacyRef(view: RepoView, rawPath: string, ref: string): Promise<{ commit: GitCommit | null; treePath: string }> {
    const joined = [ref, rawPath].filter(Boolean).join('/');
    const parts = joined.split('/');
    for (const kind of ['branch', 'tag'] as const) {
      for (let i = 1; i <= parts.length; i++) {
        const name = parts.slice(0, i).join('/');
        const sha = kind === 'branch' ? await this.refs.branchHead(view.repoId, name) : await this.refs.tagCommit(view.repoId, name);
        if (sha) return { commit: await this.objects.commit(view.repoId, sha), treePath: parts.slice(i).join('/') };
      }
    }
    if (isLikelyCommitId(parts[0]!, view.objectFormat)) {
      return { commit: await this.objects.commit(view.repoId, parts[0]!), treePath: parts.slice(1).join('/') };
    }
    const head = await this.refs.branchHead(view.repoId, view.ctx.repo.defaultBranch);
    return { commit: head ? await this.objects.commit(view.repoId, head) : null, treePath: rawPath };
  }

  /** `GET …/git/blobs/{sha}`. */
  async blob(actor: Actor | null, owner: string, repo: string, sha: string): Promise<GitBlobResponse> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    // Gitea answers 400 for any id it cannot read as a blob, abbreviated ones included.
    const missing = new ContractError('invalid_argument', `object does not exist [id: ${sha}, rel_path: ]`);
    if (!isLikelyCommitId(sha, view.objectFormat)) throw missing;
    const info = await this.objects.info(view.repoId, sha);
    if (!info || info.type !== 'blob') throw missing;
    const { content, lfs } = await this.blobContent(view.repoId, info.oid, info.size);
    return toGitBlobResponse(view.urls, info.oid, info.size, content, lfs);
  }

  /**
   * `GET …/git/trees/{sha}`: a tree, or a commit's or tag's tree, by full id, branch or tag.
   * Like Gitea, `sha` in the answer is always the tree's own id, whatever `sha` named.
   */
  async tree(actor: Actor | null, owner: string, repo: string, sha: string, query: { recursive?: unknown; page?: unknown; per_page?: unknown }): Promise<GitTreeResponse> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    const tree = await this.treeOf(view, sha);
    if (!tree) throw new ContractError('invalid_argument', `sha not found [${sha}]`);
    const recursive = query.recursive === true || query.recursive === 'true' || query.recursive === '1';
    const entries = recursive ? await this.lsTreeRecursive(view.repoId, tree) : await this.lsTree(view.repoId, tree);
    const toInt = (v: unknown): number => Number.parseInt(String(v ?? ''), 10) || 0;
    let perPage = toInt(query.per_page);
    if (perPage <= 0 || perPage > GIT_TREES_PER_PAGE) perPage = GIT_TREES_PER_PAGE;
    const page = Math.max(1, toInt(query.page));
    const res: GitTreeResponse = {
      sha: tree,
      url: `${view.urls.api}/git/trees/${pathEscape(tree)}`,
      tree: null,
      truncated: false,
      page,
      total_count: entries.length,
    };
    const start = perPage * (page - 1);
    if (start >= entries.length) return res;
    const end = Math.min(start + perPage, entries.length);
    res.truncated = end < entries.length;
    res.tree = entries.slice(start, end).map((e) => ({
      ...e,
      url: e.type === 'tree' ? `${view.urls.api}/git/trees/${e.sha}` : e.type === 'commit' ? '' : `${view.urls.api}/git/blobs/${e.sha}`,
    }));
    return res;
  }

  /**
   * Gitea's GetTree: a full id as it is, anything else (branch, tag, abbreviated id) resolved
   * first; a commit or a tag stands for its commit's tree. Answers the tree's id.
   */
  private async treeOf(view: RepoView, sha: string): Promise<string | null> {
    let id = sha;
    if (!isLikelyCommitId(sha, view.objectFormat)) {
      const resolved = (await this.refs.branchHead(view.repoId, sha)) ?? (isRevision(sha) ? (await this.objects.info(view.repoId, sha))?.oid : null);
      if (!resolved) return null;
      id = resolved;
    }
    const info = await this.objects.info(view.repoId, id);
    if (info?.type === 'tree') return info.oid;
    if (info?.type !== 'commit' && info?.type !== 'tag') return null;
    const commit = await this.objects.resolveCommit(view.repoId, info.oid);
    const c = commit ? await this.objects.commit(view.repoId, commit) : null;
    return c ? c.tree : null;
  }

  private async lsTree(repoId: number, tree: string): Promise<Array<Omit<GitEntry, 'url'>>> {
    const entries = (await this.objects.tree(repoId, tree)) ?? [];
    const sizes = await this.objects.sizes(
      repoId,
      entries.filter((e) => e.type === 'blob').map((e) => e.sha),
    );
    return entries.map((e) => ({ path: e.name, mode: e.mode, type: e.type, size: e.type === 'blob' ? (sizes.get(e.sha) ?? 0) : 0, sha: e.sha }));
  }

  private async lsTreeRecursive(repoId: number, tree: string): Promise<Array<Omit<GitEntry, 'url'>>> {
    const out = await this.git.run(repoId, ['ls-tree', '-t', '-r', '-l', '-z', '--full-tree', '--end-of-options', tree]);
    return out.stdout
      .toString('utf8')
      .split('\0')
      .filter(Boolean)
      .map((line) => {
        // <mode> SP <type> SP <object> SP+ <size> TAB <path>
        const tab = line.indexOf('\t');
        const [mode, type, sha, size] = line.slice(0, tab).split(/ +/) as [string, string, string, string];
        return { path: line.slice(tab + 1), mode: mode.padStart(6, '0'), type, size: Number(size) || 0, sha };
      });
  }
}

/** `path → url` of the submodules a `.gitmodules` file declares. */
export function parseGitmodules(text: string): Map<string, string> {
  const urls = new Map<string, string>();
  let path: string | undefined;
  let url: string | undefined;
  const flush = (): void => {
    if (path !== undefined && url !== undefined) urls.set(path, url);
    path = undefined;
    url = undefined;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      flush();
      continue;
    }
    const m = /^(path|url)\s*=\s*(.*)$/.exec(line);
    if (m?.[1] === 'path') path = m[2]!.trim();
    else if (m?.[1] === 'url') url = m[2]!.trim();
  }
  flush();
  return urls;
}

