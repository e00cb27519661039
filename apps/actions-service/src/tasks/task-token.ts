import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a task row keeps of its token. */
export interface StoredTaskToken {
  tokenHash: string;
  tokenSalt: string;
  tokenLastEight: string;
}

/** A task token has the shape of Gitea's: 40 lower-case hex characters (160 random bits). */
export const looksLikeTaskToken = (value: string): boolean => /^[0-9a-f]{40}$/.test(value);

const digest = (salt: string, token: string): string => createHash('sha256').update(salt).update(token).digest('hex');

/**
 * A new task token and what is stored of it (Gitea's ActionTask.GenerateToken): the token
 * goes to the runner once, the row keeps a salted hash and the last eight characters to find
 * it by. The token is 160 random bits, so one round of SHA-256 is as safe as a slow hash here,
 * and it keeps the lookup that every uncached request with the token makes cheap.
 */
export function generateTaskToken(): { token: string; stored: StoredTaskToken } {
  const token = randomBytes(20).toString('hex');
  const tokenSalt = randomBytes(10).toString('hex');
  return { token, stored: { tokenHash: digest(tokenSalt, token), tokenSalt, tokenLastEight: token.slice(-8) } };
}

/** Whether `token` is the one `stored` was made from (constant time over the hash). */
export function taskTokenMatches(stored: StoredTaskToken, token: string): boolean {
  if (!stored.tokenHash || !looksLikeTaskToken(token) || stored.tokenLastEight !== token.slice(-8)) return false;
  return timingSafeEqual(Buffer.from(digest(stored.tokenSalt, token), 'hex'), Buffer.from(stored.tokenHash, 'hex'));
}
