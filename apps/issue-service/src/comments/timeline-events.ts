import { CommentType } from './comment-type.js';

/** Gitea's TimeStamp.FormatDate: the day of a time, `2006-01-02`. */
export function formatDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The kinds of due date rows. */
export type DeadlineType =
  | typeof CommentType.added_deadline
  | typeof CommentType.modified_deadline
  | typeof CommentType.removed_deadline;

/**
 * The history row of a due date change, as Gitea's createDeadlineComment writes it: the new day
 * when added, the old one when removed, `new|old` when modified; null when nothing changed.
 */
export function deadlineEvent(
  before: Date | null,
  after: Date | null,
): { type: DeadlineType; content: string } | null {
  if ((before?.getTime() ?? null) === (after?.getTime() ?? null)) return null;
  if (!after) return { type: CommentType.removed_deadline, content: formatDate(before!) };
  if (!before) return { type: CommentType.added_deadline, content: formatDate(after) };
  return { type: CommentType.modified_deadline, content: `${formatDate(after)}|${formatDate(before)}` };
}
