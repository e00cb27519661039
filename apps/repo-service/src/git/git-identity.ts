/** What git strips from the ends of a name (its "crud": control characters, space and `.,:;<>"\'`), and refuses a name made only of. */
const isCrud = (c: string): boolean => c.charCodeAt(0) <= 0x20 || '.,:;<>"\\\''.includes(c);

/**
 * The name a user's commits and tags carry, as Gitea's GitName: the full name, else the login,
 * else `user-{id}`, each without newlines and angle brackets. A name git would refuse (only dots,
 * commas, quotes and the like) is passed over too: a merge or a tag made by that user would
 * otherwise fail with git's "name consists only of disallowed characters".
 */
export function gitName(user: { id: number; login: string; full_name?: string | null }): string {
  for (const candidate of [user.full_name ?? '', user.login]) {
    const safe = candidate.replace(/[\r\n\0<>]/g, '').trim();
    if (![...safe].every(isCrud)) return safe;
  }
  return `user-${user.id}`;
}
