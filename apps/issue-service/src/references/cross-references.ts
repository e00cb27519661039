import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor, RepoAccess } from '@gitforge/contracts';
import { createLogger, Database } from '@gitforge/platform';
import { canReadIssuesOrPulls, canWriteIssuesOrPulls } from '../access/repo-gate.js';
import { CommentType, XRefAction } from '../comments/comment-type.js';
import type { CommentEntity } from '../comments/comment.entity.js';
import { CommentsRepository } from '../comments/comments.repository.js';
import type { IssueEntity } from '../issues/issue.entity.js';
import { IssuesRepository } from '../issues/issues.repository.js';
import { NamedIssues } from './named-issues.js';
import { findIssueReferences, findIssueReferencesInMarkdown, type ReferenceAction } from './references.js';

const log = createLogger('cross-references');

/** What a text that names issues refers from: an issue's title and body, or one of its comments. */
export type ReferenceOrigin = Pick<IssueEntity, 'id' | 'repoId' | 'isPull' | 'title' | 'body'>;

const ACTIONS: Record<ReferenceAction, number> = { none: XRefAction.none, closes: XRefAction.closes, reopens: XRefAction.reopens };

/**
 * Gitea's cross references (models/issues/issue_xref.go): an issue, pull or comment whose text
 * names another issue (`#12`, `owner/name#12`) leaves a row on that issue's timeline
 * (`issue_ref`, `pull_ref` or `comment_ref`) pointing back at it. Only a pull's references
 * carry their closing or reopening keyword, and only when its author may change the issue (or,
 * in the pull's own repository, leaves it to the merger). Issues in other repositories are
 * referred to only where the author may read them. Editing the text keeps the rows it still
 * says, neuters the others and adds the new ones; deleting a comment neuters its rows.
 */
@Injectable()
export class CrossReferences {
  constructor(
    private readonly db: Database,
    private readonly named: NamedIssues,
    private readonly issues: IssuesRepository,
    private readonly comments: CommentsRepository,
  ) {}

  /**
   * Writes the rows `origin`'s text (its title and body, or `comment`'s content) calls for, as
   * `doer` wrote it in `home`, after the change that wrote the text has committed: a failure
   * here is logged and leaves that change standing.
   */
  async add(doer: Actor, home: RepoAccess, origin: ReferenceOrigin, comment: Pick<CommentEntity, 'id' | 'content'> | null, removeOld: boolean): Promise<void> {
    try {
      const found = await this.referenced(doer, home, origin, comment);
      if (found.length === 0 && !removeOld) return;
      const type = comment ? CommentType.comment_ref : origin.isPull ? CommentType.pull_ref : CommentType.issue_ref;
      const refCommentId = comment?.id ?? 0;
      await this.db.transaction(async (m) => {
        // One origin's rows are written in the order of its text's changes: under its issue's
        // lock, and only while the text they were read from is still the text.
        const locked = await this.issues.lock(m, origin.id);
        const current = comment ? (await this.comments.findById(comment.id, m))?.content : locked && `${locked.title}\n${locked.body}`;
        if (!locked || current !== (comment ? comment.content : `${origin.title}\n${origin.body}`)) return;
        let todo = found;
        if (removeOld) {
          const stale: number[] = [];
          for (const row of await this.comments.activeCrossReferences(m, origin.id, refCommentId)) {
            const still = todo.find((x) => x.issue.id === row.issueId && x.action === row.refAction);
            if (still) todo = todo.filter((x) => x !== still);
            else stale.push(row.id);
          }
          await this.comments.neuter(m, stale);
        }
        const at = new Date();
        for (const x of todo) {
          await this.comments.addEvent(m, {
            issueId: x.issue.id,
            posterId: doer.id,
            type,
            at,
            refs: { refRepoId: origin.repoId, refIssueId: origin.id, refCommentId, refAction: x.action, refIsPull: origin.isPull },
          });
        }
      });
    } catch (err) {
      log.warn({ err, issueId: origin.id, commentId: comment?.id }, 'could not write the cross references of a text');
    }
  }

  /** A deleted comment's references no longer stand (Gitea neuters them, in the deletion's transaction). */
  async neuterComment(m: EntityManager, issueId: number, commentId: number): Promise<void> {
    await this.comments.neuter(m, (await this.comments.activeCrossReferences(m, issueId, commentId)).map((r) => r.id));
  }

  /** The issues the text names, once each with the last action said of it (Gitea's getCrossReferences and verifyReferencedIssue). */
  private async referenced(
    doer: Actor,
    home: RepoAccess,
    origin: ReferenceOrigin,
    comment: Pick<CommentEntity, 'id' | 'content'> | null,
  ): Promise<Array<{ issue: IssueEntity; action: number }>> {
    const refs = comment ? findIssueReferencesInMarkdown(comment.content) : [...findIssueReferences(origin.title), ...findIssueReferencesInMarkdown(origin.body)];
    const list: Array<{ issue: IssueEntity; action: number }> = [];
    for (const { ref, repo, issue } of await this.named.find(doer, home, refs)) {
      if (issue.id === origin.id) continue;
      // Only a pull closes or reopens, and only issues.
      let action = issue.isPull || !origin.isPull ? XRefAction.none : ACTIONS[ref.action];
      if (issue.repoId !== origin.repoId || ref.action !== 'none') {
        if (!canReadIssuesOrPulls(repo, issue.isPull)) continue;
        // A new pull's poster in the same repository leaves the decision to its merger.
        if (ref.action !== 'none' && doer.id !== issue.posterId && !canWriteIssuesOrPulls(repo, issue.isPull) && (issue.repoId !== origin.repoId || comment)) {
          action = XRefAction.none;
        }
      }
      const same = list.find((x) => x.issue.id === issue.id);
      if (!same) list.push({ issue, action });
      else if (action !== XRefAction.none) same.action = action;
    }
    return list;
  }
}
