/**
 * The kinds of rows in an issue's history, numbered as Gitea's CommentType (stored as the
 * number, answered in the timeline by name). Plain comments and reviews count in `num_comments`.
 */
export const CommentType = {
  comment: 0,
  reopen: 1,
  close: 2,
  /** An issue's title or body referred to this one (`ref_issue_id`). */
  issue_ref: 3,
  /** A commit's message referred to the issue; `commit_sha` names the commit, the content links it. */
  commit_ref: 4,
  /** A comment (`ref_comment_id`) referred to the issue. */
  comment_ref: 5,
  /** A pull's title or body referred to the issue. */
  pull_ref: 6,
  label: 7,
  milestone: 8,
  assignees: 9,
  change_title: 10,
  /** A pull's head branch was deleted (`old_ref` names it): after its merge, or closing it. */
  delete_branch: 11,
  /** A stopwatch started. */
  start_tracking: 12,
  /** A stopwatch stopped; the content is the time it tracked (`time_id`), as Gitea's SecToHours writes it. */
  stop_tracking: 13,
  /** Time added by hand (`time_id`); the content is `|seconds`. */
  add_time_manual: 14,
  /** A stopwatch dropped without tracking anything. */
  cancel_tracking: 15,
  added_deadline: 16,
  modified_deadline: 17,
  removed_deadline: 18,
  add_dependency: 19,
  remove_dependency: 20,
  /** A review's comment on a line of the diff (not shown in the timeline). */
  code: 21,
  /** A submitted review; `review_id` names it. */
  review: 22,
  lock: 23,
  unlock: 24,
  /** A pull request's base branch changed (old_ref → new_ref). */
  change_target_branch: 25,
  /** Tracked time deleted (one, or all of a user's on the issue); the content is `|seconds`. */
  delete_time_manual: 26,
  /** A review requested of a user (`assignee_id`) or a team (`assignee_team_id`), or the request removed (`removed_assignee`). */
  review_request: 27,
  /** A pull request was merged. */
  merge_pull: 28,
  /** A review dismissed; the content is the message. */
  dismiss_review: 32,
  change_issue_ref: 33,
  pin: 36,
  unpin: 37,
} as const;
export type CommentType = (typeof CommentType)[keyof typeof CommentType];

const names = new Map<number, string>(Object.entries(CommentType).map(([name, value]) => [value, name]));

/** Gitea's CommentType.String(). */
export function commentTypeName(type: number): string {
  return names.get(type) ?? 'comment';
}

/** Gitea's XRefAction: what a cross reference said to do, as its row's `ref_action` keeps it. */
export const XRefAction = { none: 0, closes: 1, reopens: 2, neutered: 3 } as const;
const xrefNames = ['none', 'closes', 'reopens', 'neutered'];

/** The timeline's `ref_action` of a row (Gitea's XRefAction.String()). */
export function xrefActionName(action: number): string {
  return xrefNames[action] ?? 'none';
}
