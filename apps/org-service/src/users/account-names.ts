import { isValidUsername, ownerNameRefusal } from '@gitforge/contracts';

/** Why a new account name is refused, with Gitea's error text (IsUsableUsername). */
export interface RenameProblem {
  kind: 'reserved' | 'pattern' | 'chars';
  message: string;
}

/** Gitea's IsUsableUsername: valid characters first, then reserved names and patterns. */
export function renameProblem(name: string): RenameProblem | undefined {
  if (!isValidUsername(name)) {
    return { kind: 'chars', message: `name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters` };
  }
  return ownerNameRefusal(name);
}
