import {
  ZERO_TIME,
  type BranchCommit,
  type Commit,
  type CommitVerification,
  type FileCommitResponse,
  type PayloadCommit,
  type User,
  pathEscape,
} from '@gitforge/contracts';
import type { CommitChanges } from '../git/commit-log.js';
import type { GitCommit, GitSignature } from '../git/git-objects.js';
import type { RepoUrls } from '../repos/repo.mapper.js';
import { Lru } from '@gitforge/platform';

/** Accounts by lower-cased e-mail, for a commit's author and committer. */
export type UsersByEmail = Map<string, User>;

/**
 * A git date as Gitea serialises Go's time.Time: RFC 3339 in the commit's own offset
 * (`2024-05-01T12:00:00+02:00`), `Z` for UTC.
 */
export function formatGitTime(sig: Pick<GitSignature, 'when' | 'tz'>): string {
  const key = `${sig.when}${sig.tz}`;
  const hit = formatted.get(key);
  if (hit !== undefined) return hit;
  const value = formatGitTimeUncached(sig);
  formatted.set(key, value);
  return value;
}

// Listings repeat the same few commit dates for many entries: format each once.
const formatted = new Lru<string, string>(100_000);

function formatGitTimeUncached(sig: Pick<GitSignature, 'when' | 'tz'>): string {
  const m = /^([+-])(\d\d)(\d\d)$/.exec(sig.tz);
  const offsetMin = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  const local = new Date((sig.when + offsetMin * 60) * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  if (offsetMin === 0) return `${local}Z`;
  return `${local}${m![1]}${m![2]}:${m![3]}`;
}

/** The same instant in UTC (`…Z`), as Gitea formats the file-change commit response. */
export function formatGitTimeUtc(sig: Pick<GitSignature, 'when'>): string {
  return new Date(sig.when * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** gitforge does not sign commits or check signatures: every commit reads as Gitea's "not signed". */
export function unsignedVerification(): CommitVerification {
  return { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' };
}

const commitApiUrl = (urls: RepoUrls, sha: string): string => `${urls.api}/git/commits/${pathEscape(sha)}`;

/** Gitea's convert.ToCommit (`tree.sha` is the commit's own sha, parents carry no date). */
export function toCommit(
  c: GitCommit & { changes?: CommitChanges },
  urls: RepoUrls,
  users: UsersByEmail,
  options: { stat: boolean; files: boolean; verification: boolean },
): Commit {
  const url = commitApiUrl(urls, c.sha);
  const created = formatGitTime(c.committer);
  const changes = c.changes;
  return {
    url,
    sha: c.sha,
    created,
    html_url: `${urls.html}/commit/${pathEscape(c.sha)}`,
    commit: {
      url,
      author: { name: c.author.name, email: c.author.email, date: formatGitTime(c.author) },
      committer: { name: c.committer.name, email: c.committer.email, date: formatGitTime(c.committer) },
      message: c.message,
      tree: { url: `${urls.api}/git/trees/${pathEscape(c.sha)}`, sha: c.sha, created },
      verification: options.verification ? unsignedVerification() : null,
    },
    author: users.get(c.author.email.toLowerCase()) ?? null,
    committer: users.get(c.committer.email.toLowerCase()) ?? null,
    parents: c.parents.map((p) => ({ url: commitApiUrl(urls, p), sha: p, created: ZERO_TIME })),
    files:
      options.files && changes
        ? [
            ...changes.added.map((filename) => ({ filename, status: 'added' as const })),
            ...changes.removed.map((filename) => ({ filename, status: 'removed' as const })),
            ...changes.modified.map((filename) => ({ filename, status: 'modified' as const })),
          ]
        : null,
    stats:
      options.stat && changes
        ? { total: changes.additions + changes.deletions, additions: changes.additions, deletions: changes.deletions }
        : null,
  };
}

/** Gitea's GetFileCommitResponse: the commit a file change made (dates in UTC, no `created`). */
export function toFileCommitResponse(c: GitCommit, urls: RepoUrls): FileCommitResponse {
  return {
    url: commitApiUrl(urls, c.sha),
    sha: c.sha,
    created: ZERO_TIME,
    html_url: `${urls.html}/commit/${pathEscape(c.sha)}`,
    author: { name: c.author.name, email: c.author.email, date: formatGitTimeUtc(c.author) },
    committer: { name: c.committer.name, email: c.committer.email, date: formatGitTimeUtc(c.committer) },
    parents: c.parents.map((p) => ({ url: commitApiUrl(urls, p), sha: p, created: ZERO_TIME })),
    message: c.message,
    tree: { url: `${urls.api}/git/trees/${pathEscape(c.tree)}`, sha: c.tree, created: ZERO_TIME },
  };
}

const payloadUser = (sig: GitSignature, users: UsersByEmail) => ({
  name: sig.name,
  email: sig.email,
  username: users.get(sig.email.toLowerCase())?.login ?? '',
});

/** Gitea's ToPayloadCommit as the Branch shape carries it (no file lists). */
export function toBranchCommit(c: GitCommit, urls: RepoUrls, users: UsersByEmail): BranchCommit {
  return {
    id: c.sha,
    message: c.message,
    url: `${urls.html}/commit/${pathEscape(c.sha)}`,
    author: payloadUser(c.author, users),
    committer: payloadUser(c.committer, users),
    verification: unsignedVerification(),
    timestamp: formatGitTime(c.author),
    added: null,
    removed: null,
    modified: null,
  };
}

/** A commit as push events carry it (with the files it changed). */
export function toPayloadCommit(c: GitCommit & { changes: CommitChanges }, urls: RepoUrls, users: UsersByEmail): PayloadCommit {
  return {
    ...toBranchCommit(c, urls, users),
    added: c.changes.added,
    removed: c.changes.removed,
    modified: c.changes.modified,
  };
}
