import { isAlphaDashDot, isValidUsername } from './dto/common/validators.js';

/** Names no user or organization may take (Gitea's reserved usernames and patterns). */
const RESERVED_OWNER_NAMES = new Set([
  '.',
  '..',
  '.well-known',
  'admin',
  'api',
  'assets',
  'attachments',
  'avatar',
  'avatars',
  'captcha',
  'commits',
  'debug',
  'error',
  'explore',
  'favicon.ico',
  'ghost',
  'gitea-actions',
  'issues',
  'login',
  'manifest.json',
  'metrics',
  'milestones',
  'new',
  'notifications',
  'org',
  'pulls',
  'raw',
  'repo',
  'repo-avatars',
  'robots.txt',
  'search',
  'serviceworker.js',
  'ssh_info',
  'swagger.v1.json',
  'user',
  'v2',
]);
const RESERVED_OWNER_SUFFIXES = ['.keys', '.gpg', '.rss', '.atom', '.png'];

const RESERVED_REPO_NAMES = new Set(['.', '..', '-']);
const RESERVED_REPO_SUFFIXES = ['.git', '.rss', '.atom', '.wiki'];

/** Why an owner name cannot be used, in Gitea's words (a reserved name or pattern), or undefined when it can. */
export function ownerNameProblem(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (RESERVED_OWNER_NAMES.has(lower)) return `name is reserved [name: ${name}]`;
  const suffix = RESERVED_OWNER_SUFFIXES.find((s) => lower.endsWith(s));
  if (suffix) return `name pattern is not allowed [pattern: *${suffix}]`;
  return undefined;
}

/** Gitea's invalidRepoNamePattern: dots in a row, which the binding's AlphaDashDot lets through. */
export function repoNameCharsProblem(name: string): string | undefined {
  return /\.{2,}/.test(name) ? `name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters` : undefined;
}

/** Why a repository name cannot be used, in Gitea's words (IsUsableRepoName), or undefined when it can. */
export function repoNameProblem(name: string): string | undefined {
  const chars = repoNameCharsProblem(name);
  if (chars) return chars;
  const lower = name.toLowerCase();
  if (RESERVED_REPO_NAMES.has(lower)) return `name is reserved [name: ${name}]`;
  const suffix = RESERVED_REPO_SUFFIXES.find((s) => lower.endsWith(s));
  if (suffix) return `name pattern is not allowed [pattern: *${suffix}]`;
  return undefined;
}

/** Longest login of a user or organization (CreateUserOption's and CreateOrgOption's `username`). */
export const MAX_OWNER_NAME_LENGTH = 40;
/** Longest repository name (CreateRepoOption's `name`). */
export const MAX_REPO_NAME_LENGTH = 100;

/** Whether a user or organization could have this login: the `Username` binding rule, its length, and no reserved name. */
export function isUsableOwnerName(name: string): boolean {
  return isValidUsername(name) && name.length <= MAX_OWNER_NAME_LENGTH && ownerNameProblem(name) === undefined;
}

/** Whether a repository could have this name: the `AlphaDashDot` binding rule, its length, and no reserved name or pattern. */
export function isUsableRepoName(name: string): boolean {
  return isAlphaDashDot(name) && name.length <= MAX_REPO_NAME_LENGTH && repoNameProblem(name) === undefined;
}

/** The branch a full ref names (`refs/heads/main` → `main`); null for a tag or any other ref. */
export function branchOfRef(ref: string): string | null {
  return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
}
