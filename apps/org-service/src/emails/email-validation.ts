/** Gitea's emailRegexp: the characters it accepts, and a host of dot-separated labels. */
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+\-/=?^_`{|}~]*@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export type EmailProblem = 'invalid' | 'unsupported_character';

/** Gitea's ValidateEmail: why `email` cannot be used, or undefined when it can. */
export function emailProblem(email: string): EmailProblem | undefined {
  if (email.length === 0) return 'invalid';
  if (!EMAIL.test(email)) return 'unsupported_character';
  if (email.startsWith('-')) return 'invalid';
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return 'invalid';
  return undefined;
}

/** The message Gitea's error types print for a problem (admin endpoints show these). */
export function emailProblemMessage(problem: EmailProblem, email: string): string {
  return problem === 'invalid' ? `e-mail invalid [email: ${email}]` : `e-mail address contains unsupported character [email: ${email}]`;
}
