import { formatTime, type AccessToken } from '@gitforge/contracts';
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
