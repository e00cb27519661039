import { Injectable } from '@nestjs/common';
import {
  ContractError,
  conflict,
  failedPrecondition,
  forbidden,
  idFrom,
  isPublicOnly,
  notFound,
  pageOf,
  PullStatus,
  unprocessable,
  type Actor,
  type ChangedFile,
  type Commit,
  type CreatePullRequestOption,
  type EditPullRequestOption,
  type Issue,
  type ListOptions,
  type MergePullRequestOption,
  type Page,
  type PullGitState,
  type PullPolicy,
  type PullMergeRequest,
  type PullRequest,
  type RawText,
  type RepoAccess,
  type User,
} from '@gitforge/contracts';
import { actorOf, Database, DirectoryClient, createLogger } from '@gitforge/platform';
import { canRead, canWrite, requireNotArchived, RepoGate } from '../access/repo-gate.js';
import { CommentType } from '../comments/comment-type.js';
import { CommentsRepository } from '../comments/comments.repository.js';
import { IssueCounters } from '../issues/issue-counters.js';
import { IssueEvents } from '../issues/issue-events.js';
import { IssueLoader, type LaterFacts } from '../issues/issue-loader.js';
import type { IssueEntity } from '../issues/issue.entity.js';
import { IssuesRepository, type IssueFilter } from '../issues/issues.repository.js';
import { IssueReferences } from '../references/issue-references.js';
import { IssuesService } from '../issues/issues.service.js';
import { IssueLabelsService } from '../labels/issue-labels.service.js';
import { ReviewType } from '../reviews/review.entity.js';
import { ReviewsRepository, type ReviewVerdict } from '../reviews/reviews.repository.js';
import { ReviewsService } from '../reviews/reviews.service.js';
import { PullContexts, type PullContext } from './pull-contexts.js';
import { PullGitClient } from './pull-git.client.js';
import { PullLoader } from './pull-loader.js';
import type { PullRequestEntity } from './pull-request.entity.js';
import { isWorkInProgress } from './pull.mapper.js';
import { PullsRepository, stateColumns, type PullWithIssue } from './pulls.repository.js';

const log = createLogger('pulls');

/** Query parameters of `GET /repos/{o}/{r}/pulls`. */
export interface PullListQuery {
  state?: string;
  sort?: string;
  milestone?: string;
  labels?: string | string[];
  poster?: string;
  base_branch?: string;
}

type GitMergeStyle = PullMergeRequest['style'];

/** A merged pull's event, shaped from the rows its transaction changes ({@link IssueLoader.prepare}, {@link PullLoader.prepare}). */
interface MergedEventShapes {
  issue: (rows: IssueEntity[], later: LaterFacts) => Promise<Issue[]>;
  pull: (issues: Issue[], rows: Map<number, PullRequestEntity>) => PullRequest[];
  sender: User;
}

/** The repository setting that allows each merge style. */
const STYLE_SETTING: Record<MergePullRequestOption['Do'], keyof RepoAccess['repository']> = {
  merge: 'allow_merge_commits',
  rebase: 'allow_rebase',
  'rebase-merge': 'allow_rebase_explicit',
  squash: 'allow_squash_merge',
  'fast-forward-only': 'allow_fast_forward_only_merge',
  'manually-merged': 'allow_manual_merge',
};

/**
 * A pull's `head` as Gitea reads it: `branch`, `owner:branch` or `owner/repo:branch`; null for
 * anything else (more colons, empty parts).
 */
export function headSpec(head: string): { owner?: string; name?: string; branch: string } | null {
  const parts = head.split(':');
  if (parts.length === 1) return head ? { branch: head } : null;
  const [who, branch] = parts;
  if (parts.length !== 2 || !who || !branch) return null;
  const slash = who.indexOf('/');
  if (slash < 0) return { owner: who, branch };
  const [owner, name] = [who.slice(0, slash), who.slice(slash + 1)];
  return owner && name ? { owner, name, branch } : null;
}

/** Gitea's ErrNotReadyToMerge wrapped with its reason (util.ErrorWrap): the answer is the bare reason. */
const disallowed = (reason: string): ContractError => new ContractError('method_not_allowed', reason);

/**
 * Pull requests: the issue side lives in the issue tables (numbers shared with issues), the pull
 * side in pull_request; everything git knows is asked of repo-service (PullGitClient).
 */
@Injectable()
export class PullsService {
  constructor(
    private readonly db: Database,
    private readonly gate: RepoGate,
    private readonly issues: IssuesRepository,
    private readonly issuesService: IssuesService,
    private readonly issueLabels: IssueLabelsService,
    private readonly issueLoader: IssueLoader,
    private readonly pulls: PullsRepository,
    private readonly loader: PullLoader,
    private readonly git: PullGitClient,
    private readonly events: IssueEvents,
    private readonly counters: IssueCounters,
    private readonly comments: CommentsRepository,
    private readonly directory: DirectoryClient,
    private readonly reviews: ReviewsRepository,
    private readonly contexts: PullContexts,
    private readonly reviewsService: ReviewsService,
    private readonly references: IssueReferences,
  ) {}

  /** The repository if the actor may read its pulls (and its code, which a pull shows). */
  private async pullsRepo(actor: Actor | null, owner: string, repoName: string): Promise<RepoAccess> {
    const repo = await this.gate.assign(actor, owner, repoName);
    if (!repo.settings.has_pull_requests || !canRead(repo, 'repo.pulls')) throw notFound();
    return repo;
  }

  async create(actor: Actor | null, owner: string, repoName: string, body: CreatePullRequestOption): Promise<PullRequest> {
    const a = await this.gate.signedIn(actor, owner, repoName);
    const repo = await this.pullsRepo(a, owner, repoName);
    requireNotArchived(repo);
    if (body.head === body.base) throw unprocessable('Invalid PullRequest: There are no changes between the head and the base');
    if (!canRead(repo, 'repo.code')) throw notFound();
    const { headRepo, headBranch } = await this.parseHead(a, repo, body.head);
    const sides = { baseRepoId: repo.id, baseBranch: body.base, headRepoId: headRepo.id, headBranch };
    const state = await this.git.inspect(sides);
    const existing = await this.pulls.findOpen(repo.id, body.base, headRepo.id, headBranch);
    if (existing) {
      throw conflict(
        `pull request already exists for these targets [id: ${existing.pull.id}, issue_id: ${existing.issue.idx}, head_repo_id: ${headRepo.id}, base_repo_id: ${repo.id}, head_branch: ${headBranch}, base_branch: ${body.base}]`,
      );
    }
    if (body.milestone && body.milestone > 0) {
      // An unknown milestone is Gitea's 404 here (the issue routes answer 422).
      await this.issuesService.resolveMilestone(repo, body.milestone).catch(() => {
        throw notFound();
      });
    }
    const reviewers = await this.reviewsService.namedReviewers(a, repo, { reviewers: body.reviewers, team_reviewers: body.team_reviewers });
    // Gitea's NewPullRequest: its owner, collaborators, members of its teams and site admins open
    // pulls on a repository; anyone else only from a head they may push to (their fork).
    if (repo.isMember === false && !canWrite(headRepo, 'repo.code')) throw forbidden('user must be a collaborator');
    const created = await this.issuesService.open(
      a,
      repo,
      {
        title: body.title,
        body: body.body,
        assignee: body.assignee,
        assignees: body.assignees,
        milestone: body.milestone,
        labels: body.labels,
        due_date: body.due_date,
      },
      // Gitea's pull creation takes labels, milestone and assignees from any reader.
      true,
      {
        insert: async (m, issue) => {
          await this.pulls.insert(m, {
            issueId: issue.id,
            idx: issue.idx,
            baseRepoId: repo.id,
            baseBranch: body.base,
            headRepoId: headRepo.id,
            headBranch,
            // Unsaid, the repository's default decides, as in Gitea.
            allowMaintainerEdit: body.allow_maintainer_edit ?? repo.repository.default_allow_maintainer_edit,
            ...stateColumns(state),
          });
        },
      },
    );
    const row = (await this.issues.findById(created.id))!;
    const pull = await this.syncNew(row, repo);
    // Reviewers are asked once the pull exists, as Gitea's NewPullRequest does, through the review requests' own rules.
    await this.reviewsService.applyRequests({ repo, issue: row, pull }, a, reviewers, true);
    return this.loader.one(a, row, repo);
  }

  /**
   * `head` as Gitea's parseCompareInfo reads it: a branch of the base repository, `owner:branch`
   * (the owner's fork of the base, or the base's parent), or `owner/repo:branch`.
   */
  private async parseHead(actor: Actor, repo: RepoAccess, head: string): Promise<{ headRepo: RepoAccess; headBranch: string }> {
    const spec = headSpec(head);
    if (!spec) throw notFound();
    const { owner, name, branch } = spec;
    if (owner === undefined || (owner.toLowerCase() === repo.ownerLogin.toLowerCase() && (name === undefined || name.toLowerCase() === repo.name.toLowerCase()))) {
      return { headRepo: repo, headBranch: branch };
    }
    const headRepo = await this.git.headRepo(actor, { baseRepoId: repo.id, owner, ...(name !== undefined ? { repo: name } : {}) });
    if (!canRead(headRepo, 'repo.code')) throw notFound();
    return { headRepo, headBranch: branch };
  }

  /** `GET /repos/{o}/{r}/pulls`. */
  async list(actor: Actor | null, owner: string, repoName: string, query: PullListQuery, options: ListOptions): Promise<Page<PullRequest>> {
    const repo = await this.pullsRepo(actor, owner, repoName);
    // Gitea filters on `open` and `closed` only: no state (or any other) lists every pull.
    const state = (query.state ?? '').trim();
    const filter: IssueFilter = { repoIds: [repo.id], isPull: true, isClosed: state === 'closed' ? true : state === 'open' ? false : undefined };
    const labelIds = [query.labels ?? []].flat().map((l) => idFrom(l)).filter((id) => id > 0);
    if (labelIds.length > 0) filter.labelIds = labelIds;
    const milestone = idFrom(query.milestone);
    if (milestone > 0) filter.milestoneIds = [milestone];
    const baseBranch = (query.base_branch ?? '').trim();
    if (baseBranch) filter.baseBranch = baseBranch;
    if (query.poster) {
      const [account] = await this.directory.accountsByNames(null, [query.poster]);
      // Gitea answers an unknown poster with 400.
      if (!account) throw new ContractError('invalid_argument', `user does not exist [uid: 0, name: ${query.poster}]`);
      filter.posterId = account.id;
    }
    const [rows, total] = await this.issues.list(filter, options, undefined, (query.sort ?? '').trim() || undefined);
    return pageOf(await this.loader.load(actor, rows, repo), total, options);
  }

  async get(actor: Actor | null, owner: string, repo: string, index: string): Promise<PullRequest> {
    const ctx = await this.contexts.pullFor(actor, owner, repo, index);
    return this.loader.one(actor, ctx.issue, ctx.repo);
  }

  /** `GET /pulls/{base}/{head}`: head is a branch, `owner:branch` or `owner/repo:branch`. */
  async getByBaseHead(actor: Actor | null, owner: string, repoName: string, base: string, head: string): Promise<PullRequest> {
    const repo = await this.pullsRepo(actor, owner, repoName);
    const spec = headSpec(head);
    if (!spec) throw notFound();
    // Here `owner:branch` names the owner's repository of the base's name (Gitea's GetPullRequestByBaseHead).
    const headRepoId = spec.owner === undefined ? repo.id : (await this.gate.assign(actor, spec.owner, spec.name ?? repo.name)).id;
    const headBranch = spec.branch;
    const found = await this.pulls.findByBaseHead(repo.id, base, headRepoId, headBranch);
    if (!found) throw notFound();
    return this.loader.one(actor, found.issue, repo);
  }

  /**
   * `GET /commits/{sha}/pull`: readers of the code (Gitea's reqRepoReader: 403 otherwise) get the
   * pull request merged as exactly that commit; none is Gitea's ErrPullRequestNotExist (404).
   */
  async getByMergedCommit(actor: Actor | null, owner: string, repoName: string, sha: string): Promise<PullRequest> {
    const repo = await this.gate.assign(actor, owner, repoName);
    if (!canRead(repo, 'repo.code')) throw forbidden('user should have specific read permission or be a repo admin or a site admin');
    const found = await this.pulls.findByMergedCommit(repo.id, sha);
    if (!found) {
      throw new ContractError('not_found', `pull request does not exist [id: 0, issue_id: 0, head_repo_id: 0, base_repo_id: ${repo.id}, head_branch: , base_branch: ]`);
    }
    return this.loader.one(actor, found.issue, repo);
  }

  /** Gitea's EditPullRequest: the issue's fields through the issue edit, then base and maintainer edits. */
  async edit(actor: Actor | null, owner: string, repoName: string, index: string, body: EditPullRequestOption): Promise<PullRequest> {
    const ctx = await this.contexts.pullForWrite(actor, owner, repoName, index);
    const a = ctx.actor;
    const writer = canWrite(ctx.repo, 'repo.pulls');
    if (ctx.issue.posterId !== a.id && !writer) throw ContractError.empty('permission_denied', 'user should have permission to edit the pull request');
    if (body.state !== undefined && body.state !== null && ctx.pull.hasMerged) throw failedPrecondition('cannot change state of this pull request, it was already merged');
    // A stale version fails before anything changes (Gitea's ErrIssueAlreadyChanged, 409 on this route).
    if (body.content_version !== undefined && body.content_version !== ctx.issue.contentVersion) throw conflict('the issue is already changed');
    // Gitea's SetAllowEdits, whenever the field is sent: the poster alone, with write access to the head's code (checked before anything changes).
    if (body.allow_maintainer_edit !== undefined) {
      const [head] = ctx.pull.headRepoId > 0 ? await this.gate.many(a, [ctx.pull.headRepoId]) : [];
      if (ctx.issue.posterId !== a.id || !head || !canWrite(head, 'repo.code')) throw forbidden('SetAllowEdits: user not allowed to do this action');
    }
    await this.issuesService.edit(a, owner, repoName, index, {
      ...(body.title ? { title: body.title } : {}),
      ...(body.body !== undefined ? { body: body.body, ...(body.content_version !== undefined ? { content_version: body.content_version } : {}) } : {}),
      ...(body.due_date !== undefined ? { due_date: body.due_date } : {}),
      ...(body.unset_due_date !== undefined ? { unset_due_date: body.unset_due_date } : {}),
      ...(writer && (body.assignees !== undefined || body.assignee) ? { assignee: body.assignee, assignees: body.assignees } : {}),
      // Gitea's pull edit leaves the milestone alone on 0.
      ...(writer && body.milestone ? { milestone: body.milestone } : {}),
      ...(body.state !== undefined && body.state !== null ? { state: body.state } : {}),
    });
    if (writer && body.labels !== undefined) await this.issueLabels.replace(a, owner, repoName, index, { labels: body.labels });
    if (!ctx.pull.hasMerged && body.base && body.base !== ctx.pull.baseBranch) await this.changeBase(a, ctx, body.base);
    if (body.allow_maintainer_edit !== undefined && body.allow_maintainer_edit !== ctx.pull.allowMaintainerEdit) {
      await this.db.transaction((m) => this.pulls.update(m, ctx.pull.id, { allowMaintainerEdit: body.allow_maintainer_edit }));
    }
    return this.get(a, owner, repoName, index);
  }

  /**
   * Unmerged pulls follow a renamed branch to its new name (Gitea's RenameBranch). Only while git
   * agrees (the old name gone, the new one there): a rename undone meanwhile moves nothing.
   */
  async branchRenamed(repoId: number, from: string, to: string): Promise<void> {
    const [gone, there] = await Promise.all([this.git.branchExists({ repoId, branch: from }), this.git.branchExists({ repoId, branch: to })]);
    if (gone || !there) return;
    await this.db.transaction((m) => this.pulls.renameBranch(m, repoId, from, to));
  }

  /**
   * Gitea's AdjustPullsCausedByBranchDeleted, as `doer` deleted `branch` of `repoId`: the open
   * pulls it was the head of are closed, each with a delete_branch row; those it was the base of
   * move to the repository's default branch (RetargetChildrenOnMerge, on by default), where they
   * can. Only while the branch is still gone, and for pulls opened before it went (`deletedAt`):
   * the deletion may be read late, after the branch was made again.
   */
  async branchDeleted(repoId: number, branch: string, doer: Pick<Actor, 'id' | 'login'> | null, deletedAt: Date): Promise<void> {
    const touching = await this.pulls.openTouching(repoId, branch);
    const before = (p: PullWithIssue): boolean => p.issue.createdAt.getTime() <= deletedAt.getTime();
    const byHead = touching.byHead.filter(before);
    const byBase = touching.byBase.filter(before);
    if (byHead.length + byBase.length === 0 || (await this.git.branchExists({ repoId, branch }))) return;
    const repos = new Map<number, RepoAccess | undefined>();
    const repoOf = async (id: number): Promise<RepoAccess | undefined> => {
      if (!repos.has(id)) repos.set(id, (await this.gate.asOwner([id]))[0]);
      return repos.get(id);
    };
    for (const p of byHead) {
      const repo = await repoOf(p.pull.baseRepoId);
      if (!repo) continue;
      const doerId = doer?.id ?? p.issue.posterId;
      // The delete_branch row with the close, in its transaction: only on a pull this closes.
      await this.issuesService.setStateAs(doerId, repo, [p.issue.id], true, '', (m, issueId, at) =>
        this.comments.addEvent(m, { issueId, posterId: doerId, type: CommentType.delete_branch, at, refs: { oldRef: branch } }).then(() => undefined),
      );
    }
    const repo = byBase.length > 0 ? await repoOf(repoId) : undefined;
    if (!repo || repo.defaultBranch === branch) return;
    for (const p of byBase) {
      // A pull from the default branch itself cannot move onto it.
      if (p.pull.headRepoId === repoId && p.pull.headBranch === repo.defaultBranch) continue;
      const actor: Actor = { id: doer?.id ?? p.issue.posterId, login: doer?.login ?? '', isAdmin: false, scopes: null };
      await this.changeBase(actor, { repo, issue: p.issue, pull: p.pull }, repo.defaultBranch).catch((err: unknown) =>
        log.warn({ repoId, index: p.issue.idx, err: err instanceof Error ? err.message : String(err) }, 'could not move a pull off its deleted base branch'),
      );
    }
  }

  /** Gitea's ChangeTargetBranch: a new base of the same repository, checked again. */
  private async changeBase(a: Actor, ctx: PullContext, base: string): Promise<void> {
    const fresh = (await this.issues.findById(ctx.issue.id))!;
    if (fresh.isClosed) throw unprocessable(`issue is closed [id: ${fresh.id}]`);
    let state: PullGitState;
    try {
      state = await this.git.inspect({ baseRepoId: ctx.repo.id, baseBranch: base, headRepoId: ctx.pull.headRepoId, headBranch: ctx.pull.headBranch });
    } catch (err) {
      // A tag or a commit is no branch either (Gitea checks the new base is a branch).
      if (err instanceof ContractError && (err.code === 'not_found' || err.code === 'unprocessable')) throw notFound(`new base '${base}' not exist`);
      throw err;
    }
    // A pull of a branch into itself, refused as creating one is (Gitea would make it; its
    // ErrBranchesEqual, answered with a 500, is for a head the new base already holds).
    if (ctx.pull.headRepoId === ctx.repo.id && ctx.pull.headBranch === base) {
      throw unprocessable(`branches are equal [head: ${ctx.pull.headBranch}, base: ${base}]`);
    }
    const other = await this.pulls.findOpen(ctx.repo.id, base, ctx.pull.headRepoId, ctx.pull.headBranch);
    if (other) {
      throw conflict(
        `pull request already exists for these targets [id: ${other.pull.id}, issue_id: ${other.issue.idx}, head_repo_id: ${ctx.pull.headRepoId}, base_repo_id: ${ctx.repo.id}, head_branch: ${ctx.pull.headBranch}, base_branch: ${base}]`,
      );
    }
    const sender = await this.directory.publicUser(a.id);
    const now = new Date();
    await this.db.transaction(async (m) => {
      await this.pulls.update(m, ctx.pull.id, { baseBranch: base, ...stateColumns(state) });
      await this.issues.update(m, ctx.issue.id, { updatedAt: now });
      await this.comments.addEvent(m, { issueId: ctx.issue.id, posterId: a.id, type: CommentType.change_target_branch, at: now, refs: { oldRef: ctx.pull.baseBranch, newRef: base } });
      const issue = await this.issueLoader.one((await this.issues.findById(ctx.issue.id, m))!, ctx.repo, { m, known: [sender] });
      await this.events.issue(m, 'issue.edited', { actor: a, action: 'edited', issue, repo: ctx.repo, sender, changes: { ref: { from: ctx.pull.baseBranch } } });
    });
  }

  /** `.diff` / `.patch` of the pull: merge base to head. */
  async raw(actor: Actor | null, owner: string, repo: string, index: string, diffType: string, binary: boolean): Promise<RawText> {
    if (diffType !== 'diff' && diffType !== 'patch') throw notFound();
    const ctx = await this.contexts.pullFor(actor, owner, repo, index);
    return this.git.diff({ repoId: ctx.repo.id, mergeBase: ctx.pull.mergeBase, headSha: ctx.pull.headSha, kind: diffType, binary });
  }

  async files(actor: Actor | null, owner: string, repo: string, index: string, options: ListOptions, view: { skipTo?: string; whitespace?: string } = {}): Promise<Page<ChangedFile>> {
    const ctx = await this.contexts.pullFor(actor, owner, repo, index);
    return this.git.files({
      repoId: ctx.repo.id,
      mergeBase: ctx.pull.mergeBase,
      headSha: ctx.pull.headSha,
      ...(ctx.pull.headRepoId > 0 ? { headRepoId: ctx.pull.headRepoId } : {}),
      page: options.page,
      limit: options.limit,
      ...(view.skipTo ? { skipTo: view.skipTo } : {}),
      ...(view.whitespace ? { whitespace: view.whitespace } : {}),
    });
  }

  async commits(actor: Actor | null, owner: string, repo: string, index: string, options: ListOptions, flags: { files: boolean; verification: boolean }): Promise<Page<Commit>> {
    const ctx = await this.contexts.pullFor(actor, owner, repo, index);
    return this.git.commits({ repoId: ctx.repo.id, mergeBase: ctx.pull.mergeBase, headSha: ctx.pull.headSha, page: options.page, limit: options.limit, ...flags });
  }

  /** `GET /pulls/{index}/merge`: 204 when merged, 404 otherwise. */
  async isMerged(actor: Actor | null, owner: string, repo: string, index: string): Promise<void> {
    const ctx = await this.contexts.pullFor(actor, owner, repo, index);
    if (!ctx.pull.hasMerged) throw notFound();
  }

  /**
   * `POST /pulls/{index}/merge`: Gitea's CheckPullMergeable, then the merge in repo-service
   * (plumbing, compare-and-swap on the base branch), then the pull recorded as merged.
   * Answers 'scheduled' when the merge waits for its required checks.
   */
  async merge(actor: Actor | null, owner: string, repoName: string, index: string, form: MergePullRequestOption): Promise<'merged' | 'scheduled'> {
    const ctx = await this.contexts.pullForWrite(actor, owner, repoName, index);
    const a = ctx.actor;
    const { pull, issue, repo } = ctx;
    if (pull.hasMerged) throw new ContractError('method_not_allowed', 'The PR is already merged');
    // A pull whose head repository is gone is being closed with it (repo-lifecycle), as Gitea closes it.
    if (issue.isClosed || pull.headRepoId <= 0) throw notFound();
    const style = form.Do;
    // Gitea judges and merges the head branch as it is now (its statuses among the checks), not
    // the head this pull last recorded, which follows pushes in the background.
    const [reviews, branchHead] = await Promise.all([this.verdicts(issue.id), this.git.branchHead({ repoId: pull.headRepoId, branch: pull.headBranch })]);
    const head = branchHead ?? pull.headSha;
    const policy = await this.git.policy({
      repoId: repo.id,
      branch: pull.baseBranch,
      doerId: a.id,
      reviewerIds: reviews.map((r) => r.reviewerId),
      headSha: head,
    });
    if (!policy.doerCanMerge) throw new ContractError('method_not_allowed', 'User not allowed to merge PR');
    if (style !== 'manually-merged') {
      if (isWorkInProgress(issue.title)) throw new ContractError('method_not_allowed', 'Work in progress PRs cannot be merged');
      if (pull.status !== PullStatus.mergeable && pull.status !== PullStatus.empty) throw new ContractError('method_not_allowed', 'Please try again later');
      // A merge scheduled for when its checks succeed skips branch protection here, as Gitea's
      // MergeCheckTypeAuto does: the scheduled merge meets it when it happens.
      const blocked = form.merge_when_checks_succeed ? null : protectionBlock(policy, reviews, await this.standing(policy, issue.id, pull));
      if (blocked && !(form.force_merge && policy.doerCanBypass)) throw disallowed(blocked);
    }
    if (!repo.repository[STYLE_SETTING[style]]) {
      throw new ContractError('method_not_allowed', `${style} is not allowed an allowed merge style for this repository`);
    }
    if (style === 'manually-merged') {
      await this.markManuallyMerged(a, ctx, form.MergeCommitID ?? '');
      return 'merged';
    }
    let message = (form.MergeTitleField ?? '').trim() || (await this.defaultMergeMessage(ctx, style));
    const extra = (form.MergeMessageField ?? '').trim();
    if (extra) message += `\n\n${extra}`;
    const deleteHeadBranch = form.delete_branch_after_merge ?? repo.repository.default_delete_branch_after_merge;
    if (form.merge_when_checks_succeed) {
      // Always scheduled (201), as Gitea's ScheduleAutoMerge; then checked at once, so a pull
      // whose checks have passed already is merged now instead of at its next status.
      const scheduled = await this.db.transaction(async (m) => {
        await this.pulls.lock(m, pull.id);
        return this.pulls.schedule(m, { pullId: pull.id, doerId: a.id, mergeStyle: style, message, deleteBranchAfterMerge: deleteHeadBranch, createdAt: new Date() });
      });
      if (!scheduled) throw conflict(`pull request is already scheduled to auto merge when checks succeed [pull_id: ${pull.id}]`);
      await this.mergeIfScheduled(repo, { issue, pull }, pull.headSha).catch((err: unknown) =>
        // It stays scheduled: the next status on the head tries again.
        log.warn({ repoId: repo.id, index: pull.idx, err: err instanceof Error ? err.message : String(err) }, 'scheduled merge could not happen yet'),
      );
      return 'scheduled';
    }
    if (form.head_commit_id && form.head_commit_id !== head) throw conflict('head out of date');
    // The commit judged is the one merged: a branch that moves meanwhile is a 409 from the merge.
    await this.mergeNow(a, ctx, style, message, deleteHeadBranch, head);
    return 'merged';
  }

  /**
   * A merge scheduled for when its checks succeed, done now if the pull's protection lets its
   * scheduler merge at `headSha` (Gitea's handlePullRequestAutoMerge); nothing when none is
   * scheduled or the pull is not ready yet.
   */
  async mergeIfScheduled(repo: RepoAccess, p: PullWithIssue, headSha: string): Promise<void> {
    const scheduled = await this.pulls.scheduledMerge(p.pull.id);
    if (!scheduled) return;
    const verdicts = await this.verdicts(p.issue.id);
    const policy = await this.git.policy({ repoId: repo.id, branch: p.pull.baseBranch, doerId: scheduled.doerId, reviewerIds: verdicts.map((v) => v.reviewerId), headSha });
    if (!policy.doerCanMerge || protectionBlock(policy, verdicts, await this.standing(policy, p.issue.id, p.pull))) return;
    const doer = (await this.directory.accountsByIds(null, [scheduled.doerId]))[0];
    if (!doer) return;
    // The scheduler merges, with the rights the policy just confirmed.
    const actor: Actor = { id: doer.id, login: doer.login, isAdmin: doer.isAdmin, scopes: null };
    // The commit whose checks passed is the one merged: a head that moved meanwhile waits for its own.
    await this.mergeNow(actor, { repo, issue: p.issue, pull: p.pull }, scheduled.mergeStyle as GitMergeStyle, scheduled.message, scheduled.deleteBranchAfterMerge, headSha);
  }

  /**
   * The merge itself and its record: the pull merged and closed, a merge_pull comment, events.
   * `expectedHead`: the head commit that must be merged ('' for whatever the head branch holds).
   */
  async mergeNow(a: Actor, ctx: PullContext, style: GitMergeStyle, message: string, deleteHeadBranch: boolean, expectedHead: string): Promise<void> {
    const { pull, repo } = ctx;
    // What its event shows besides the rows the merge changes is read while git merges; should
    // that read fail, it is read again once git has merged, for the merge stands and is recorded.
    const [result, early] = await Promise.all([
      this.git.merge({
        baseRepoId: repo.id,
        baseBranch: pull.baseBranch,
        headRepoId: pull.headRepoId,
        headBranch: pull.headBranch,
        index: pull.idx,
        style,
        headSha: expectedHead,
        message,
        doerId: a.id,
        posterId: ctx.issue.posterId,
      }, a),
      this.mergedEventShapes(a, ctx).catch(() => null),
    ]);
    const shapes = early ?? (await this.mergedEventShapes(a, ctx));
    // Every style leaves the merge commit (the last rebased one, or the head itself) at the base's tip.
    await this.recordMerged(a, ctx, result.mergeCommitSha, shapes, { headSha: result.headSha, baseSha: result.mergeCommitSha });
    log.info({ repoId: repo.id, index: pull.idx, style, sha: result.mergeCommitSha }, 'pull merged');
    // After the record, so the deletion's events find the pull merged.
    if (deleteHeadBranch && pull.headRepoId > 0) await this.deleteMergedHead(a, ctx, result.headSha);
  }

  /**
   * delete_branch_after_merge, as Gitea's DeleteBranch after a merge: the head branch goes if it
   * still holds what was merged, the doer may write there and no rule protects it; the pull then
   * shows a delete_branch row. The merge stands either way.
   */
  private async deleteMergedHead(a: Actor, ctx: PullContext, headSha: string): Promise<void> {
    const { pull } = ctx;
    try {
      // Gitea's DeleteBranchAfterMerge keeps a branch other unmerged pulls still come from.
      if ((await this.pulls.openTouching(pull.headRepoId, pull.headBranch)).byHead.some((p) => p.pull.id !== pull.id)) return;
      if (!(await this.git.deleteHead({ headRepoId: pull.headRepoId, headBranch: pull.headBranch, headSha, doerId: a.id }))) return;
      await this.db.transaction((m) => this.comments.addEvent(m, { issueId: ctx.issue.id, posterId: a.id, type: CommentType.delete_branch, at: new Date(), refs: { oldRef: pull.headBranch } }));
    } catch (err) {
      log.warn({ repoId: ctx.repo.id, index: pull.idx, err: err instanceof Error ? err.message : String(err) }, 'could not delete the head branch of a merged pull');
    }
  }

  /**
   * What the merged event shows besides the issue and pull rows, read outside the transaction
   * that records the merge (as Gitea's notifier takes the issue it loaded before): the event is
   * shaped there from the rows it locks and changes, so it holds its locks for the writes only.
   * Users as anyone sees them, the merger (the sender) among them.
   */
  private async mergedEventShapes(a: Actor, ctx: PullContext): Promise<MergedEventShapes> {
    const issue = await this.issueLoader.prepare([ctx.issue], new Map([[ctx.repo.id, ctx.repo]]), [a.id]);
    const pull = await this.loader.prepare(a, [ctx.issue.id], ctx.repo, { single: true, known: [...issue.users.values()] });
    return { issue: issue.shape, pull, sender: issue.users.get(a.id)! };
  }

  /**
   * `tips`: the head that was merged, when it moved since the pull last recorded it, and the base
   * branch's tip the merge left (Gitea shows a pull's base as its branch's tip).
   */
  private async recordMerged(a: Actor, ctx: PullContext, mergeCommitSha: string, shapes: MergedEventShapes, tips: { headSha?: string; baseSha?: string } = {}): Promise<void> {
    const { sender } = shapes;
    const now = new Date();
    const changes = { hasMerged: true, mergedCommitId: mergeCommitSha, mergerId: a.id, mergedAt: now, status: PullStatus.mergeable, ...tips };
    const counters = await this.db.transaction(async (m) => {
      // Only the merge that finds the pull unmerged records it; the row stays locked from here.
      if (!(await this.pulls.updateUnmerged(m, ctx.pull.id, changes))) return null;
      await this.pulls.unschedule(m, ctx.pull.id);
      const issueRow = await this.issues.lock(m, ctx.issue.id);
      if (!issueRow) return null;
      const closed = { isClosed: true, closedAt: issueRow.isClosed ? issueRow.closedAt : now, updatedAt: now };
      await this.issues.update(m, ctx.issue.id, closed);
      await this.comments.addEvent(m, { issueId: ctx.issue.id, posterId: a.id, type: CommentType.merge_pull, at: now });
      const recount = await this.issues.recount(m, ctx.repo.id);
      // The pull as it is now, merged (what a recomputation wrote since the request read it, such as
      // its base's tip, included; the update above found the row and holds it), and its milestone
      // counted in this transaction, with the issue closed.
      const rows = new Map([[ctx.issue.id, (await this.pulls.findByIssueId(ctx.issue.id, m))!]]);
      const [issue] = await shapes.issue([{ ...issueRow, ...closed }], { pulls: rows, m });
      const [pull] = shapes.pull([issue!], rows);
      await this.events.issue(m, 'pull.merged', { actor: a, action: 'closed', issue: issue!, repo: ctx.repo, sender, ...(pull ? { pull } : {}) });
      return recount;
    });
    // Neither waits for the other.
    await Promise.all([this.counters.publish(counters), counters ? this.closeReferenced(a, ctx, mergeCommitSha) : undefined]);
  }

  /**
   * Gitea's handleCloseCrossReferences: a merged pull closes the issues its title and body name
   * with a closing keyword (`fixes #12`) and reopens those named with `reopens`, as the merger,
   * naming the merge commit ({@link IssueReferences.actOnMerge}). The merge stands whatever happens here.
   */
  private async closeReferenced(a: Actor, ctx: PullContext, mergeCommitSha: string): Promise<void> {
    try {
      // A failed lookup only keeps the actions on other repositories' issues from happening.
      const posterOf = async (): Promise<Actor | null> => {
        const [poster] = await this.directory.accountsByIds(null, [ctx.issue.posterId]).catch(() => []);
        return poster ? actorOf(poster) : null;
      };
      await this.references.actOnMerge(a, posterOf, ctx.repo, `${ctx.issue.title}\n${ctx.issue.body}`, mergeCommitSha);
    } catch (err) {
      log.warn({ repoId: ctx.repo.id, index: ctx.pull.idx, err: err instanceof Error ? err.message : String(err) }, 'could not close the issues a merged pull names');
    }
  }

  /** `manually-merged`: the head is already in the base; the given commit is recorded as its merge. */
  private async markManuallyMerged(a: Actor, ctx: PullContext, commitId: string): Promise<void> {
    const { pull } = ctx;
    // The pull's own head (kept in refs/pull/{index}/head even when its branch or repository is gone) against the base now.
    const [state] = await this.git.sync([
      { index: pull.idx, baseRepoId: ctx.repo.id, baseBranch: pull.baseBranch, headRepoId: pull.headRepoId > 0 ? pull.headRepoId : ctx.repo.id, headBranch: pull.headBranch, headSha: pull.headSha },
    ]);
    if (!/^[0-9a-f]{40,64}$/.test(commitId) || !state || state.commitsAhead > 0) throw conflict('Wrong commit ID');
    await this.recordMerged(a, ctx, commitId, await this.mergedEventShapes(a, ctx));
  }

  /** Gitea's default merge messages per style. */
  private async defaultMergeMessage(ctx: PullContext, style: GitMergeStyle): Promise<string> {
    const title = ctx.issue.title;
    if (style === 'squash') return `${title} (#${ctx.pull.idx})`;
    if (style === 'rebase' || style === 'fast-forward-only') return '';
    let head = ctx.pull.headBranch;
    if (ctx.pull.headRepoId !== ctx.repo.id) {
      const [headRepo] = ctx.pull.headRepoId > 0 ? await this.gate.asOwner([ctx.pull.headRepoId]) : [];
      if (headRepo) head = `${headRepo.ownerLogin}/${headRepo.name}:${ctx.pull.headBranch}`;
    }
    return `Merge pull request '${title}' (#${ctx.pull.idx}) from ${head} into ${ctx.pull.baseBranch}`;
  }

  /** `DELETE /pulls/{index}/merge`: its scheduler or a repository admin cancels the auto-merge. */
  async cancelAutoMerge(actor: Actor | null, owner: string, repo: string, index: string): Promise<void> {
    const ctx = await this.contexts.pullForWrite(actor, owner, repo, index);
    const a = ctx.actor;
    const scheduled = await this.pulls.scheduledMerge(ctx.pull.id);
    if (!scheduled) throw notFound();
    if (scheduled.doerId !== a.id && !ctx.repo.isAdmin) throw forbidden('user has no permission to cancel the scheduled auto merge');
    await this.db.transaction((m) => this.pulls.unschedule(m, ctx.pull.id));
  }

  /** `POST /pulls/{index}/update`: the base merged into (or the head rebased onto it) the head branch. */
  async update(actor: Actor | null, owner: string, repo: string, index: string, style: string | undefined): Promise<void> {
    const a = await this.gate.signedIn(actor, owner, repo);
    const ctx = await this.contexts.pullFor(a, owner, repo, index);
    if (ctx.pull.hasMerged) throw unprocessable('pull request is already merged');
    if (ctx.issue.isClosed) throw unprocessable('pull request is already closed');
    if (ctx.pull.headRepoId <= 0) throw notFound();
    const rebase = style === 'rebase';
    // A public-only token pushes into no private head repository, nor one of a hidden owner
    // (Gitea's TokenCanAccessRepo: 404). Other doers need not read the head: a maintainer may
    // update a private fork with its poster's rights.
    if (ctx.pull.headRepoId !== ctx.repo.id && isPublicOnly(a.scopes)) {
      const [head] = await this.gate.many(a, [ctx.pull.headRepoId]);
      if (!head || head.isPrivate || head.repository.owner.visibility !== 'public') throw notFound();
    }
    // Gitea's CheckUserAllowedToUpdate: each style only where the repository allows it, and the
    // head branch's protection as repo-service judges it (asPullUpdate).
    if (rebase && !ctx.repo.repository.allow_rebase_update) throw ContractError.empty('permission_denied', 'rebase update is not allowed');
    if (!rebase && !ctx.repo.repository.allow_merge_update) throw ContractError.empty('permission_denied', 'merge update is not allowed');
    await this.git.update({
      asPullUpdate: { posterId: ctx.issue.posterId, allowMaintainerEdit: ctx.pull.allowMaintainerEdit },
      baseRepoId: ctx.repo.id,
      baseBranch: ctx.pull.baseBranch,
      headRepoId: ctx.pull.headRepoId,
      headBranch: ctx.pull.headBranch,
      index: ctx.pull.idx,
      style: rebase ? 'rebase' : 'merge',
      doerId: a.id,
    });
  }

  /** The latest non-dismissed approval or rejection of each reviewer of a pull. */
  async verdicts(issueId: number): Promise<ReviewVerdict[]> {
    return (await this.reviews.latestVerdicts([issueId])).get(issueId) ?? [];
  }

  /** What of the pull itself branch protection weighs besides its reviews (official requests asked only when the rule blocks on them). */
  private async standing(policy: PullPolicy, issueId: number, pull: PullRequestEntity): Promise<{ officialReviewRequested: boolean; commitsBehind: number }> {
    const officialReviewRequested = policy.protected && policy.blockOnOfficialReviewRequests ? await this.reviews.hasOfficialRequest(issueId) : false;
    return { officialReviewRequested, commitsBehind: pull.commitsBehind };
  }

  /**
   * Writes refs/pull/{index}/head of a new pull and stores what git says of it now (the pull-sync
   * consumer does the same for every pull a push moves); answers the row as stored.
   */
  private async syncNew(issue: IssueEntity, repo: RepoAccess): Promise<PullRequestEntity> {
    const pull = (await this.pulls.findByIssueId(issue.id))!;
    const [state] = await this.git.sync([
      { index: pull.idx, baseRepoId: repo.id, baseBranch: pull.baseBranch, headRepoId: pull.headRepoId, headBranch: pull.headBranch, headSha: null },
    ]);
    if (!state) return pull;
    await this.db.transaction((m) => this.pulls.update(m, pull.id, stateColumns(state)));
    return { ...pull, ...stateColumns(state) };
  }
}

/**
 * Gitea's CheckPullBranchProtections: what keeps a pull out of its protected base, as its
 * ErrDisallowedToMerge reason, or null.
 */
export function protectionBlock(
  policy: Pick<
    PullPolicy,
    | 'protected'
    | 'requiredApprovals'
    | 'officialReviewerIds'
    | 'blockOnRejectedReviews'
    | 'blockOnOfficialReviewRequests'
    | 'blockOnOutdatedBranch'
    | 'dismissStaleApprovals'
    | 'statusCheckEnabled'
    | 'statusChecksPassed'
    | 'protectedFiles'
  >,
  verdicts: Array<Pick<ReviewVerdict, 'reviewerId' | 'type' | 'stale'>>,
  pull: { officialReviewRequested: boolean; commitsBehind: number },
): string | null {
  if (!policy.protected) return null;
  if (policy.statusCheckEnabled && !policy.statusChecksPassed) return 'Not all required status checks successful';
  const official = verdicts.filter((v) => policy.officialReviewerIds.includes(v.reviewerId));
  const approvals = official.filter((v) => v.type === ReviewType.approve && !(policy.dismissStaleApprovals && v.stale)).length;
  if (approvals < policy.requiredApprovals) return 'Does not have enough approvals';
  if (policy.blockOnRejectedReviews && official.some((v) => v.type === ReviewType.reject)) return 'There are requested changes';
  if (policy.blockOnOfficialReviewRequests && pull.officialReviewRequested) return 'There are official review requests';
  if (policy.blockOnOutdatedBranch && pull.commitsBehind > 0) return 'The head branch is behind the base branch';
  if (policy.protectedFiles.length > 0) return 'Changed protected files';
  return null;
}

