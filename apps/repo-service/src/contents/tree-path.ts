import { ContractError } from '@gitforge/contracts';

/**
 * Gitea's CleanGitTreePath, stricter where Gitea silently rewrites: a path with a `..` segment,
 * a NUL, a leading `/` or a `.git` segment is refused instead of being normalised. Empty and `.`
 * segments and trailing slashes are dropped; '' is the root. Null when the path is refused.
 */
export function cleanTreePath(raw: string): string | null {
  if (raw.includes('\0') || raw.startsWith('/') || raw.startsWith('\\')) return null;
  const parts = raw.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..' || p.toLowerCase() === '.git')) return null;
  return parts.join('/');
}

/** Gitea's ErrFilenameInvalid as a 422. */
export function invalidPath(path: string): ContractError {
  return new ContractError('unprocessable', `path contains a malformed path component [path: ${path}]`);
}

/** The cleaned path, or Gitea's 422 for a malformed one. */
export function requireTreePath(raw: string): string {
  const clean = cleanTreePath(raw);
  if (clean === null) throw invalidPath(raw);
  return clean;
}

/** Splits `a/b/c` into the directory `a/b` and the name `c` ('' directory at the root). */
export function splitPath(path: string): { dir: string; name: string } {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? { dir: '', name: path } : { dir: path.slice(0, slash), name: path.slice(slash + 1) };
}
