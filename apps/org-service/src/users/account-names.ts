import { isValidUsername, ownerNameProblem } from '@gitforge/contracts';

/** Gitea's IsUsableUsername, in the words of its error: valid characters first, then reserved names and patterns. */
export function renameProblem(name: string): string | undefined {
  if (!isValidUsername(name)) return `name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`;
  return ownerNameProblem(name);
}
