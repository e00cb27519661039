import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { branchOfRef, escapeHtml, pathEscape, QueueNames, type Actor, type EventEnvelope, type RepoAccess } from '@gitforge/contracts';
import { actorOf, Database, DirectoryClient, PlatformConfig, QueueDriver, type QueueJob } from '@gitforge/platform';
import { RepoGate } from '../access/repo-gate.js';
import { CommentType } from '../comments/comment-type.js';
import { CommentsRepository } from '../comments/comments.repository.js';
import type { IssueEntity } from '../issues/issue.entity.js';
import { IssuesRepository } from '../issues/issues.repository.js';
import type { PullRequestEntity } from '../pulls/pull-request.entity.js';
import { PullsRepository } from '../pulls/pulls.repository.js';
import { IssueReferences, type ReferencedIssue } from './issue-references.js';
import { findIssueReferences } from './references.js';


/** The job waits for a merge its push may belong to (see handle). */
class MergeMayBePending extends Error {}
/** Runs that wait for such a merge (backoffs of 1, 2 and 4 s): then the push is taken as it is. */
const MERGE_WAITS = 3;

/**
 * Gitea's UpdateIssuesCommit, on every push to a branch: each issue or pull a pushed commit names
 * (`#12`, `owner/name#12`) gets a `commit_ref` row linking the commit, once per commit, where the
 * pusher may read it; an issue named with a closing keyword (`fixes #12`) is closed by the pusher,
 * and one named with `reopens` reopened, when the push is to the default branch (or to the branch
 * the issue names as its ref) and the pusher may change it ({@link IssueReferences}). The push
 * payload carries its latest commits only (five): older ones of a longer push are not read.
 */
@Injectable()
export class CommitReferencesConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly queue: QueueDriver,
    private readonly db: Database,
    private readonly gate: RepoGate,
    private readonly directory: DirectoryClient,
    private readonly references: IssueReferences,
    private readonly comments: CommentsRepository,
    private readonly issues: IssuesRepository,
    private readonly pulls: PullsRepository,
    private readonly config: PlatformConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.process<EventEnvelope<'repo.pushed'>>(QueueNames.issueReferences, (job) => this.handle(job), { concurrency: 4 });
  }

  async handle(job: QueueJob<EventEnvelope<'repo.pushed'>>): Promise<void> {
    const e = job.data;
    const p = e.payload;
    const branch = branchOfRef(p.ref);
    if (e.repoId === null || !e.actor || branch === null) return;
    if (!p.commits.some((c) => findIssueReferences(c.message).length > 0)) return;
    const [account] = await this.directory.accountsByIds(null, [e.actor.id]);
    if (!account) return;
    const pusher = actorOf(account);
    const [pushed] = await this.gate.many(pusher, [e.repoId]);
    if (!pushed) return;
    // Oldest first, as Gitea walks them: the push payload lists the newest first.
    const named: Array<{ commit: (typeof p.commits)[number]; targets: ReferencedIssue[] }> = [];
    for (const commit of [...p.commits].reverse()) named.push({ commit, targets: await this.references.resolve(pusher, pushed, commit.message) });
    // A push to an open pull's base naming it may be that pull's merge, recorded a moment after its
    // push: before writing anything, the job waits (runs again after its backoff, a few times) until
    // the merge is known, so that its own commit is not taken for a reference.
    const merges = new Map<number, PullRequestEntity | null>();
    for (const { commit, targets } of named) {
      for (const { issue } of targets) {
        if (!issue.isPull) continue;
        if (!merges.has(issue.id)) merges.set(issue.id, await this.pulls.findByIssueId(issue.id));
        const pull = merges.get(issue.id);
        const pending = pull && !pull.hasMerged && !issue.isClosed && pull.baseRepoId === pushed.id && pull.baseBranch === branch;
        if (pending && pull.mergedCommitId !== commit.id && job.attemptsMade < MERGE_WAITS) throw new MergeMayBePending(`pull #${issue.idx} may be being merged`);
      }
    }
    for (const { commit, targets } of named) {
      for (const target of targets) {
        const { issue } = target;
        // A pull's own merge commit names it: that is no reference (Gitea's isSelfReference).
        if (issue.isPull && merges.get(issue.id)?.mergedCommitId === commit.id) continue;
        await this.referenceRow(pusher, pushed, issue, commit);
        // Only pushes to the default branch close or reopen, or to the branch the issue names as its ref.
        const wanted = issue.ref ? issue.ref.replace(/^refs\/heads\//, '') : pushed.defaultBranch;
        if (branch === wanted) await this.references.act(pusher, target, commit.id);
      }
    }
  }

  /** The `commit_ref` row, once per commit and issue: `<a href="{repo link}/commit/{sha}">{subject}</a>`, as Gitea writes it. */
  private async referenceRow(pusher: Actor, pushed: RepoAccess, issue: IssueEntity, commit: { id: string; message: string }): Promise<void> {
    const link = `${new URL(this.config.rootUrl).pathname.replace(/\/$/, '')}/${pathEscape(pushed.ownerLogin)}/${pathEscape(pushed.name)}`;
    const subject = commit.message.split('\n', 1)[0] ?? '';
    const content = `<a href="${escapeHtml(link)}/commit/${escapeHtml(pathEscape(commit.id))}">${escapeHtml(subject)}</a>`;
    await this.db.transaction(async (m) => {
      // The issue's row lock keeps two jobs carrying the same commit from both writing the row.
      await this.issues.lock(m, issue.id);
      if (await this.comments.hasCommitRef(m, issue.id, commit.id)) return;
      await this.comments.addEvent(m, { issueId: issue.id, posterId: pusher.id, type: CommentType.commit_ref, at: new Date(), content, refs: { commitSha: commit.id } });
    });
  }
}
