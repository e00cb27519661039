import { formatTime, type AccessToken, type CurrentAccessToken } from '@gitforge/contracts';
import type { UserEntity } from '../users/user.entity.js';
import type { AccessTokenEntity } from './access-token.entity.js';

/** The secret (`sha1`) only exists in the creation response. */
export function toAccessToken(t: AccessTokenEntity, secret = ''): AccessToken {
  return {
    id: t.id,
    name: t.name,
    sha1: secret,
    token_last_eight: t.tokenLastEight,
    scopes: t.scopes ? t.scopes.split(',') : [],
    created_at: formatTime(t.createdAt),
    last_used_at: formatTime(t.lastUsedAt),
  };
}

/** Gitea's CurrentAccessToken (`GET /token`): no secret, the owner as UserMeta. */
export function toCurrentAccessToken(t: AccessTokenEntity, user: Pick<UserEntity, 'id' | 'name'>): CurrentAccessToken {
  const { id, name, scopes, created_at, last_used_at } = toAccessToken(t);
  return { id, name, scopes, created_at, last_used_at, user: { id: user.id, login: user.name } };
}
