import { ALLOWED_REACTIONS, forbidden } from '@gitforge/contracts';

/** The content of a new reaction, refused as Gitea's ErrForbiddenIssueReaction (403) unless allowed. */
export function requireAllowedReaction(content: string | undefined): string {
  const value = content ?? '';
  if (!(ALLOWED_REACTIONS as readonly string[]).includes(value))
    throw forbidden(`'${value}' is not an allowed reaction`);
  return value;
}
