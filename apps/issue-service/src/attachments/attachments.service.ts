import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  ContractError,
  isUuid,
  forbidden,
  notFound,
  unprocessable,
  type Actor,
  type Attachment,
  type EditAttachmentOptions,
  type GeneralAttachmentSettings,
  type RepoAccess,
  idFrom,
} from '@gitforge/contracts';
import { BlobStore, BlobTooLargeError, createLogger, Database, peek, type ByteRange } from '@gitforge/platform';
import { canRead, canReadIssuesOrPulls, canWriteIssuesOrPulls, RepoGate } from '../access/repo-gate.js';
import { requireMayChangeCommentAttachments } from '../comments/comment-rules.js';
import { CommentsService, type CommentContext } from '../comments/comments.service.js';
import { IssueServiceConfig } from '../issue.config.js';
import { IssueEvents } from '../issues/issue-events.js';
import { IssueLoader } from '../issues/issue-loader.js';
import type { IssueEntity } from '../issues/issue.entity.js';
import { IssuesRepository } from '../issues/issues.repository.js';
import { IssuesService } from '../issues/issues.service.js';
import { attachmentBlobKey, type AttachmentEntity } from './attachment.entity.js';
import { toAttachment } from './attachment.mapper.js';
import { AttachmentsRepository } from './attachments.repository.js';
import { forbiddenType, isAllowedUpload, SNIFF_BYTES } from './upload-policy.js';

const log = createLogger('attachments');

/** Gitea's `[attachment] MAX_FILES` default: how many files its upload form takes at once. */
const GITEA_ATTACHMENT_MAX_FILES = 5;

/**
 * Whose attachments a route works on: an issue's own (`commentId` 0) or one comment's. The
 * issue routes build one from the issue; the comment routes build one from the comment, with
 * the comment's poster, and reuse everything below.
 */
export interface AttachmentScope {
  repo: RepoAccess;
  issue: IssueEntity;
  commentId: number;
  /** Who wrote the issue (or comment): Gitea lets the poster manage its attachments. */
  posterId: number;
  /** Runs in the transaction that adds an attachment (Gitea re-saves the content and notifies). */
  onAdded: (m: EntityManager, actor: Actor) => Promise<void>;
}

/** An attachment id from a path: anything that is not a positive integer names none. */
function parseId(raw: string): number {
  const n = idFrom(raw);
  if (!n) throw notFound();
  return n;
}

@Injectable()
export class AttachmentsService {
  constructor(
    private readonly db: Database,
    private readonly config: IssueServiceConfig,
    private readonly gate: RepoGate,
    private readonly issuesService: IssuesService,
    private readonly issues: IssuesRepository,
    private readonly attachments: AttachmentsRepository,
    private readonly blobs: BlobStore,
    private readonly loader: IssueLoader,
    private readonly events: IssueEvents,
    private readonly comments: CommentsService,
  ) {}

  // The issue routes (`/repos/{o}/{r}/issues/{index}/assets…`).

  /** What uploads this service takes (Gitea's `[attachment]` section); MAX_FILES is Gitea's default, a limit of its web form only. */
  settings(): GeneralAttachmentSettings {
    return {
      enabled: true,
      allowed_types: this.config.GITFORGE_ATTACHMENT_ALLOWED_TYPES,
      max_size: this.config.GITFORGE_ATTACHMENT_MAX_SIZE_MB,
      max_files: GITEA_ATTACHMENT_MAX_FILES,
    };
  }

  async listForIssue(actor: Actor | null, owner: string, repo: string, index: string): Promise<Attachment[]> {
    return this.list(await this.issueScope(actor, owner, repo, index, false));
  }

  async getForIssue(actor: Actor | null, owner: string, repo: string, index: string, id: string): Promise<Attachment> {
    const scope = await this.issueScope(actor, owner, repo, index, false);
    return this.map(await this.find(scope, id));
  }

  async editForIssue(actor: Actor | null, owner: string, repo: string, index: string, id: string, body: EditAttachmentOptions): Promise<Attachment> {
    const scope = await this.issueScope(actor, owner, repo, index, true);
    return this.rename(scope, id, body);
  }

  async deleteForIssue(actor: Actor | null, owner: string, repo: string, index: string, id: string): Promise<void> {
    const scope = await this.issueScope(actor, owner, repo, index, true);
    await this.remove(scope, id);
  }

  /** `POST …/issues/{index}/assets`: every check that needs no bytes, before the upload is read. */
  uploadTargetForIssue(actor: Actor | null, owner: string, repo: string, index: string): Promise<AttachmentScope> {
    return this.issueScope(actor, owner, repo, index, true);
  }

  /**
   * The scope of an issue's own attachments. For a change: signed in, not archived (423), and
   * the issue's poster, a writer of its unit or an administrator (Gitea's canUserWriteIssueAttachment).
   */
  private async issueScope(actor: Actor | null, owner: string, repoName: string, index: string, write: boolean): Promise<AttachmentScope> {
    if (!write) {
      const { repo, issue } = await this.issuesService.issueFor(actor, owner, repoName, index);
      return this.ofIssue(repo, issue);
    }
    const { repo, issue, actor: a } = await this.issuesService.issueForWrite(actor, owner, repoName, index);
    const scope = this.ofIssue(repo, issue);
    this.requireWriter(scope, a);
    return scope;
  }

  private ofIssue(repo: RepoAccess, issue: IssueEntity): AttachmentScope {
    return { repo, issue, commentId: 0, posterId: issue.posterId, onAdded: (m, a) => this.issueContentTouched(m, a, repo, issue) };
  }

  /** Gitea re-saves the issue's content with its new attachment: a new content version and an `edited` event. */
  private async issueContentTouched(m: EntityManager, actor: Actor, repo: RepoAccess, issue: IssueEntity): Promise<void> {
    await this.issues.bumpContentVersion(m, issue.id, new Date());
    const row = (await this.issues.findById(issue.id, m))!;
    const sender = await this.loader.users([actor.id]);
    const api = await this.loader.one(row, repo, { m, known: [...sender.values()] });
    await this.events.issue(m, 'issue.edited', { actor, action: 'edited', issue: api, repo, sender: sender.get(actor.id)!, changes: { body: { from: issue.body } } });
  }

  // The comment routes (`/repos/{o}/{r}/issues/comments/{id}/assets…`).

  async listForComment(actor: Actor | null, owner: string, repo: string, id: string): Promise<Attachment[]> {
    return this.list(await this.commentScope(actor, owner, repo, id, false));
  }

  async getForComment(actor: Actor | null, owner: string, repo: string, id: string, attachmentId: string): Promise<Attachment> {
    const scope = await this.commentScope(actor, owner, repo, id, false);
    return this.map(await this.find(scope, attachmentId));
  }

  async editForComment(actor: Actor | null, owner: string, repo: string, id: string, attachmentId: string, body: EditAttachmentOptions): Promise<Attachment> {
    return this.rename(await this.commentScope(actor, owner, repo, id, true), attachmentId, body);
  }

  async deleteForComment(actor: Actor | null, owner: string, repo: string, id: string, attachmentId: string): Promise<void> {
    await this.remove(await this.commentScope(actor, owner, repo, id, true), attachmentId);
  }

  /** `POST …/issues/comments/{id}/assets`: every check that needs no bytes, before the upload is read. */
  uploadTargetForComment(actor: Actor | null, owner: string, repo: string, id: string): Promise<AttachmentScope> {
    return this.commentScope(actor, owner, repo, id, true);
  }

  /**
   * The scope of one comment's attachments. For a change: signed in, not archived (423), then
   * Gitea's comment attachment rule (403).
   */
  private async commentScope(actor: Actor | null, owner: string, repoName: string, id: string, write: boolean): Promise<AttachmentScope> {
    let ctx: CommentContext & { repo: RepoAccess };
    if (write) {
      const writable = await this.comments.commentForWrite(actor, owner, repoName, id);
      requireMayChangeCommentAttachments(writable.repo, writable.issue, writable.comment, writable.actor);
      ctx = writable;
    } else ctx = await this.comments.commentFor(actor, owner, repoName, id);
    const { repo, issue, comment } = ctx;
    return {
      repo,
      issue,
      commentId: comment.id,
      posterId: comment.posterId,
      onAdded: (m, a) => this.comments.attachmentAdded(m, a, repo, issue, comment),
    };
  }

  // What every scope shares.

  list(scope: AttachmentScope): Promise<Attachment[]> {
    return this.attachments.inScope(scope.issue.id, scope.commentId).then((rows) => rows.map((r) => this.map(r)));
  }

  requireWriter(scope: AttachmentScope, actor: Actor): void {
    const may = actor.id === scope.posterId || scope.repo.isAdmin || actor.isAdmin || canWriteIssuesOrPulls(scope.repo, scope.issue.isPull);
    if (!may) throw forbidden('user should have permission to write issue');
  }

  /**
   * Gitea's attachmentBelongsToRepoOrIssue and attachmentBelongsToRepoOrComment: an attachment of
   * another repository, issue or comment is 404 (an issue's routes reach its comments' files).
   */
  async find(scope: AttachmentScope, rawId: string): Promise<AttachmentEntity> {
    const row = await this.attachments.findById(parseId(rawId));
    if (!row) throw notFound();
    if (row.repoId !== scope.repo.id) throw notFound('no such attachment in repo');
    if (scope.commentId !== 0) {
      if (row.commentId !== scope.commentId) throw notFound('no such attachment in comment');
    } else if (row.issueId === 0 || row.issueId !== scope.issue.id) throw notFound('no such attachment in issue');
    return row;
  }

  /** PATCH (201): only the name changes, and the new name must be an allowed type. */
  async rename(scope: AttachmentScope, rawId: string, body: EditAttachmentOptions): Promise<Attachment> {
    const row = await this.find(scope, rawId);
    const name = body.name ? body.name : row.name;
    if (!isAllowedUpload(this.config.GITFORGE_ATTACHMENT_ALLOWED_TYPES, name, null)) throw forbiddenType();
    if (name !== row.name) await this.db.transaction((m) => this.attachments.rename(m, row.id, name));
    return this.map({ ...row, name });
  }

  /** DELETE (204): the row, then its file. */
  async remove(scope: AttachmentScope, rawId: string): Promise<void> {
    const row = await this.find(scope, rawId);
    await this.db.transaction((m) => this.attachments.delete(m, row.id));
    await this.blobs.delete(attachmentBlobKey(row.uuid)).catch((err: unknown) => log.warn({ err, uuid: row.uuid }, 'could not remove the file of a deleted attachment'));
  }

  /**
   * Stores an upload for the scope: its type is checked on the name and the first bytes (422),
   * its size while it streams (413). The file is in place before its row is written; if the row
   * cannot be written, the file goes again.
   */
  async upload(scope: AttachmentScope, actor: Actor, file: Readable, name: string): Promise<Attachment> {
    if (name.length > 255) throw unprocessable('[Name]: MaxSize');
    const { head, all } = await peek(file, SNIFF_BYTES);
    if (!isAllowedUpload(this.config.GITFORGE_ATTACHMENT_ALLOWED_TYPES, name, head)) throw forbiddenType();
    const uuid = randomUUID();
    const key = attachmentBlobKey(uuid);
    const max = this.config.attachmentMaxBytes;
    let size: number;
    try {
      size = (await this.blobs.put(key, all, { maxBytes: max })).size;
    } catch (err) {
      if (err instanceof BlobTooLargeError) throw new ContractError('payload_too_large', `attachment exceeds limit ${max}`);
      throw err;
    }
    try {
      // Transactions answer plain values (a retried request gets its first answer back as JSON).
      const id = await this.db.transaction(async (m) => {
        const inserted = await this.attachments.insert(m, {
          uuid,
          repoId: scope.repo.id,
          issueId: scope.issue.id,
          commentId: scope.commentId,
          releaseId: 0,
          uploaderId: actor.id,
          name,
          size,
          downloadCount: 0,
          createdAt: new Date(),
        });
        await scope.onAdded(m, actor);
        return inserted.id;
      });
      return this.map((await this.attachments.findById(id))!);
    } catch (err) {
      await this.blobs.delete(key).catch((cleanup: unknown) => log.warn({ err: cleanup, uuid }, 'could not remove the file of a failed upload'));
      throw err;
    }
  }

  /**
   * `GET /attachments/{uuid}`: the attachment and its bytes if the actor may read what it is
   * attached to (Gitea's ServeAttachment); counted as a download. Anything hidden is 404.
   */
  async download(actor: Actor | null, uuid: string): Promise<{ attachment: AttachmentEntity; content: Readable; range: (range: ByteRange) => Promise<Readable> }> {
    const row = isUuid(uuid) ? await this.attachments.findByUuid(uuid) : null;
    if (!row) throw notFound();
    const [repo] = await this.gate.many(actor, [row.repoId]);
    if (!repo || !(await this.mayRead(actor, repo, row))) throw notFound();
    const content = await this.blobs.open(attachmentBlobKey(row.uuid));
    if (!content) {
      log.error({ uuid: row.uuid }, 'the file of an attachment is missing');
      throw notFound();
    }
    await this.attachments.countDownload(row.id);
    const range = async (bytes: ByteRange): Promise<Readable> => {
      const part = await this.blobs.open(attachmentBlobKey(row.uuid), bytes);
      if (!part) throw notFound();
      return part;
    };
    return { attachment: row, content, range };
  }

  private async mayRead(actor: Actor | null, repo: RepoAccess, row: AttachmentEntity): Promise<boolean> {
    if (row.issueId > 0) {
      const issue = await this.issues.findById(row.issueId);
      return issue !== null && canReadIssuesOrPulls(repo, issue.isPull);
    }
    if (row.releaseId > 0) return canRead(repo, 'repo.releases');
    // Not attached to anything yet: only its uploader.
    return actor !== null && actor.id === row.uploaderId;
  }

  private map(row: AttachmentEntity): Attachment {
    return toAttachment(row, this.config.rootUrl);
  }
}
