/**
 * The Git LFS wire format (batch API, basic transfer, locking API) as git-lfs and Gitea speak it,
 * at `/{owner}/{repo}.git/info/lfs/…`; bodies are `application/vnd.git-lfs+json`.
 */
export const LfsMediaType = 'application/vnd.git-lfs+json';

export interface LfsPointerSpec {
  oid: string;
  size: number;
}

export interface LfsBatchRequest {
  operation: 'upload' | 'download';
  transfers?: string[];
  ref?: { name: string };
  objects: LfsPointerSpec[];
  hash_algo?: string;
}

export interface LfsLink {
  href: string;
  header?: Record<string, string>;
  expires_in?: number;
}

export interface LfsObjectResponse {
  oid: string;
  size: number;
  authenticated?: boolean;
  actions?: Partial<Record<'download' | 'upload' | 'verify', LfsLink>>;
  error?: { code: number; message: string };
}

export interface LfsBatchResponse {
  transfer: 'basic';
  objects: LfsObjectResponse[];
  hash_algo: 'sha256';
}

export interface LfsLock {
  id: string;
  path: string;
  locked_at: string;
  owner: { name: string };
}

/** At most this many objects in one batch request (git-lfs sends 100). */
export const LFS_BATCH_MAX_OBJECTS = 1000;

const OID = /^[0-9a-f]{64}$/;

/** A well-formed object id (lower-case hex SHA-256). */
export const isLfsOid = (oid: unknown): oid is string => typeof oid === 'string' && OID.test(oid);

/** An LFS object's pointer is valid: a SHA-256 oid and a non-negative integer size (Gitea's Pointer.IsValid). */
export const isLfsPointer = (p: unknown): p is LfsPointerSpec =>
  typeof p === 'object' &&
  p !== null &&
  isLfsOid((p as LfsPointerSpec).oid) &&
  Number.isSafeInteger((p as LfsPointerSpec).size) &&
  (p as LfsPointerSpec).size >= 0;

/**
 * Validates a batch request body; objects with a bad oid or size stay in (they are answered one by
 * one with a 422 error, as Gitea does), everything else must be right. Answers the request or why not.
 */
export function parseLfsBatchRequest(body: unknown): LfsBatchRequest | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return 'the body must be a JSON object';
  const b = body as Record<string, unknown>;
  if (b.operation !== 'upload' && b.operation !== 'download')
    return 'operation must be "upload" or "download"';
  if (!Array.isArray(b.objects)) return 'objects must be an array';
  if (b.objects.length > LFS_BATCH_MAX_OBJECTS) return `at most ${LFS_BATCH_MAX_OBJECTS} objects per batch`;
  if (
    b.transfers !== undefined &&
    (!Array.isArray(b.transfers) || !b.transfers.every((t) => typeof t === 'string'))
  )
    return 'transfers must be a list of names';
  if (b.hash_algo !== undefined && b.hash_algo !== 'sha256')
    return 'only the sha256 hash algorithm is supported';
  if (!b.objects.every((o) => typeof o === 'object' && o !== null)) return 'objects must be objects';
  return b as unknown as LfsBatchRequest;
}

/**
 * The longest lock path in UTF-8 bytes: locks are unique per repository and path, and PostgreSQL
 * cannot index a much longer key (about 2.7 kB), so a longer one is a bad request rather than a 500.
 */
export const LFS_LOCK_PATH_MAX_BYTES = 2048;

/** Body of `POST …/locks`. */
export function parseLfsLockCreate(body: unknown): { path: string } | string {
  const path = (body as { path?: unknown } | null)?.path;
  if (typeof path !== 'string' || path.trim() === '') return 'path is required';
  if (new TextEncoder().encode(path).length > LFS_LOCK_PATH_MAX_BYTES || path.includes('\0')) return 'invalid path';
  return { path };
}
