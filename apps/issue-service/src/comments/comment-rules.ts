import { ContractError, forbidden, type Actor, type RepoAccess } from '@gitforge/contracts';
import { canWriteIssuesOrPulls } from '../access/repo-gate.js';
import type { IssueEntity } from '../issues/issue.entity.js';
import type { CommentEntity } from './comment.entity.js';

/** Gitea's CreateIssueComment rule: a locked issue takes comments from the unit's writers and site administrators only. */
export function requireMayComment(
  repo: RepoAccess,
  issue: Pick<IssueEntity, 'isLocked' | 'isPull'>,
  actor: Actor,
): void {
  if (issue.isLocked && !canWriteIssuesOrPulls(repo, issue.isPull) && !actor.isAdmin)
    throw forbidden('You cannot comment on a locked issue.');
}

/** Gitea's edit and delete rule: the comment's poster, or a writer of the issue's unit (a 403 without a body, as Gitea). */
export function requireMayChangeComment(
  repo: RepoAccess,
  issue: Pick<IssueEntity, 'isPull'>,
  comment: Pick<CommentEntity, 'posterId'>,
  actor: Actor,
): void {
  if (comment.posterId !== actor.id && !canWriteIssuesOrPulls(repo, issue.isPull)) {
    throw ContractError.empty(
      'permission_denied',
      'user should be the poster of the comment or have write permission to the issues',
    );
  }
}

/**
 * Gitea's canUserWriteIssueCommentAttachment, stricter than editing the comment: a writer of the
 * issue's unit who posted the comment or administers the repository (or the site). A reader's
 * own comment takes no files through the API.
 */
export function requireMayChangeCommentAttachments(
  repo: RepoAccess,
  issue: Pick<IssueEntity, 'isPull'>,
  comment: Pick<CommentEntity, 'posterId'>,
  actor: Actor,
): void {
  const privileged = comment.posterId === actor.id || repo.isAdmin || actor.isAdmin;
  if (!privileged || !canWriteIssuesOrPulls(repo, issue.isPull)) throw forbidden('user should have permission to edit comment');
}
