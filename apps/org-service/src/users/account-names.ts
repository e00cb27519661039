import { isValidUsername, ownerNameRefusal } from '@gitforge/contracts';

/** Why a new account name is refused, with Gitea's error text (IsUsableUsername, ErrUserAlreadyExist). */
export interface RenameProblem {
  kind: 'taken' | 'reserved' | 'pattern' | 'chars';
  message: string;
}

/** Gitea's IsUsableUsername: valid characters first, then reserved names and patterns. */
export function renameProblem(name: string): RenameProblem | undefined {
  if (!isValidUsername(name)) {
    return { kind: 'chars', message: `name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters` };
  }
  return ownerNameRefusal(name);
}

/** The translated form messages Gitea's admin RenameUser answers (locale en-US). */
export const RENAME_FORM_MESSAGES: Record<RenameProblem['kind'], (name: string) => string> = {
  taken: () => 'The username is already taken.',
  reserved: (name) => `The username "${name}" is reserved.`,
  pattern: (name) => `The pattern "${name}" is not allowed in a username.`,
  chars: (name) => `User name "${name}" contains invalid characters.`,
};
