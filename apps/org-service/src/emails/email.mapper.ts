import type { Email } from '@gitforge/contracts';
import type { EmailAddressEntity } from './email-address.entity.js';

/** Gitea's convert.ToEmail (own addresses: no owner fields) and ToEmailSearch (admin listing). */
export function toEmail(e: EmailAddressEntity, owner?: { id: number; username: string }): Email {
  return {
    email: e.email,
    verified: e.isActivated,
    primary: e.isPrimary,
    user_id: owner?.id ?? 0,
    username: owner?.username ?? '',
  };
}
