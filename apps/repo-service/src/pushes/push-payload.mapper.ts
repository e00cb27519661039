import { escapePathSegments, pathEscape } from '@gitforge/contracts';
import type { PayloadCommit, PayloadUser } from '@gitforge/contracts';
import type { CommitInfo } from '../git/git.service.js';

/** Go prints a zero UTC offset as `Z`; git's `%aI` writes `+00:00`. */
export function rfc3339(isoDate: string): string {
  return isoDate.replace(/\+00:00$/, 'Z');
}

/** Gitea's PayloadCommit: `username` is the account whose e-mail matches, else "". */
export function toPayloadCommit(commit: CommitInfo, repoHtmlUrl: string, loginByEmail: Map<string, string>): PayloadCommit {
  const person = (p: { name: string; email: string }): PayloadUser => ({
    name: p.name,
    email: p.email,
    username: loginByEmail.get(p.email.toLowerCase()) ?? '',
  });
  return {
    id: commit.sha,
    message: commit.message,
    url: `${repoHtmlUrl}/commit/${commit.sha}`,
    author: person(commit.author),
    committer: person(commit.committer),
    verification: null,
    timestamp: rfc3339(commit.author.date),
    added: commit.added,
    removed: commit.removed,
    modified: commit.modified,
  };
}

/** Gitea's ComposeCompareURL: the compare page between two revisions, relative to the root URL. */
export function compareUrl(owner: string, repo: string, before: string, after: string): string {
  return `${pathEscape(owner)}/${pathEscape(repo)}/compare/${escapePathSegments(before)}...${escapePathSegments(after)}`;
}
