import { Injectable } from '@nestjs/common';
import { isValidRefName, type WorkflowFile, type WorkflowFiles, type WorkflowFilesRequest } from '@gitforge/contracts';
import { formatGitTime } from '../commits/commit.mapper.js';
import { GitObjects } from '../git/git-objects.js';
import { GitService, isObjectId } from '../git/git.service.js';

/** The directories Gitea reads workflows from, in its order. */
const WORKFLOW_DIRS = ['.gitea/workflows', '.github/workflows'];
/** A workflow file larger than this is not read (Gitea's setting.MaxFileSize is far larger; no workflow needs it). */
const MAX_WORKFLOW_BYTES = 1 << 20;
const ZERO_SHA = /^0+$/;

/**
 * actions-service's git reads (git stays in repo-service): the workflow files of a commit, and
 * the paths a push changed for `paths` filters. Only object ids reach git, never user text.
 */
@Injectable()
export class WorkflowFilesReader {
  constructor(
    private readonly objects: GitObjects,
    private readonly git: GitService,
  ) {}

  /** A branch or tag name as `workflow_dispatch` takes it: `main`, `refs/heads/main`, `v1`, `refs/tags/v1`. */
  private async resolveRef(repoId: number, ref: string): Promise<{ ref: string; sha: string } | null> {
    // git's ref name rules (no whitespace or control characters): the name goes to cat-file's stdin.
    if (!isValidRefName(ref)) return null;
    const candidates = ref.startsWith('refs/') ? [ref] : [`refs/heads/${ref}`, `refs/tags/${ref}`];
    for (const full of candidates) {
      const sha = await this.objects.resolveCommit(repoId, full);
      if (sha) return { ref: full, sha };
    }
    return null;
  }

  async read(request: WorkflowFilesRequest): Promise<WorkflowFiles> {
    const none: WorkflowFiles = { sha: null, ref: null, files: [], changedPaths: null };
    let ref: string | null = null;
    let sha = request.sha ?? '';
    if (request.ref !== undefined) {
      const resolved = await this.resolveRef(request.repoId, request.ref);
      if (!resolved) return none;
      ({ ref, sha } = resolved);
    }
    if (!isObjectId(sha)) return none;
    const commit = await this.objects.commit(request.repoId, sha);
    if (!commit) return none;
    const files: WorkflowFile[] = [];
    for (const dir of WORKFLOW_DIRS) {
      const entry = await this.objects.entry(request.repoId, commit, dir);
      // Gitea takes the first directory that exists and has workflows.
      if (!entry || entry.type !== 'tree') continue;
      const entries = (await this.objects.tree(request.repoId, entry.sha)) ?? [];
      for (const e of entries) {
        if (e.type !== 'blob' || !/\.ya?ml$/.test(e.name)) continue;
        const data = await this.objects.blob(request.repoId, e.sha);
        if (!data || data.length > MAX_WORKFLOW_BYTES) continue;
        files.push({ path: `${dir}/${e.name}`, content: data.toString('utf8') });
      }
      if (files.length > 0) break;
    }
    const authoredAt = formatGitTime(commit.author);
    // Only `paths` filters of workflows read them: without workflows (most pushes) no diff is run.
    let changedPaths: string[] | null = null;
    if (files.length === 0) return { sha, ref, authoredAt, files, changedPaths };
    if (request.before && isObjectId(request.before) && !ZERO_SHA.test(request.before)) {
      changedPaths = await this.git.changedFiles(request.repoId, request.before, sha).catch(() => null);
    } else if (commit.parents.length > 0) {
      changedPaths = await this.git.changedFiles(request.repoId, commit.parents[0]!, sha).catch(() => null);
    }
    return { sha, ref, authoredAt, files, changedPaths };
  }
}
