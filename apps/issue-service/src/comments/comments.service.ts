import { Injectable } from '@nestjs/common';
import {
  ContractError,
  parseQueryTime,
  notFound,
  pageOf,
  wholeOrPageOf,
  type Actor,
  type Comment,
  type CreateIssueCommentOption,
  type EditIssueCommentOption,
  type ListOptions,
  type Page,
  type RepoAccess,
  type TimelineComment,
  type User,
  idFrom,
} from '@gitforge/contracts';
import { Database } from '@gitforge/platform';
import type { EntityManager } from 'typeorm';
import {
  canRead,
  canReadIssuesOrPulls,
  requireIssuesOrPulls,
  requireNotArchived,
  RepoGate,
} from '../access/repo-gate.js';
import { attachmentBlobKey } from '../attachments/attachment.entity.js';
import { AttachmentsRepository } from '../attachments/attachments.repository.js';
import { IssueEvents } from '../issues/issue-events.js';
import { IssueRemoval } from '../issues/issue-removal.js';
import { IssueLoader } from '../issues/issue-loader.js';
import type { IssueEntity } from '../issues/issue.entity.js';
import { IssuesRepository } from '../issues/issues.repository.js';
import { IssuesService } from '../issues/issues.service.js';
import { ReactionsRepository } from '../reactions/reactions.repository.js';
import { CommentLoader } from './comment-loader.js';
import { requireMayChangeComment, requireMayComment } from './comment-rules.js';
import { CommentType } from './comment-type.js';
import type { CommentEntity } from './comment.entity.js';
import { CommentsRepository } from './comments.repository.js';
import { CrossReferences } from '../references/cross-references.js';

/** Query parameters of the comment listings and the timeline. */
export interface CommentListQuery {
  since?: string;
  before?: string;
}

/** A comment and its issue, after the access checks of the comment routes. */
export interface CommentContext {
  comment: CommentEntity;
  issue: IssueEntity;
}

/** Gitea's GetQueryBeforeSince: RFC 3339 times, read before anything else (a bad one is 422). */
function updatedRange(query: CommentListQuery): { updatedAfter?: Date; updatedBefore?: Date } {
  return {
    updatedAfter: parseQueryTime('since', query.since),
    updatedBefore: parseQueryTime('before', query.before),
  };
}

/** A comment id from a path: Gitea reads anything else as 0, which names no comment. */
function parseCommentId(raw: string): number {
  return idFrom(raw);
}


/** Gitea's CommentType.HasContentSupport. */
const CONTENT_TYPES: ReadonlySet<number> = new Set([CommentType.comment, CommentType.code, CommentType.review, CommentType.dismiss_review]);

@Injectable()
export class CommentsService {
  constructor(
    private readonly db: Database,
    private readonly gate: RepoGate,
    private readonly issuesService: IssuesService,
    private readonly issues: IssuesRepository,
    private readonly comments: CommentsRepository,
    private readonly reactions: ReactionsRepository,
    private readonly attachments: AttachmentsRepository,
    private readonly loader: CommentLoader,
    private readonly issueLoader: IssueLoader,
    private readonly events: IssueEvents,
    private readonly removal: IssueRemoval,
    private readonly xrefs: CrossReferences,
  ) {}

  /** `GET …/issues/{index}/comments`: every comment of the issue (Gitea pages nothing here). */
  async listForIssue(
    actor: Actor | null,
    owner: string,
    repoName: string,
    index: string,
    query: CommentListQuery,
  ): Promise<Page<Comment>> {
    const range = updatedRange(query);
    const { repo, issue } = await this.issuesService.issueFor(actor, owner, repoName, index);
    const [rows, total] = await this.comments.list({
      issueId: issue.id,
      type: CommentType.comment,
      ...range,
    });
    const items = await this.loader.load(rows, new Map([[issue.id, issue]]), repo);
    return wholeOrPageOf(items, total);
  }

  /** `GET /repos/{o}/{r}/issues/comments`: the comments of every issue (or pull) the actor may read. */
  async listForRepo(
    actor: Actor | null,
    owner: string,
    repoName: string,
    query: CommentListQuery,
    options: ListOptions,
  ): Promise<Page<Comment>> {
    const range = updatedRange(query);
    const repo = await this.gate.assign(actor, owner, repoName);
    const issues = canRead(repo, 'repo.issues');
    const pulls = canRead(repo, 'repo.pulls');
    if (!issues && !pulls) throw notFound();
    const isPull = issues && pulls ? undefined : pulls;
    const [rows, total] = await this.comments.list(
      { repoId: repo.id, isPull, type: CommentType.comment, ...range },
      options,
    );
    const owners = await this.issues.findByIds([...new Set(rows.map((r) => r.issueId))]);
    const items = await this.loader.load(rows, new Map(owners.map((i) => [i.id, i])), repo);
    return pageOf(items, total, options);
  }

  /** `GET …/issues/comments/{id}`; null for a history row that is not a comment (Gitea's 204). */
  async get(actor: Actor | null, owner: string, repoName: string, id: string): Promise<Comment | null> {
    const { repo, comment, issue } = await this.commentFor(actor, owner, repoName, id);
    if (comment.type !== CommentType.comment) return null;
    return this.loader.one(comment, issue, repo);
  }

  /** `POST …/issues/{index}/comments`: readers comment; a locked issue only takes its writers' (and site admins'). */
  async create(
    actor: Actor | null,
    owner: string,
    repoName: string,
    index: string,
    body: CreateIssueCommentOption,
  ): Promise<Comment> {
    const { repo, issue, actor: a } = await this.issuesService.issueForWrite(actor, owner, repoName, index);
    requireMayComment(repo, issue, a);
    const mentions = await this.issuesService.resolveMentions(repo, body.body);
    const known = await this.issueLoader.eventUsers(issue, [a.id]);
    const sender = known.find((u) => u.id === a.id)!;
    const now = new Date();
    const { comment, row } = await this.db.transaction(async (m) => {
      if (!(await this.issues.lock(m, issue.id))) throw notFound();
      const row = await this.comments.insert(m, {
        type: CommentType.comment,
        issueId: issue.id,
        posterId: a.id,
        content: body.body,
        createdAt: now,
        updatedAt: now,
      });
      await this.issues.addMentions(m, issue.id, mentions);
      const after = await this.recount(m, issue, now);
      const comment = await this.loader.one(row, after, repo, { m, known });
      const api = await this.issueLoader.one(after, repo, { m, known });
      await this.events.comment(m, 'comment.created', { actor: a, issue: api, comment, repo, sender });
      return { comment, row };
    });
    await this.xrefs.add(a, repo, issue, row, false);
    return comment;
  }

  /**
   * `PATCH …/issues/comments/{id}` (and the deprecated route under the issue): the poster or
   * the unit's writers; null for a history row without content (Gitea's 204).
   */
  async edit(
    actor: Actor | null,
    owner: string,
    repoName: string,
    id: string,
    body: EditIssueCommentOption,
  ): Promise<Comment | null> {
    const { repo, comment, issue, actor: a } = await this.commentForChange(actor, owner, repoName, id);
    if (comment.type !== CommentType.comment) return null;
    if (body.body === comment.content) return this.loader.one(comment, issue, repo);
    const mentions = await this.issuesService.resolveMentions(repo, body.body);
    const known = await this.issueLoader.eventUsers(issue, [a.id, comment.posterId]);
    const edited = await this.db.transaction(async (m) => {
      await this.issues.addMentions(m, issue.id, mentions);
      return this.saveEdit(m, a, repo, issue, comment, body.body, known);
    });
    await this.xrefs.add(a, repo, issue, { id: comment.id, content: body.body }, true);
    return edited;
  }

  /**
   * Gitea re-saves a comment's content when a file is attached to it: a new content version and
   * an `edited` event whose body is unchanged. Runs in the upload's transaction.
   */
  async attachmentAdded(m: EntityManager, actor: Actor, repo: RepoAccess, issue: IssueEntity, comment: CommentEntity): Promise<void> {
    const known = await this.issueLoader.eventUsers(issue, [actor.id, comment.posterId]);
    await this.saveEdit(m, actor, repo, issue, comment, comment.content, known);
  }

  /** A comment's new content, saved with its `edited` event; `known` holds the sender. */
  private async saveEdit(
    m: EntityManager,
    a: Actor,
    repo: RepoAccess,
    issue: IssueEntity,
    comment: CommentEntity,
    content: string,
    known: User[],
  ): Promise<Comment> {
    await this.comments.update(m, comment.id, {
      content,
      contentVersion: comment.contentVersion + 1,
      updatedAt: new Date(),
    });
    const row = (await this.comments.findById(comment.id, m))!;
    const edited = await this.loader.one(row, issue, repo, { m, known });
    const api = await this.issueLoader.one(issue, repo, { m, known });
    await this.events.comment(m, 'comment.edited', {
      actor: a,
      issue: api,
      comment: edited,
      repo,
      sender: known.find((u) => u.id === a.id)!,
      changes: { body: { from: comment.content } },
    });
    return edited;
  }

  /**
   * `DELETE …/issues/comments/{id}` (204): the poster or the unit's writers; its reactions and
   * attachments go with it (the attachments' files once the rows are gone for good).
   */
  async delete(actor: Actor | null, owner: string, repoName: string, id: string): Promise<void> {
    const { repo, comment, issue, actor: a } = await this.commentForChange(actor, owner, repoName, id);
    // Gitea's deleteIssueComment: only what has content (comments, review and code comments) goes; events are a bare 400.
    if (!CONTENT_TYPES.has(comment.type)) throw ContractError.empty('invalid_argument', 'the comment has no content to delete');
    const known = await this.issueLoader.eventUsers(issue, [a.id, comment.posterId]);
    const sender = known.find((u) => u.id === a.id)!;
    const deleted = await this.loader.one(comment, issue, repo, { known });
    const files = await this.db.transaction(async (m) => {
      await this.issues.lock(m, issue.id);
      await this.comments.delete(m, comment.id);
      await this.xrefs.neuterComment(m, issue.id, comment.id);
      await this.reactions.deleteForComment(m, comment.id);
      const uuids = await this.attachments.deleteOfComment(m, comment.id);
      const after = await this.recount(m, issue);
      if (comment.type === CommentType.comment) {
        const api = await this.issueLoader.one(after, repo, { m, known });
        await this.events.comment(m, 'comment.deleted', { actor: a, issue: api, comment: deleted, repo, sender });
      }
      return uuids.map(attachmentBlobKey);
    });
    await this.removal.files(files);
  }

  /** `GET …/issues/{index}/timeline`: the issue's history, oldest first, a page at a time. */
  async timeline(
    actor: Actor | null,
    owner: string,
    repoName: string,
    index: string,
    query: CommentListQuery,
    options: ListOptions,
  ): Promise<Page<TimelineComment>> {
    const range = updatedRange(query);
    const { repo, issue } = await this.issuesService.issueFor(actor, owner, repoName, index);
    // Gitea's timeline leaves out comments on lines; their review's row stands for them.
    const [rows] = await this.comments.list({ issueId: issue.id, excludeTypes: [CommentType.code], ...range }, options);
    const items = await this.loader.timeline(rows, issue, repo, actor);
    // Gitea counts what it answers, not the whole history.
    return pageOf(items, items.length, options);
  }

  /**
   * The comment `id` if it belongs to a readable issue of this repository. An unknown id is
   * Gitea's ErrCommentNotExist; one of another repository or of an unreadable unit a bare 404.
   */
  async commentIn(repo: RepoAccess, id: string): Promise<CommentContext> {
    const commentId = parseCommentId(id);
    const comment = commentId > 0 ? await this.comments.findById(commentId) : null;
    if (!comment) throw notFound(`comment does not exist [id: ${commentId}, issue_id: 0]`);
    const issue = await this.issues.findById(comment.issueId);
    if (!issue || issue.repoId !== repo.id || !canReadIssuesOrPulls(repo, issue.isPull)) throw notFound();
    return { comment, issue };
  }

  /** The comment `id` of a repository the actor may see, whose issues or pulls it may read. */
  async commentFor(actor: Actor | null, owner: string, repoName: string, id: string): Promise<CommentContext & { repo: RepoAccess }> {
    const repo = await this.gate.assign(actor, owner, repoName);
    requireIssuesOrPulls(repo);
    return { ...(await this.commentIn(repo, id)), repo };
  }

  /**
   * As {@link commentFor}, for a change: signed in (401) and not archived (423) before the
   * comment is looked up. Who may change what is the caller's rule.
   */
  async commentForWrite(actor: Actor | null, owner: string, repoName: string, id: string): Promise<CommentContext & { repo: RepoAccess; actor: Actor }> {
    const a = await this.gate.signedIn(actor, owner, repoName);
    const repo = await this.gate.assign(a, owner, repoName);
    requireIssuesOrPulls(repo);
    requireNotArchived(repo);
    return { ...(await this.commentIn(repo, id)), repo, actor: a };
  }

  /** A comment someone wants to change: its poster or a writer of the unit. */
  private async commentForChange(
    actor: Actor | null,
    owner: string,
    repoName: string,
    id: string,
  ): Promise<CommentContext & { repo: RepoAccess; actor: Actor }> {
    const ctx = await this.commentForWrite(actor, owner, repoName, id);
    requireMayChangeComment(ctx.repo, ctx.issue, ctx.comment, ctx.actor);
    return ctx;
  }

  /**
   * Keeps the issue's comment count exact (counted, never incremented) and, for a new comment,
   * its update time. The caller holds the issue's lock (IssuesRepository.lock).
   */
  private async recount(m: EntityManager, issue: IssueEntity, touched?: Date): Promise<IssueEntity> {
    const numComments = await this.comments.countComments(m, issue.id);
    await this.issues.update(m, issue.id, { numComments, ...(touched ? { updatedAt: touched } : {}) });
    return (await this.issues.findById(issue.id, m))!;
  }
}
