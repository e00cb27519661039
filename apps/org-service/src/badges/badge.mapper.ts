import type { Badge } from '@gitforge/contracts';
import type { BadgeEntity } from './badge.entity.js';

/** Gitea's Badge as the API answers it (the model serialised as is). */
export function toBadge(badge: BadgeEntity): Badge {
  return { id: badge.id, slug: badge.slug, description: badge.description, image_url: badge.imageUrl };
}
