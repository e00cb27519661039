import { createHmac, timingSafeEqual } from 'node:crypto';
import { GitHttp } from '@gitforge/contracts';

/**
 * What an LFS token handed out by `git-lfs-authenticate` allows: one repository, one operation,
 * for one user (or one deploy key, which carries no user), until `exp` (epoch ms).
 */
export interface LfsTokenClaims {
  repoId: number;
  op: 'upload' | 'download';
  /** The user the key belongs to; absent for a deploy key. */
  userId?: number;
  /** The deploy key's id in this repository (deploy keys have no user). */
  deployKeyId?: number;
  exp: number;
}

/** How long a token is good for: `git-lfs-authenticate`'s, and those the batch API puts in its actions. */
export const LFS_TOKEN_TTL_MS = 30 * 60_000;

/** `gflfs.<claims>.<hmac>`, signed with the internal secret (as Gitea signs its LFS JWTs with its own secret). */
export function signLfsToken(secret: string, claims: LfsTokenClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${GitHttp.lfsTokenPrefix}${payload}.${mac(secret, payload)}`;
}

/** The claims of a valid, unexpired token; null otherwise. */
export function verifyLfsToken(secret: string, token: string, now = Date.now()): LfsTokenClaims | null {
  if (!token.startsWith(GitHttp.lfsTokenPrefix)) return null;
  const rest = token.slice(GitHttp.lfsTokenPrefix.length);
  const dot = rest.lastIndexOf('.');
  if (dot <= 0) return null;
  const payload = rest.slice(0, dot);
  const given = Buffer.from(rest.slice(dot + 1), 'base64url');
  const expected = Buffer.from(mac(secret, payload), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let claims: LfsTokenClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as LfsTokenClaims;
  } catch {
    return null;
  }
  if (typeof claims.exp !== 'number' || claims.exp < now || typeof claims.repoId !== 'number') return null;
  if (claims.op !== 'upload' && claims.op !== 'download') return null;
  return claims;
}

const mac = (secret: string, payload: string): string =>
  createHmac('sha256', `lfs:${secret}`).update(payload).digest('base64url');
