import { formatTime, ZERO_TIME, type AccessToken, type CurrentAccessToken } from '@gitforge/contracts';
import type { UserEntity } from '../users/user.entity.js';
import type { AccessTokenEntity } from './access-token.entity.js';

/**
 * A token as listed: `last_used_at` is Gitea's UpdatedUnix, which its creation sets too, so a
 * token never used shows when it was made.
 */
export function toAccessToken(t: AccessTokenEntity): AccessToken {
  return {
    id: t.id,
    name: t.name,
    sha1: '',
    token_last_eight: t.tokenLastEight,
    scopes: t.scopes ? t.scopes.split(',') : [],
    created_at: formatTime(t.createdAt),
    last_used_at: formatTime(t.lastUsedAt ?? t.createdAt),
  };
}

/** The creation answer: the secret (`sha1`), which exists only here, and no times (Gitea's CreateAccessToken sets none). */
export function toCreatedAccessToken(t: AccessTokenEntity, secret: string): AccessToken {
  return { ...toAccessToken(t), sha1: secret, created_at: ZERO_TIME, last_used_at: ZERO_TIME };
}

/** Gitea's CurrentAccessToken (`GET /token`): no secret, the owner as UserMeta. */
export function toCurrentAccessToken(t: AccessTokenEntity, user: Pick<UserEntity, 'id' | 'name'>): CurrentAccessToken {
  const { id, name, scopes, created_at, last_used_at } = toAccessToken(t);
  return { id, name, scopes, created_at, last_used_at, user: { id: user.id, login: user.name } };
}
