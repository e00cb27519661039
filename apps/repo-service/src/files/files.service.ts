import { Injectable } from '@nestjs/common';
import {
  ContractError,
  forbidden,
  notFound,
  unprocessable,
  type Actor,
  type ChangeFilesOptions,
  type CreateFileOptions,
  type DeleteFileOptions,
  type FileDeleteResponse,
  type FileOperation,
  type FileOptions,
  type FileResponse,
  type FilesResponse,
  type UpdateFileOptions,
  type User,
} from '@gitforge/contracts';
import { Database, DirectoryClient, PlatformConfig } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import { BranchPolicy } from '../branches/branch-policy.js';
import { toFileCommitResponse, unsignedVerification } from '../commits/commit.mapper.js';
import { ContentsService } from '../contents/contents.service.js';
import { repoView, type RepoView } from '../contents/repo-view.js';
import { cleanTreePath, invalidPath } from '../contents/tree-path.js';
import { CommitWriter, type CommitSignature, type TreeChange } from '../git/commit-writer.js';
import { GitObjects, isDir, isExecutable, isSubmodule, isSymlink, type GitCommit } from '../git/git-objects.js';
import { gitName } from '../git/git-identity.js';
import { LastCommits } from '../git/last-commits.js';
import { Refs } from '../git/refs.js';
import { PushesService } from '../pushes/pushes.service.js';

/** One file of a change, as the API gave it. */
export interface FileChange {
  operation: FileOperation;
  path: string;
  fromPath?: string;
  content?: Buffer;
  sha?: string;
}

interface PlannedChange extends FileChange {
  treePath: string;
  fromTreePath: string;
}

/** Gitea answers at most this many files in a multi-file change response (`[api] DEFAULT_PAGING_NUM`). */
const MAX_RESPONSE_FILES = 30;
/** How often a write is rebuilt on top of a branch another writer moved meanwhile. */
const MAX_ATTEMPTS = 10;

/**
 * File changes through the API (Gitea's ChangeRepoFiles): one commit written with plumbing on top
 * of the branch head, then a compare-and-swap of the branch. A writer that loses the race rebuilds
 * its commit on the new head (its checks run again), so concurrent writers never overwrite each other.
 */
@Injectable()
export class FilesService {
  constructor(
    private readonly db: Database,
    private readonly access: RepoAccessService,
    private readonly objects: GitObjects,
    private readonly lastCommits: LastCommits,
    private readonly refs: Refs,
    private readonly writer: CommitWriter,
    private readonly contents: ContentsService,
    private readonly directory: DirectoryClient,
    private readonly pushes: PushesService,
    private readonly policy: BranchPolicy,
    private readonly config: PlatformConfig,
  ) {}

  async create(actor: Actor | null, owner: string, repo: string, path: string, body: CreateFileOptions): Promise<FileResponse> {
    const res = await this.change(actor, owner, repo, body, [{ operation: 'create', path, content: decodeContent(body.content) }]);
    return single(res);
  }

  /** Without `sha` the file is created (201 at the gateway), with it replaced (200). */
  async update(actor: Actor | null, owner: string, repo: string, path: string, body: UpdateFileOptions): Promise<FileResponse> {
    const change: FileChange = body.sha
      ? { operation: 'update', path, fromPath: body.from_path || undefined, content: decodeContent(body.content), sha: body.sha }
      : { operation: 'create', path, fromPath: body.from_path || undefined, content: decodeContent(body.content) };
    return single(await this.change(actor, owner, repo, body, [change]));
  }

  async delete(actor: Actor | null, owner: string, repo: string, path: string, body: DeleteFileOptions): Promise<FileDeleteResponse> {
    const res = await this.change(actor, owner, repo, body, [{ operation: 'delete', path, sha: body.sha }]);
    return { content: null, commit: res.commit, verification: res.verification };
  }

  async changeFiles(actor: Actor | null, owner: string, repo: string, body: ChangeFilesOptions): Promise<FilesResponse> {
    const changes = body.files.map(
      (f): FileChange => ({
        operation: f.operation,
        path: f.path,
        fromPath: f.from_path || undefined,
        content: f.operation === 'delete' || f.operation === 'rename' ? undefined : decodeContent(f.content),
        sha: f.sha || undefined,
      }),
    );
    return this.change(actor, owner, repo, body, changes);
  }

  private async change(actor: Actor | null, owner: string, repoName: string, opts: FileOptions, changes: FileChange[]): Promise<FilesResponse> {
    // Gitea's order: repoAssignment, reqRepoReader(code), mustEnableEditor, reqToken, reqRepoWriter(code).
    const ctx = await this.access.assign(actor, owner, repoName);
    const repo = ctx.repo;
    if (!ctx.permission.canRead('repo.code')) throw forbidden('user should have specific read permission or be a repo admin or a site admin');
    if (repo.isArchived || repo.isMirror) throw new ContractError('locked', 'repo is not allowed to edit');
    if (!actor) throw new ContractError('unauthenticated', 'token is required');
    if (!ctx.permission.canWrite('repo.code')) throw forbidden('user should have a permission to write to the target branch');
    const view = repoView(ctx, this.config);
    const oldBranch = opts.branch || repo.defaultBranch;
    const newBranch = opts.new_branch || oldBranch;
    const planned = changes.map((c): PlannedChange => {
      const treePath = cleanTreePath(c.path);
      if (!treePath) throw invalidPath(c.path);
      const fromTreePath = c.fromPath === undefined ? treePath : cleanTreePath(c.fromPath);
      if (fromTreePath === null) throw invalidPath(c.fromPath!);
      return { ...c, treePath, fromTreePath: fromTreePath || treePath };
    });
    const message = (opts.message ?? '').trim() || defaultMessage(changes);

    if (!repo.isEmpty && !(await this.refs.branchHead(repo.id, oldBranch))) {
      throw notFound(`branch does not exist [repo_id: ${repo.id} name: ${oldBranch}]`);
    }
    if (repo.isEmpty && planned.some((c) => c.operation === 'delete')) throw notFound(`branch does not exist [name: ${oldBranch}]`);
    if (newBranch !== oldBranch && !opts.force_push && (await this.refs.branchHead(repo.id, newBranch))) {
      throw unprocessable(`branch already exists [name: ${newBranch}]`);
    }
    const refused = await this.policy.checkFileChange(ctx, actor, newBranch, planned.map((c) => c.treePath));
    if (refused) throw refused;

    const sender = await this.directory.actorUser(actor);
    const { author, committer } = signatures(opts, sender);
    const signed = opts.signoff ? `${message}\n\nSigned-off-by: ${committer.name} <${committer.email}>` : `${message}\n`;

    // The transaction holds no rows: it records the request, so a retried call answers the
    // commit already written instead of committing twice.
    const written = await this.db.transaction(async () => {
      for (let attempt = 1; ; attempt++) {
        const parentSha = repo.isEmpty ? null : await this.refs.branchHead(repo.id, oldBranch);
        if (!repo.isEmpty && !parentSha) throw notFound(`branch does not exist [repo_id: ${repo.id} name: ${oldBranch}]`);
        const parent = parentSha ? await this.objects.commit(repo.id, parentSha) : null;
        const tree = await this.plan(view, parent, planned);
        const commit = await this.writer.write(repo.id, { parent: parentSha, changes: tree, message: signed, author, committer }, view.objectFormat);
        const expected = newBranch === oldBranch ? parentSha : opts.force_push ? await this.refs.branchHead(repo.id, newBranch) : null;
        const moved = await this.writer.updateRef(repo.id, `refs/heads/${newBranch}`, commit, expected, view.objectFormat);
        if (moved === 'name-conflict' || (moved === 'stale' && newBranch !== oldBranch && !opts.force_push)) {
          throw unprocessable(`branch already exists [name: ${newBranch}]`);
        }
        if (moved === 'stale') {
          if (attempt < MAX_ATTEMPTS) continue;
          throw new ContractError('conflict', `branch ${newBranch} was updated concurrently; try again`);
        }
        return { commit, before: expected };
      }
    });
    const zero = '0'.repeat(written.commit.length);
    await this.pushes.afterRefUpdates({ ...ctx, actor }, [{ oldSha: written.before ?? zero, newSha: written.commit, ref: `refs/heads/${newBranch}` }]);

    const commit = (await this.objects.commit(repo.id, written.commit))!;
    await this.recordLastCommits(repo.id, commit, planned);
    const ref = { inputRef: newBranch, kind: 'branch' as const, name: newBranch, commit };
    const files = await Promise.all(
      planned.slice(0, MAX_RESPONSE_FILES).map((c) => (c.operation === 'delete' ? null : this.contents.entryResponse(view, ref, c.treePath))),
    );
    return { files, commit: toFileCommitResponse(commit, view.urls), verification: unsignedVerification() };
  }

  /**
   * The answer's `last_commit_*` of each path the commit changed is the commit itself: recorded,
   * so no history walk (one per write, as long as the branch's history) has to find it. A path
   * whose content and mode stayed the same is left to the walk.
   */
  private async recordLastCommits(repoId: number, commit: GitCommit, planned: PlannedChange[]): Promise<void> {
    if (commit.parents.length > 1) return;
    const parent = commit.parents[0] ? await this.objects.commit(repoId, commit.parents[0]) : null;
    for (const c of planned.slice(0, MAX_RESPONSE_FILES)) {
      if (c.operation === 'delete') continue;
      const now = await this.objects.entry(repoId, commit, c.treePath);
      const before = parent ? await this.objects.entry(repoId, parent, c.treePath) : null;
      if (now && (!before || before.sha !== now.sha || before.mode !== now.mode)) this.lastCommits.record(repoId, commit.sha, c.treePath);
    }
  }

  /**
   * Gitea's handleCheckErrors against the parent commit, then the tree changes: removals of old
   * paths, blobs for new content, the executable bit kept from the file being replaced.
   */
  private async plan(view: RepoView, parent: GitCommit | null, planned: PlannedChange[]): Promise<TreeChange[]> {
    const tree: TreeChange[] = [];
    for (const c of planned) {
      if (!parent && c.operation === 'rename') throw notFound(`object does not exist [id: , rel_path: ${c.fromTreePath}]`);
      let fromEntry = null;
      if (parent && c.operation !== 'create') {
        fromEntry = await this.objects.entry(view.repoId, parent, c.fromTreePath);
        if (!fromEntry && c.operation !== 'upload') throw notFound(`object does not exist [id: , rel_path: ${c.fromTreePath}]`);
        if (fromEntry && isDir(fromEntry)) throw notFound(`object does not exist [id: , rel_path: ${c.fromTreePath}]`);
        // A submodule's commit is not an object of this repository: moved as a file, it would name
        // nothing (Gitea's write-tree then fails with a 500).
        if (fromEntry && isSubmodule(fromEntry) && c.operation === 'rename') {
          throw unprocessable(`a submodule cannot be renamed as a file [path: ${c.fromTreePath}]`);
        }
        if (c.sha && c.sha !== (fromEntry?.sha ?? '')) {
          throw unprocessable(`sha does not match [given: ${c.sha}, expected: ${fromEntry?.sha ?? ''}]`);
        }
      }
      if (parent && c.operation !== 'delete') await this.checkTarget(view, parent, c);
      const mode = fromEntry && isExecutable(fromEntry) ? '100755' : '100644';
      if (c.operation === 'delete') {
        tree.push({ path: c.fromTreePath, remove: true });
        continue;
      }
      if (fromEntry && c.fromTreePath !== c.treePath) tree.push({ path: c.fromTreePath, remove: true });
      if (c.operation === 'rename') tree.push({ path: c.treePath, mode, blob: fromEntry!.sha });
      else tree.push({ path: c.treePath, mode, content: c.content ?? Buffer.alloc(0) });
    }
    return tree;
  }

  /** No file or symlink may sit where the path needs a directory, nor anything where a new file goes. */
  private async checkTarget(view: RepoView, parent: GitCommit, c: PlannedChange): Promise<void> {
    const parts = c.treePath.split('/');
    for (let i = 0; i < parts.length; i++) {
      const sub = parts.slice(0, i + 1).join('/');
      const entry = await this.objects.entry(view.repoId, parent, sub);
      if (!entry) return;
      if (i < parts.length - 1) {
        if (!isDir(entry)) throw unprocessable(`a file exists where you’re trying to create a subdirectory [path: ${sub}]`);
      } else if (isSymlink(entry)) {
        throw unprocessable(`a symbolic link exists where you’re trying to create a subdirectory [path: ${sub}]`);
      } else if (isDir(entry)) {
        throw unprocessable(`a directory exists where you’re trying to create a file [path: ${sub}]`);
      } else if (c.fromTreePath !== c.treePath || c.operation === 'create') {
        throw unprocessable(`repository file already exists [path: ${c.treePath}]`);
      }
    }
  }
}

function single(res: FilesResponse): FileResponse {
  return { content: res.files[0] ?? null, commit: res.commit, verification: res.verification };
}

/** Go's base64.StdEncoding: strict alphabet and padding (line breaks ignored); Gitea answers 422 otherwise. */
export function decodeContent(content: string | undefined): Buffer {
  const text = (content ?? '').replace(/[\r\n]/g, '');
  const bad = text.search(/[^A-Za-z0-9+/=]/);
  const padding = text.indexOf('=');
  if (bad >= 0) throw unprocessable(`illegal base64 data at input byte ${bad}`);
  if (text.length % 4 !== 0 || (padding >= 0 && (padding < text.length - 2 || !/^=*$/.test(text.slice(padding))))) {
    throw unprocessable(`illegal base64 data at input byte ${padding >= 0 ? padding : text.length - (text.length % 4)}`);
  }
  return Buffer.from(text, 'base64');
}

/** Gitea's changeFilesCommitMessage in its default locale. */
export function defaultMessage(changes: FileChange[]): string {
  const pick = (ops: FileOperation[]) => changes.filter((c) => ops.includes(c.operation)).map((c) => c.path);
  const lines: string[] = [];
  const created = pick(['create']);
  const updated = pick(['update', 'upload', 'rename']);
  const deleted = pick(['delete']);
  if (created.length) lines.push(`Add ${created.join(', ')}`);
  if (updated.length) lines.push(`Update ${updated.join(', ')}`);
  if (deleted.length) lines.push(`Delete ${deleted.join(', ')}`);
  return lines.join('\n');
}

/**
 * Gitea's GetAuthorAndCommitterUsers: one of author/committer given is used for both, neither
 * means the signed-in user; the signed-in user's address keeps their name unless one is given.
 */
export function signatures(opts: FileOptions, doer: User, now = new Date()): { author: CommitSignature; committer: CommitSignature } {
  // As Gitea's makeGitUserSignature: each of name and e-mail comes from the identity itself,
  // else from the other identity, else from the signed-in user.
  const person = (own: FileOptions['author'], other: FileOptions['author']): { name: string; email: string } => ({
    name: own?.name || other?.name || gitName(doer),
    email: own?.email || other?.email || doer.email,
  });
  return {
    author: { ...person(opts.author, opts.committer), ...gitDate(opts.dates?.author, now) },
    committer: { ...person(opts.committer, opts.author), ...gitDate(opts.dates?.committer, now) },
  };
}

/** An RFC 3339 date as git's `<epoch> <±hhmm>`, keeping the given offset; now when absent. */
/** Go's zero `time.Time` in milliseconds since the epoch. */
const GO_ZERO_TIME_MS = Date.parse('0001-01-01T00:00:00Z');

export function gitDate(value: string | undefined, now: Date): { when: number; tz: string } {
  const ms = value ? Date.parse(value) : NaN;
  // Go's zero time (0001-01-01T00:00:00Z), which Go clients send for dates they leave unset, is "now" in Gitea.
  if (Number.isNaN(ms) || ms === GO_ZERO_TIME_MS) return { when: Math.floor(now.getTime() / 1000), tz: '+0000' };
  const m = /([+-])(\d\d):?(\d\d)$/.exec(value!);
  return { when: Math.floor(ms / 1000), tz: m ? `${m[1]}${m[2]}${m[3]}` : '+0000' };
}
