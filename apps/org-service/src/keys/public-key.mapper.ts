import { formatTime, type PublicKey, type User } from '@gitforge/contracts';
import type { PublicKeyEntity } from './public-key.entity.js';

/**
 * Gitea's convert.ToPublicKey; `owner` (the key's user) is given where Gitea appends the private
 * information: to the key's owner and to site administrators.
 */
export function toPublicKey(key: PublicKeyEntity, rootUrl: string, owner?: User): PublicKey {
  return {
    id: key.id,
    key: key.content,
    url: `${rootUrl}api/v1/user/keys/${key.id}`,
    title: key.name,
    fingerprint: key.fingerprint,
    created_at: formatTime(key.createdAt),
    last_used_at: formatTime(key.updatedAt),
    ...(owner ? { key_type: 'user', read_only: false, user: owner } : {}),
  };
}
