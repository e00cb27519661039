/**
 * The kinds of rows in an issue's history, numbered as Gitea's CommentType (stored as the
 * number, answered in the timeline by name). Only plain comments count in `num_comments`.
 */
export const CommentType = {
  comment: 0,
  reopen: 1,
  close: 2,
} as const;
export type CommentType = (typeof CommentType)[keyof typeof CommentType];

const names = new Map<number, string>(Object.entries(CommentType).map(([name, value]) => [value, name]));

/** Gitea's CommentType.String(). */
export function commentTypeName(type: number): string {
  return names.get(type) ?? 'comment';
}
