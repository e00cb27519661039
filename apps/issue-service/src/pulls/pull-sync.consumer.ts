import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { branchOfRef, EventNames, QueueNames, type Actor, type EventEnvelope, type PullGitState, type RepoAccess } from '@gitforge/contracts';
import { createLogger, Database, DirectoryClient, QueueDriver, type QueueJob } from '@gitforge/platform';
import { RepoGate } from '../access/repo-gate.js';
import { IssueEvents } from '../issues/issue-events.js';
import { IssueLoader } from '../issues/issue-loader.js';
import { IssuesRepository } from '../issues/issues.repository.js';
import { ReviewsService } from '../reviews/reviews.service.js';
import { PullGitClient } from './pull-git.client.js';
import { PullsRepository, stateColumns, type PullWithIssue } from './pulls.repository.js';
import { PullsService } from './pulls.service.js';

const log = createLogger('pull-sync');
const SYNC_CONCURRENCY = 2;
const isZero = (sha: string): boolean => /^0+$/.test(sha);

/**
 * Pull requests follow the repositories they join: a push to a head branch moves the pull's
 * head (refs/pull/{index}/head, `synchronized`, older reviews stale), a push to a base branch
 * recomputes mergeability, a deleted head branch shows as the pull's own ref, and a commit status on a head may complete a scheduled auto-merge. Each job recomputes from
 * git, so a replayed event changes nothing.
 */
@Injectable()
export class PullSyncConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly queue: QueueDriver,
    private readonly db: Database,
    private readonly pulls: PullsRepository,
    private readonly issues: IssuesRepository,
    private readonly issueLoader: IssueLoader,
    private readonly git: PullGitClient,
    private readonly gate: RepoGate,
    private readonly events: IssueEvents,
    private readonly directory: DirectoryClient,
    private readonly service: PullsService,
    private readonly reviews: ReviewsService,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.process<EventEnvelope>(QueueNames.pullSync, (job) => this.handle(job), { concurrency: SYNC_CONCURRENCY });
  }

  async handle(job: QueueJob<EventEnvelope>): Promise<void> {
    const e = job.data;
    if (e.repoId === null) return;
    if (e.name === EventNames.repoPushed) {
      const p = e.payload as EventEnvelope<'repo.pushed'>['payload'];
      const branch = branchOfRef(p.ref);
      if (branch === null || isZero(p.after)) return;
      await this.headBranchChanged(e.repoId, branch, false);
      await this.pushed(e.repoId, branch, e.actor, p.merged_pull);
    } else if (e.name === EventNames.refDeleted) {
      const p = e.payload as EventEnvelope<'repo.ref_deleted'>['payload'];
      if (p.ref_type === 'branch' && p.renamed_to) {
        await this.service.branchRenamed(e.repoId, p.ref, p.renamed_to);
        await this.headBranchChanged(e.repoId, p.renamed_to, false);
      } else if (p.ref_type === 'branch') {
        await this.headBranchChanged(e.repoId, p.ref, true);
        await this.service.branchDeleted(e.repoId, p.ref, e.actor, new Date(e.occurredAt));
      }
    } else if (e.name === EventNames.statusCreated) {
      const p = e.payload as EventEnvelope<'commit_status.created'>['payload'];
      await this.statusCame(e.repoId, p.sha);
    }
  }

  /**
   * A branch was deleted or pushed: the pulls it is the head of show it, or their own ref, as git
   * has it now. Git is asked (only when a mark would change) with the pulls' rows locked, so that
   * of two jobs for the same branch taken out of order the later one writes what git says last.
   */
  async headBranchChanged(repoId: number, branch: string, deleted: boolean): Promise<void> {
    if (!(await this.pulls.hasHead(repoId, branch))) return;
    await this.db.transaction(async (m) => {
      const marks = await this.pulls.lockHeadMarks(m, repoId, branch);
      if (marks.every((mark) => mark === deleted)) return;
      const exists = await this.git.branchExists({ repoId, branch });
      await this.pulls.markHeadBranch(m, repoId, branch, !exists);
    });
  }

  /**
   * Everything open that `branch` of `repoId` is the head or the base of, recomputed; except the
   * pull whose merge the push is (`mergedPull`), which its merge records closed and merged.
   */
  async pushed(repoId: number, branch: string, pusher: Pick<Actor, 'id' | 'login'> | null, mergedPull?: number): Promise<void> {
    const { byHead, byBase } = await this.pulls.openTouching(repoId, branch);
    const all = [...byHead.map((p) => ({ p, head: true })), ...byBase.filter((p) => p.pull.idx !== mergedPull).map((p) => ({ p, head: false }))];
    if (all.length === 0) return;
    const states = await this.git.sync(
      all.map(({ p, head }) => ({
        index: p.pull.idx,
        baseRepoId: p.pull.baseRepoId,
        baseBranch: p.pull.baseBranch,
        headRepoId: p.pull.headRepoId,
        headBranch: p.pull.headBranch,
        headSha: head ? null : p.pull.headSha || null,
      })),
    );
    const repos = new Map<number, RepoAccess>();
    for (const [i, { p, head }] of all.entries()) {
      const state = states[i];
      if (!state) continue;
      await this.apply(p, state, head && state.headSha !== p.pull.headSha, pusher, repos);
    }
    log.info({ repoId, branch, pulls: all.length }, 'pulls synchronised');
  }

  private async apply(p: PullWithIssue, state: PullGitState, moved: boolean, pusher: Pick<Actor, 'id' | 'login'> | null, repos: Map<number, RepoAccess>): Promise<void> {
    if (!moved) {
      await this.db.transaction((m) => this.pulls.updateUnmerged(m, p.pull.id, stateColumns(state)));
      return;
    }
    const repo = repos.get(p.pull.baseRepoId) ?? (await this.gate.asOwner([p.pull.baseRepoId]).then((r) => r[0]));
    if (!repo) return;
    repos.set(repo.id, repo);
    // The pusher acts; events only name who did it.
    const actor: Actor = { id: pusher?.id ?? p.issue.posterId, login: pusher?.login ?? '', isAdmin: false, scopes: null };
    const sender = await this.directory.publicUser(actor.id);
    const { dismissStaleApprovals } = await this.git.policy({ repoId: repo.id, branch: p.pull.baseBranch, doerId: 0, reviewerIds: [], headSha: state.headSha });
    const now = new Date();
    await this.db.transaction(async (m) => {
      const locked = await this.pulls.lock(m, p.pull.id);
      if (!locked || locked.hasMerged || locked.headSha === state.headSha) {
        if (locked) await this.pulls.updateUnmerged(m, p.pull.id, stateColumns(state));
        return;
      }
      await this.pulls.update(m, p.pull.id, stateColumns(state));
      await this.issues.update(m, p.issue.id, { updatedAt: now });
      // Reviews of an older head are stale now, approvals dismissed where the rule says so.
      await this.reviews.markStale(m, p.issue.id, state.headSha, { dismissStaleApprovals, doerId: actor.id });
      const issue = await this.issueLoader.one((await this.issues.findById(p.issue.id, m))!, repo, { m, known: [sender] });
      await this.events.issue(m, 'pull.synchronized', { actor, action: 'synchronized', issue, repo, sender, extra: { before: locked.headSha, after: state.headSha } });
    });
  }

  /** A status on a pull's head: a merge scheduled for its checks happens once they pass. */
  async statusCame(repoId: number, sha: string): Promise<void> {
    const pulls = await this.pulls.openWithHead(repoId, sha);
    if (pulls.length === 0) return;
    const [repo] = await this.gate.asOwner([repoId]);
    if (!repo) return;
    for (const p of pulls) await this.service.mergeIfScheduled(repo, p, sha);
  }
}
