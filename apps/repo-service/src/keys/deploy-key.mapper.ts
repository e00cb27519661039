import { formatTime, type DeployKey, type Repository } from '@gitforge/contracts';
import type { DeployKeyEntity } from './deploy-key.entity.js';

/** Gitea's convert.ToDeployKey; `repository` only where Gitea appends its private information. */
export function toDeployKey(key: DeployKeyEntity, keysApiUrl: string, repository?: Repository): DeployKey {
  return {
    id: key.id,
    key_id: key.keyId,
    key: key.content,
    url: `${keysApiUrl}${key.id}`,
    title: key.name,
    fingerprint: key.fingerprint,
    created_at: formatTime(key.createdAt),
    read_only: key.readOnly,
    ...(repository ? { repository } : {}),
  };
}
