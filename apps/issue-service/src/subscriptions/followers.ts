/**
 * Who follows an issue, as Gitea's CheckIssueWatch decides it for each user: an explicit choice
 * wins; without one, the poster and its commenters follow it.
 */
export function followersOf(
  posterId: number,
  commenterIds: number[],
  choices: Array<{ userId: number; isWatching: boolean }>,
): number[] {
  const chosen = new Map(choices.map((c) => [c.userId, c.isWatching]));
  const following = new Set<number>();
  for (const id of [posterId, ...commenterIds]) if (chosen.get(id) !== false) following.add(id);
  for (const [id, watching] of chosen) if (watching) following.add(id);
  return [...following].sort((a, b) => a - b);
}
