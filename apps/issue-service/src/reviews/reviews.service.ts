import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  AccessMode,
  ContractError,
  forbidden,
  idFrom,
  invalid,
  isActingUserId,
  notFound,
  pageOf,
  TeamPatterns,
  unprocessable,
  type AccountRef,
  type Actor,
  type CreatePullReviewCommentReplyOptions,
  type CreatePullReviewOptions,
  type DismissPullReviewOptions,
  type ListOptions,
  type Page,
  type PullPolicy,
  type PullReview,
  type PullReviewComment,
  type PullReviewRequestOptions,
  type RepoTeamRequest,
  type SubmitPullReviewOptions,
  type Team,
  type TeamRef,
  type User,
} from '@gitforge/contracts';
import { Database, DirectoryClient, RpcClient } from '@gitforge/platform';
import { canRead, canWrite, RepoGate } from '../access/repo-gate.js';
import { CommentLoader } from '../comments/comment-loader.js';
import { requireMayComment } from '../comments/comment-rules.js';
import { CommentType } from '../comments/comment-type.js';
import { CommentsRepository } from '../comments/comments.repository.js';
import { CommentsService } from '../comments/comments.service.js';
import { IssueLoader } from '../issues/issue-loader.js';
import { IssuesRepository } from '../issues/issues.repository.js';
import { IssuesService } from '../issues/issues.service.js';
import { IssueEvents } from '../issues/issue-events.js';
import { PullContexts, type PullContext } from '../pulls/pull-contexts.js';
import { PullGitClient } from '../pulls/pull-git.client.js';
import { PullsRepository } from '../pulls/pulls.repository.js';
import { cutDiffAroundLine, fileDiff } from './diff-hunk.js';
import { isVerdict, reviewHookType, reviewTypeFor, storedLine } from './review-rules.js';
import { ReviewType, type ReviewEntity } from './review.entity.js';
import { toPullReview, toPullReviewComment } from './review.mapper.js';
import { CrossReferences } from '../references/cross-references.js';
import { ReviewsRepository } from './reviews.repository.js';

/** What Gitea writes when new commits dismiss approvals (DismissApprovalReviews). */
export const STALE_APPROVAL_MESSAGE = 'New commits pushed, approval review dismissed automatically according to repository settings';

const CLOSED_REVIEW = "can't submit review for a closed or merged PR";
const COMMIT_ID = /^[0-9a-f]{4,64}$/i;

/** Reviewers named in a request, resolved. */
export interface NamedReviewers {
  users: AccountRef[];
  teams: TeamRef[];
}

/** A review asked of a user or a team, with what its event and answer need. */
interface RequestChange {
  review: ReviewEntity | null;
  reviewer?: User;
  team?: Team;
}

@Injectable()
export class ReviewsService {
  constructor(
    private readonly db: Database,
    private readonly rpc: RpcClient,
    private readonly directory: DirectoryClient,
    private readonly gate: RepoGate,
    private readonly issuesService: IssuesService,
    private readonly issues: IssuesRepository,
    private readonly comments: CommentsRepository,
    private readonly commentsService: CommentsService,
    private readonly commentLoader: CommentLoader,
    private readonly issueLoader: IssueLoader,
    private readonly reviews: ReviewsRepository,
    private readonly events: IssueEvents,
    private readonly contexts: PullContexts,
    private readonly pulls: PullsRepository,
    private readonly git: PullGitClient,
    private readonly xrefs: CrossReferences,
  ) {}

  /**
   * Gitea's prepareSingleReview: a review of this pull; a pending one only for its reviewer and
   * site administrators (404 for everyone else).
   */
  private async reviewOf(ctx: PullContext, actor: Actor | null, rawId: string): Promise<ReviewEntity> {
    const id = idFrom(rawId);
    const review = id > 0 ? await this.reviews.findById(id) : null;
    if (!review) throw notFound(`review does not exist [id: ${id}]`);
    if (review.issueId !== ctx.issue.id) throw notFound();
    if (review.type === ReviewType.pending && !(actor && (actor.isAdmin || actor.id === review.reviewerId))) throw notFound();
    return review;
  }

  /** `GET /pulls/{index}/reviews`: others' pending reviews are left out (the total counts them, as Gitea's). */
  async list(actor: Actor | null, owner: string, repo: string, index: string, options: ListOptions): Promise<Page<PullReview>> {
    const ctx = await this.contexts.pullFor(actor, owner, repo, index);
    const [rows, total] = await this.reviews.list(ctx.issue.id, options);
    const visible = rows.filter((r) => r.type !== ReviewType.pending || (actor && (actor.isAdmin || actor.id === r.reviewerId)));
    return pageOf(await this.load(visible, ctx, { viewer: actor }), total, options);
  }

  async get(actor: Actor | null, owner: string, repo: string, index: string, id: string): Promise<PullReview> {
    const ctx = await this.contexts.pullFor(actor, owner, repo, index);
    return this.one(await this.reviewOf(ctx, actor, id), ctx, actor);
  }

  /** `GET /pulls/{index}/reviews/{id}/comments`: its line comments, oldest first. */
  async listComments(actor: Actor | null, owner: string, repo: string, index: string, id: string): Promise<PullReviewComment[]> {
    const ctx = await this.contexts.pullFor(actor, owner, repo, index);
    const review = await this.reviewOf(ctx, actor, id);
    const rows = await this.reviews.codeComments([review.id]);
    // Gitea's ToPullReviewCommentList shows the posters and resolvers as the caller sees them.
    const users = await this.issueLoader.posters([...rows.map((c) => c.posterId), ...rows.map((c) => c.resolveDoerId).filter(isActingUserId)], [], actor);
    return rows.map((c) =>
      toPullReviewComment(c, review, ctx.repo.repository, ctx.issue, { poster: users(c.posterId), resolver: isActingUserId(c.resolveDoerId) ? users(c.resolveDoerId) : null }),
    );
  }

  /**
   * `POST /pulls/{index}/reviews`: line comments join the reviewer's pending review (made if
   * none), which is then submitted as `event` says, or stays pending.
   */
  async create(actor: Actor | null, owner: string, repo: string, index: string, body: CreatePullReviewOptions): Promise<PullReview> {
    const ctx = await this.contexts.pullForWrite(actor, owner, repo, index);
    const a = ctx.actor;
    const comments = body.comments ?? [];
    const type = reviewTypeFor(body.event, body.body, comments.length > 0, ctx.issue.posterId === a.id);
    const commitId = body.commit_id || ctx.pull.headSha;
    if (body.commit_id && !COMMIT_ID.test(body.commit_id)) throw unprocessable(`invalid commit id: ${body.commit_id}`);
    for (const c of comments) if ((c.path ?? '').length > 4096) throw unprocessable('path is too long');
    const diff = comments.length > 0 ? await this.pullDiff(ctx) : '';
    const prepared = await this.prepareSubmit(ctx, a, type, body.body ?? '');
    const now = new Date();
    const reviewId = await this.db.transaction(async (m) => {
      await this.issues.lock(m, ctx.issue.id);
      let pending = await this.reviews.pendingOf(m, ctx.issue.id, a.id);
      if (!pending && comments.length > 0) {
        pending = await this.reviews.insert(m, {
          type: ReviewType.pending,
          reviewerId: a.id,
          issueId: ctx.issue.id,
          commitId,
          createdAt: now,
          updatedAt: now,
        });
      }
      // Each file's part of the diff, cut once however many comments it has.
      const fileDiffs = new Map<string, string>();
      for (const c of comments) {
        const line = storedLine(c.new_position, c.old_position);
        const path = c.path ?? '';
        if (!fileDiffs.has(path)) fileDiffs.set(path, fileDiff(diff, path));
        await this.comments.insert(m, {
          type: CommentType.code,
          issueId: ctx.issue.id,
          posterId: a.id,
          content: c.body ?? '',
          reviewId: pending!.id,
          treePath: path,
          line,
          commitSha: commitId,
          patch: cutDiffAroundLine(fileDiffs.get(path)!, Math.abs(line), line < 0),
          createdAt: now,
          updatedAt: now,
        });
      }
      return this.submitIn(m, ctx, a, pending, type, body.body ?? '', commitId, prepared, now);
    });
    await this.crossReference(a, ctx, reviewId, now);
    return this.one((await this.reviews.findById(reviewId))!, ctx, actor);
  }

  /**
   * The cross references of what a review call wrote at `since` (Gitea's CreateComment for
   * review and line comments): its submitted review's row and its new line comments.
   */
  private async crossReference(a: Actor, ctx: PullContext, reviewId: number, since: Date): Promise<void> {
    const rows = [...(await this.reviews.reviewRows(reviewId)), ...(await this.reviews.codeComments([reviewId]))];
    for (const row of rows) if (row.createdAt.getTime() >= since.getTime() && row.content) await this.xrefs.add(a, ctx.repo, ctx.issue, row, false);
  }

  /** `POST /pulls/{index}/reviews/{id}`: submits the actor's pending review at the pull's head. */
  async submit(actor: Actor | null, owner: string, repo: string, index: string, id: string, body: SubmitPullReviewOptions): Promise<PullReview> {
    const ctx = await this.contexts.pullForWrite(actor, owner, repo, index);
    const a = ctx.actor;
    const review = await this.reviewOf(ctx, a, id);
    if (review.type !== ReviewType.pending) throw unprocessable('only a pending review can be submitted');
    if (review.reviewerId !== a.id) throw forbidden('only the reviewer may submit a pending review');
    const count = (await this.reviews.codeCommentCounts([review.id])).get(review.id) ?? 0;
    const type = reviewTypeFor(body.event, body.body, count > 0, ctx.issue.posterId === a.id);
    if (type === ReviewType.pending) throw unprocessable('review stay pending');
    const prepared = await this.prepareSubmit(ctx, a, type, body.body ?? '');
    const now = new Date();
    const reviewId = await this.db.transaction(async (m) => {
      await this.issues.lock(m, ctx.issue.id);
      const pending = await this.reviews.pendingOf(m, ctx.issue.id, a.id);
      return this.submitIn(m, ctx, a, pending, type, body.body ?? '', ctx.pull.headSha, prepared, now);
    });
    await this.crossReference(a, ctx, reviewId, now);
    return this.one((await this.reviews.findById(reviewId))!, ctx, actor);
  }

  /**
   * What a submission needs from other services, asked before the transaction: whether the
   * reviewer's verdict is official (the base branch's rule), the teams whose requests it answers,
   * the users mentioned, and the users its event shows.
   */
  private async prepareSubmit(
    ctx: PullContext,
    a: Actor,
    type: ReviewType,
    content: string,
  ): Promise<{ official: boolean; teamIds: number[]; mentions: number[]; known: User[] }> {
    if (isVerdict(type) && (ctx.issue.isClosed || ctx.pull.hasMerged)) throw unprocessable(CLOSED_REVIEW);
    const verdict = isVerdict(type);
    const [policy, teamIds, mentions, known] = await Promise.all([
      verdict ? this.policy(ctx, [a.id]) : Promise.resolve(null),
      verdict && ctx.repo.ownerKind === 'organization' ? this.directory.teamIdsOfUser(ctx.repo.ownerId, a.id) : Promise.resolve([]),
      type === ReviewType.pending ? Promise.resolve([]) : this.issuesService.resolveMentions(ctx.repo, content),
      this.issueLoader.eventUsers(ctx.issue, [a.id]),
    ]);
    return { official: policy?.officialReviewerIds.includes(a.id) ?? false, teamIds, mentions, known };
  }

  /**
   * Gitea's SubmitReview in the caller's transaction: the pending review (or a new one) takes
   * the type, content and commit; a verdict is official only as the reviewer's latest, is stale
   * when made on an older commit, answers the reviewer's (and their teams') requests and
   * replaces their older verdicts. A submitted review gets its history row and its event.
   */
  private async submitIn(
    m: EntityManager,
    ctx: PullContext,
    a: Actor,
    pending: ReviewEntity | null,
    type: ReviewType,
    content: string,
    commitId: string,
    prepared: { official: boolean; teamIds: number[]; mentions: number[]; known: User[] },
    now: Date,
  ): Promise<number> {
    const verdict = isVerdict(type);
    const fields = {
      type,
      content,
      commitId,
      official: verdict && prepared.official,
      stale: verdict && commitId !== ctx.pull.headSha,
      updatedAt: now,
    };
    if (verdict) await this.reviews.clearOfficial(m, ctx.issue.id, a.id);
    if (type !== ReviewType.pending) await this.reviews.deleteRequestsOf(m, ctx.issue.id, a.id);
    if (verdict) await this.reviews.dismissVerdictsOf(m, ctx.issue.id, a.id);
    let review: ReviewEntity;
    if (pending) {
      await this.reviews.update(m, pending.id, fields);
      review = { ...pending, ...fields };
    } else {
      review = await this.reviews.insert(m, { ...fields, reviewerId: a.id, issueId: ctx.issue.id, createdAt: now });
    }
    if (type === ReviewType.pending) return review.id;
    const reviewRow = await this.comments.addEvent(m, { issueId: ctx.issue.id, posterId: a.id, type: CommentType.review, at: now, content, refs: { reviewId: review.id } });
    if (verdict && prepared.teamIds.length > 0) {
      for (const request of await this.reviews.teamRequests(m, ctx.issue.id)) {
        if (prepared.teamIds.includes(request.reviewerTeamId)) await this.reviews.delete(m, request.id);
      }
    }
    await this.issues.addMentions(m, ctx.issue.id, prepared.mentions);
    await this.issues.update(m, ctx.issue.id, { updatedAt: now });
    const hookType = reviewHookType(type);
    if (hookType) {
      const base = await this.eventBase(m, ctx, a, prepared.known);
      // The review's own row and its line comments, as Gitea's feed records them (one entry each).
      const codeRows = await this.reviews.codeComments([review.id], m);
      const [reviewComment, ...codeComments] = await this.commentLoader.load([reviewRow, ...codeRows], new Map([[ctx.issue.id, ctx.issue]]), ctx.repo, { m, known: prepared.known });
      await this.events.issue(m, 'pull.reviewed', {
        ...base,
        action: 'reviewed',
        extra: { review: { type: hookType, content }, review_comment: reviewComment!, review_code_comments: codeComments },
      });
    }
    return review.id;
  }

  /** `DELETE /pulls/{index}/reviews/{id}` (204): the reviewer or a site administrator; its rows go with it. */
  async delete(actor: Actor | null, owner: string, repo: string, index: string, id: string): Promise<void> {
    const ctx = await this.contexts.pullForWrite(actor, owner, repo, index);
    const review = await this.reviewOf(ctx, ctx.actor, id);
    if (!ctx.actor.isAdmin && ctx.actor.id !== review.reviewerId) throw ContractError.empty('permission_denied', 'not the reviewer');
    if (review.type === ReviewType.request) throw unprocessable('review request can not be deleted using this method');
    await this.db.transaction(async (m) => {
      await this.reviews.deleteRowsOf(m, review);
      await this.reviews.delete(m, review.id);
      if (review.official) await this.restoreLatestOfficial(m, review.issueId, review.reviewerId);
    });
  }

  /** Gitea's restoreLatestOfficialReview: the reviewer's latest verdict or request is official again. */
  private async restoreLatestOfficial(m: EntityManager, issueId: number, reviewerId: number): Promise<void> {
    const latest = await this.reviews.latestOf(m, issueId, reviewerId);
    if (latest) await this.reviews.update(m, latest.id, { official: true });
  }

  /**
   * `POST …/reviews/{id}/dismissals` and `/undismissals`: repository administrators, approvals
   * and rejections only, not on a closed or merged pull. `priors` dismisses the reviewer's other
   * verdicts too; a dismissal leaves a `dismiss_review` row with the message.
   */
  async dismiss(actor: Actor | null, owner: string, repo: string, index: string, id: string, dismiss: boolean, body: DismissPullReviewOptions = {}): Promise<PullReview> {
    const ctx = await this.contexts.pullForWrite(actor, owner, repo, index);
    const a = ctx.actor;
    if (!ctx.repo.isAdmin) throw forbidden('Must be repo admin');
    const review = await this.reviewOf(ctx, a, id);
    if (!isVerdict(review.type)) throw forbidden("not need to dismiss this review because it's type is not Approve or change request");
    if (ctx.issue.isClosed || ctx.pull.hasMerged) throw forbidden("can't dismiss a review associated to a closed or merged PR");
    const known = await this.issueLoader.eventUsers(ctx.issue, [a.id]);
    await this.db.transaction(async (m) => {
      const now = new Date();
      if (review.dismissed !== dismiss) await this.reviews.update(m, review.id, { dismissed: dismiss });
      if (body.priors) {
        for (const prior of await this.reviews.undismissedOf(m, review.issueId, review.reviewerId)) {
          await this.reviews.update(m, prior.id, { dismissed: true });
        }
      }
      if (!dismiss) return;
      const message = body.message ?? '';
      await this.comments.addEvent(m, { issueId: ctx.issue.id, posterId: a.id, type: CommentType.dismiss_review, at: now, content: message, refs: { reviewId: review.id } });
      await this.issues.update(m, ctx.issue.id, { updatedAt: now });
      const base = await this.eventBase(m, ctx, a, known);
      await this.events.issue(m, 'pull.reviewed', { ...base, action: 'review_dismissed', extra: { review: { type: reviewHookType(review.type)!, content: message } } });
    });
    return this.one((await this.reviews.findById(review.id))!, ctx, a);
  }

  /**
   * `POST|DELETE /pulls/{index}/requested_reviewers`: Gitea's ReviewRequest and
   * TeamReviewRequest. Answers the new requests (empty when removing).
   */
  async changeRequests(actor: Actor | null, owner: string, repo: string, index: string, body: PullReviewRequestOptions, add: boolean): Promise<PullReview[]> {
    const ctx = await this.contexts.pullForWrite(actor, owner, repo, index);
    return this.applyRequests(ctx, ctx.actor, await this.namedReviewers(ctx.actor, ctx.repo, body), add);
  }

  /** Reviewers and teams by name (Gitea's parseReviewersByNames: 404 for an unknown one), read before anything changes. */
  async namedReviewers(a: Actor, repo: PullContext['repo'], body: PullReviewRequestOptions): Promise<NamedReviewers> {
    const users = await this.reviewersByNames(a, body.reviewers ?? []);
    const teams = repo.ownerKind === 'organization' ? await this.teamsByNames(repo.ownerId, body.team_reviewers ?? []) : [];
    return { users, teams };
  }

  /** Asks (or stops asking) the named reviewers of one pull, with Gitea's checks, history rows and events; answers the new requests. */
  async applyRequests(ctx: PullContext, a: Actor, { users, teams }: NamedReviewers, add: boolean): Promise<PullReview[]> {
    if (users.length === 0 && teams.length === 0) return [];
    const reason = (text: string): ContractError => unprocessable(`${text} [user_id: ${a.id}, repo_id: ${ctx.repo.id}]`);
    const mayChange = this.mayChangeRequests(ctx, a);
    const [access, linked, policy, known] = await Promise.all([
      add ? this.gate.usersAccess(ctx.repo.id, users.map((u) => u.id)) : Promise.resolve([]),
      add && teams.length > 0 && ctx.repo.isPrivate ? this.linkedTeamIds(ctx) : Promise.resolve(new Set<number>()),
      users.length > 0 || teams.length > 0 ? this.policy(ctx, [...users.map((u) => u.id), a.id]) : Promise.resolve(null),
      this.issueLoader.eventUsers(ctx.issue, [a.id, ...users.map((u) => u.id)]),
    ]);
    const official = (id: number): boolean => policy?.officialReviewerIds.includes(id) ?? false;
    const changes = await this.db.transaction(async (m) => {
      await this.issues.lock(m, ctx.issue.id);
      const now = new Date();
      const history = { issueId: ctx.issue.id, posterId: a.id, type: CommentType.review_request, at: now } as const;
      const done: RequestChange[] = [];
      for (const u of users) {
        if (u.kind === 'organization') throw reason("Organization can't be added as reviewer");
        const last = await this.reviews.latestOf(m, ctx.issue.id, u.id);
        if (add) {
          const units = access.find((x) => x.userId === u.id)?.units['repo.pulls'] ?? AccessMode.none;
          if (!ctx.repo.settings.has_pull_requests || units < AccessMode.read) throw reason("Reviewer can't read");
          if (u.id === ctx.issue.posterId) throw reason("poster of pr can't be reviewer");
          if (!mayChange) throw reason("Doer can't choose reviewer");
          if (last?.type === ReviewType.request) continue;
          if (last && (ctx.issue.isClosed || ctx.pull.hasMerged)) throw forbidden('cannot request a re-review on a closed or merged PR');
          if (official(u.id)) await this.reviews.clearOfficial(m, ctx.issue.id, u.id);
          const review = await this.reviews.insert(m, { type: ReviewType.request, reviewerId: u.id, issueId: ctx.issue.id, official: official(u.id), createdAt: now, updatedAt: now });
          await this.comments.addEvent(m, { ...history, refs: { assigneeId: u.id, reviewId: review.id } });
          done.push({ review, reviewer: u.user });
        } else {
          if (!mayChange && !(last?.type === ReviewType.request && last.reviewerId === a.id)) throw reason("Doer can't remove reviewer");
          if (last?.type !== ReviewType.request) continue;
          await this.reviews.delete(m, last.id);
          if (official(u.id)) await this.restoreLatestOfficial(m, ctx.issue.id, u.id);
          await this.comments.addEvent(m, { ...history, refs: { assigneeId: u.id, removedAssignee: true } });
          done.push({ review: null, reviewer: u.user });
        }
      }
      for (const t of teams) {
        if (add && ctx.repo.isPrivate && !linked.has(t.id)) throw reason("Reviewing team can't read repo");
        if (!mayChange) throw reason(add ? "Doer can't choose reviewer" : "Doer can't remove reviewer");
        const existing = await this.reviews.teamRequestOf(m, ctx.issue.id, t.id);
        if (add) {
          if (existing) continue;
          // The rule's team whitelist is not asked; as Gitea without one, the doer's standing decides.
          const review = await this.reviews.insert(m, { type: ReviewType.request, reviewerTeamId: t.id, issueId: ctx.issue.id, official: official(a.id), createdAt: now, updatedAt: now });
          await this.comments.addEvent(m, { ...history, refs: { assigneeTeamId: t.id, reviewId: review.id } });
          done.push({ review, team: t.team });
        } else {
          if (!existing) continue;
          await this.reviews.delete(m, existing.id);
          await this.comments.addEvent(m, { ...history, refs: { assigneeTeamId: t.id, removedAssignee: true } });
        }
      }
      if (done.length > 0 || teams.length > 0) await this.issues.update(m, ctx.issue.id, { updatedAt: now });
      if (done.length > 0) {
        const base = await this.eventBase(m, ctx, a, known);
        const action = add ? 'review_requested' : 'review_request_removed';
        for (const c of done) await this.events.issue(m, 'pull.review_requested', { ...base, action, extra: { requested_reviewer: c.reviewer ?? null, requested_team: c.team ?? null } });
      }
      return done;
    });
    if (!add) return [];
    return this.load(changes.map((c) => c.review!), ctx, { viewer: a, teams: teams.map((t) => t.team) });
  }

  /**
   * `POST /pulls/{index}/comments/{id}/replies` (201): a line comment in the conversation of
   * another, on its file, line and commit, in its review (Gitea's CreateCodeComment for a reply).
   * Readers may reply, as they may review; a locked pull takes its writers' only. A reply in a
   * submitted review is a `pull_request_comment` like any comment; one in the actor's own pending
   * review waits for it.
   */
  async reply(
    actor: Actor | null,
    owner: string,
    repo: string,
    index: string,
    id: string,
    body: CreatePullReviewCommentReplyOptions,
  ): Promise<PullReviewComment> {
    const ctx = await this.contexts.pullForWrite(actor, owner, repo, index);
    const a = ctx.actor;
    requireMayComment(ctx.repo, ctx.issue, a);
    const commentId = idFrom(id);
    const parent = commentId > 0 ? await this.comments.findById(commentId) : null;
    if (!parent || parent.issueId !== ctx.issue.id || parent.type !== CommentType.code) throw notFound(`comment does not exist [id: ${commentId}]`);
    const review = parent.reviewId > 0 ? await this.reviews.findById(parent.reviewId) : null;
    if (!review || (review.type === ReviewType.pending && review.reviewerId !== a.id)) throw notFound(`comment does not exist [id: ${commentId}]`);
    const content = body.body ?? '';
    if (content.trim() === '') throw unprocessable('reply body is empty');
    const [mentions, known] = await Promise.all([this.issuesService.resolveMentions(ctx.repo, content), this.issueLoader.eventUsers(ctx.issue, [a.id])]);
    const now = new Date();
    const row = await this.db.transaction(async (m) => {
      if (!(await this.issues.lock(m, ctx.issue.id))) throw notFound();
      const inserted = await this.comments.insert(m, {
        type: CommentType.code,
        issueId: ctx.issue.id,
        posterId: a.id,
        content,
        reviewId: review.id,
        treePath: parent.treePath,
        line: parent.line,
        commitSha: parent.commitSha,
        oldRef: parent.oldRef,
        patch: parent.patch,
        createdAt: now,
        updatedAt: now,
      });
      await this.issues.addMentions(m, ctx.issue.id, mentions);
      // A line comment outside a pending review counts the conversation again, as Gitea's does.
      const numComments = review.type !== ReviewType.pending ? await this.comments.countComments(m, ctx.issue.id) : undefined;
      await this.issues.update(m, ctx.issue.id, { updatedAt: now, ...(numComments !== undefined ? { numComments } : {}) });
      if (review.type !== ReviewType.pending) {
        const { issue, sender } = await this.eventBase(m, ctx, a, known);
        const comment = await this.commentLoader.one(inserted, ctx.issue, ctx.repo, { m, known });
        await this.events.comment(m, 'comment.created', { actor: a, issue, comment, repo: ctx.repo, sender });
      }
      return inserted;
    });
    await this.xrefs.add(a, ctx.repo, ctx.issue, row, false);
    const sender = known.find((u) => u.id === a.id)!;
    return toPullReviewComment(row, review, ctx.repo.repository, ctx.issue, { poster: sender, resolver: null });
  }

  /**
   * `POST /pulls/comments/{id}/resolve|unresolve` (204): a line comment's conversation, marked by
   * the pull's poster, its writers or official reviewers (Gitea's CanMarkConversation).
   */
  async resolve(actor: Actor | null, owner: string, repo: string, id: string, resolved: boolean): Promise<void> {
    const { comment, issue, repo: access, actor: a } = await this.commentsService.commentForWrite(actor, owner, repo, id);
    if (comment.type !== CommentType.code) throw invalid('comment is not a review comment');
    if (a.id !== issue.posterId && !canWrite(access, 'repo.pulls')) {
      const pull = await this.pulls.findByIssueId(issue.id);
      const policy = pull ? await this.policy({ repo: access, issue, pull }, [a.id]) : null;
      if (!policy?.officialReviewerIds.includes(a.id)) throw forbidden('user should have permission to resolve the conversation');
    }
    if ((comment.resolveDoerId !== 0) === resolved) return;
    await this.db.transaction(async (m) => {
      await this.comments.update(m, comment.id, { resolveDoerId: resolved ? a.id : 0 });
    });
  }

  /**
   * For pull-sync, in its transaction, when the head moved to `headSha`: reviews of other
   * commits become stale (Gitea's MarkReviewsAsStale, then MarkReviewsAsNotStale for the head),
   * and when the base branch's rule dismisses stale approvals, every approval standing is
   * dismissed with Gitea's history row by `doerId`. Answers the ids of the dismissed reviews.
   */
  async markStale(m: EntityManager, issueId: number, headSha: string, options: { dismissStaleApprovals: boolean; doerId: number }): Promise<number[]> {
    await this.reviews.markStale(m, issueId, headSha);
    if (!options.dismissStaleApprovals) return [];
    const approvals = await this.reviews.undismissedApprovals(m, issueId);
    const at = new Date();
    for (const r of approvals) {
      await this.reviews.update(m, r.id, { dismissed: true });
      await this.comments.addEvent(m, {
        issueId,
        posterId: options.doerId,
        type: CommentType.dismiss_review,
        at,
        content: STALE_APPROVAL_MESSAGE,
        refs: { reviewId: r.id },
      });
    }
    return approvals.map((r) => r.id);
  }

  /** Gitea's CanDoerChangeReviewRequests, as far as access tells it: the poster, writers, admins, and readers of a private repository (its collaborators and teams). */
  private mayChangeRequests(ctx: PullContext, a: Actor): boolean {
    if (a.id === ctx.issue.posterId || a.id === ctx.repo.ownerId || ctx.repo.isAdmin) return true;
    if (canWrite(ctx.repo, 'repo.pulls')) return true;
    return ctx.repo.isPrivate && canRead(ctx.repo, 'repo.pulls');
  }

  /** Reviewers by name, or by e-mail when it holds an `@`; an unknown one is Gitea's 404. */
  private async reviewersByNames(actor: Actor, names: string[]): Promise<AccountRef[]> {
    if (names.length === 0) return [];
    const emails = names.filter((n) => n.includes('@'));
    const [byName, byEmail] = await Promise.all([
      this.directory.accountsByNames(actor, names.filter((n) => !n.includes('@'))),
      this.directory.usersByEmails(actor, emails),
    ]);
    const out: AccountRef[] = [];
    for (const name of names) {
      const found = name.includes('@')
        ? byEmail.find((x) => x.email.toLowerCase() === name.toLowerCase())
        : byName.find((x) => x.login.toLowerCase() === name.toLowerCase());
      // Gitea's parseReviewersByNames words.
      if (!found) throw notFound(`user doesn't exist: ${name}`);
      if (!out.some((x) => x.id === found.id)) out.push(found);
    }
    return out;
  }

  private async teamsByNames(orgId: number, names: string[]): Promise<TeamRef[]> {
    if (names.length === 0) return [];
    const found = await this.directory.teams(orgId, { names });
    const out: TeamRef[] = [];
    for (const name of names) {
      const team = found.find((t) => t.name.toLowerCase() === name.toLowerCase());
      if (!team) throw notFound(`team doesn't exist: ${name}`);
      if (!out.some((t) => t.id === team.id)) out.push(team);
    }
    return out;
  }

  /** The organization's teams that reach the repository (Gitea's HasTeamRepo), one call. */
  private async linkedTeamIds(ctx: PullContext): Promise<Set<number>> {
    const teams = await this.rpc.call<Team[], Record<string, string>, RepoTeamRequest>(TeamPatterns.listForRepo, {
      actor: null,
      body: { orgId: ctx.repo.ownerId, repoId: ctx.repo.id },
    });
    return new Set(teams.map((t) => t.id));
  }

  /** The base branch's rule as it bears on `reviewerIds` (official reviewers). */
  private policy(ctx: PullContext, reviewerIds: number[]): Promise<PullPolicy> {
    return this.git.policy({ repoId: ctx.pull.baseRepoId, branch: ctx.pull.baseBranch, doerId: 0, reviewerIds: [...new Set(reviewerIds)], headSha: ctx.pull.headSha });
  }

  /** The pull's whole diff (merge base to head), for the hunks of line comments; empty before its first sync. */
  private async pullDiff(ctx: PullContext): Promise<string> {
    if (!ctx.pull.mergeBase || !ctx.pull.headSha) return '';
    const raw = await this.git.diff({ repoId: ctx.pull.baseRepoId, mergeBase: ctx.pull.mergeBase, headSha: ctx.pull.headSha, kind: 'diff' });
    return raw.text;
  }

  private async eventBase(m: EntityManager, ctx: PullContext, a: Actor, known: User[]) {
    const row = (await this.issues.findById(ctx.issue.id, m))!;
    const issue = await this.issueLoader.one(row, ctx.repo, { m, known });
    return { actor: a, issue, repo: ctx.repo, sender: known.find((u) => u.id === a.id)! };
  }

  private async one(review: ReviewEntity, ctx: PullContext, viewer: Actor | null): Promise<PullReview> {
    const [out] = await this.load([review], ctx, { viewer });
    return out!;
  }

  /**
   * A page of reviews: one query per kind (line comment counts, history rows), one directory call
   * for users, one for teams. Reviewers are shown as `viewer` sees them (Gitea's ToPullReview).
   */
  private async load(rows: ReviewEntity[], ctx: PullContext, given: { teams?: Team[]; viewer: Actor | null }): Promise<PullReview[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const teamIds = [...new Set(rows.map((r) => r.reviewerTeamId).filter((id) => id > 0))].filter((id) => !given.teams?.some((t) => t.id === id));
    const [counts, historyRows, users, teams] = await Promise.all([
      this.reviews.codeCommentCounts(ids),
      this.reviews.reviewRowIds(ids),
      this.issueLoader.posters(rows.map((r) => r.reviewerId).filter(isActingUserId), [], given.viewer),
      teamIds.length > 0 && ctx.repo.ownerKind === 'organization' ? this.directory.teams(ctx.repo.ownerId, { ids: teamIds }) : Promise.resolve([]),
    ]);
    const team = new Map<number, Team>([...(given.teams ?? []).map((t) => [t.id, t] as const), ...teams.map((t) => [t.id, t.team] as const)]);
    return rows.map((r) =>
      toPullReview(r, ctx.repo.repository, ctx.issue, {
        reviewer: isActingUserId(r.reviewerId) ? users(r.reviewerId) : null,
        team: team.get(r.reviewerTeamId) ?? null,
        commentsCount: counts.get(r.id) ?? 0,
        historyRowId: historyRows.get(r.id) ?? 0,
      }),
    );
  }
}

