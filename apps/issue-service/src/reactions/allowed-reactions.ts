import { forbidden } from '@gitforge/contracts';

/** Gitea's default `[ui] REACTIONS`: the only contents a reaction may have, and the only ones listed. */
export const ALLOWED_REACTIONS = [
  '+1',
  '-1',
  'laugh',
  'hooray',
  'confused',
  'heart',
  'rocket',
  'eyes',
] as const;

/** The content of a new reaction, refused as Gitea's ErrForbiddenIssueReaction (403) unless allowed. */
export function requireAllowedReaction(content: string | undefined): string {
  const value = content ?? '';
  if (!(ALLOWED_REACTIONS as readonly string[]).includes(value))
    throw forbidden(`'${value}' is not an allowed reaction`);
  return value;
}
