import { Injectable } from '@nestjs/common';
import {
  PullGitPatterns,
  type Actor,
  type ChangedFile,
  type Commit,
  type Page,
  type PullBranchRequest,
  type PullGitState,
  type PullHeadRepoRequest,
  type PullHeadDeleteRequest,
  type PullMergeRequest,
  type PullMergeResult,
  type PullPolicy,
  type PullPolicyRequest,
  type PullRangeRequest,
  type PullSides,
  type PullSyncItem,
  type PullUpdateRequest,
  type RawText,
  type RepoAccess,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';

/** How many pulls one sync call carries (a push to a busy base moves many). */
const SYNC_BATCH = 50;

/** repo-service's git side of pull requests (PullGitPatterns), one method per pattern. */
@Injectable()
export class PullGitClient {
  constructor(private readonly rpc: RpcClient) {}

  private ask<R, B>(pattern: string, body: B, actor: Actor | null = null): Promise<R> {
    return this.rpc.call<R, Record<string, string>, B>(pattern, { actor, body });
  }

  inspect(sides: PullSides): Promise<PullGitState> {
    return this.ask(PullGitPatterns.inspect, sides);
  }

  /** Writes refs/pull/{index}/head of each item and answers their states, in batches. */
  async sync(items: PullSyncItem[]): Promise<Array<PullGitState | null>> {
    const out: Array<PullGitState | null> = [];
    for (let i = 0; i < items.length; i += SYNC_BATCH) {
      out.push(...(await this.ask<Array<PullGitState | null>, { items: PullSyncItem[] }>(PullGitPatterns.sync, { items: items.slice(i, i + SYNC_BATCH) })));
    }
    return out;
  }

  diff(range: PullRangeRequest): Promise<RawText> {
    return this.ask(PullGitPatterns.diff, range);
  }

  files(range: PullRangeRequest): Promise<Page<ChangedFile>> {
    return this.ask(PullGitPatterns.files, range);
  }

  commits(range: PullRangeRequest): Promise<Page<Commit>> {
    return this.ask(PullGitPatterns.commits, range);
  }

  /** `actor`: who asks, when that is the doer (repo-service then reads the repository for them at once). */
  merge(request: PullMergeRequest, actor: Actor | null = null): Promise<PullMergeResult> {
    return this.ask(PullGitPatterns.merge, request, actor);
  }

  /** A merged pull's head branch deleted (delete_branch_after_merge); false when it stays. */
  deleteHead(request: PullHeadDeleteRequest): Promise<boolean> {
    return this.ask(PullGitPatterns.deleteHead, request);
  }

  update(request: PullUpdateRequest): Promise<{ headSha: string }> {
    return this.ask(PullGitPatterns.update, request);
  }

  policy(request: PullPolicyRequest): Promise<PullPolicy> {
    return this.ask(PullGitPatterns.policy, request);
  }

  headRepo(actor: Actor | null, request: PullHeadRepoRequest): Promise<RepoAccess> {
    return this.ask(PullGitPatterns.headRepo, request, actor);
  }

  /** The commit `branch` of `repoId` holds now, null when it is gone. */
  async branchHead(request: PullBranchRequest): Promise<string | null> {
    return (await this.ask<{ sha: string | null }, PullBranchRequest>(PullGitPatterns.branchHead, request)).sha;
  }

  /** Whether `branch` of `repoId` is there now. */
  async branchExists(request: PullBranchRequest): Promise<boolean> {
    return (await this.branchHead(request)) !== null;
  }
}
