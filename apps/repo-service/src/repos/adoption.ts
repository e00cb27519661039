import { isValidRefName } from '@gitforge/contracts';

/**
 * The default branch of an adopted repository (Gitea's adoptRepository, with `main` as its default
 * branch setting): `main`, else `master`, else the branch HEAD names if it exists, else the first
 * branch by name (`branches` in git's order); null when there is no branch to choose.
 */
export function adoptedDefaultBranch(branches: string[], head: string | null): string | null {
  const usable = branches.filter((b) => isValidRefName(b));
  for (const preferred of ['main', 'master']) if (usable.includes(preferred)) return preferred;
  if (head !== null && usable.includes(head)) return head;
  return usable[0] ?? null;
}
