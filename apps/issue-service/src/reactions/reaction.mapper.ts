import { formatTime, type Reaction, type User } from '@gitforge/contracts';
import type { ReactionEntity } from './reaction.entity.js';

/** Gitea's Reaction as its API writes it. */
export function toReaction(r: ReactionEntity, user: User): Reaction {
  return { user, content: r.type, created_at: formatTime(r.createdAt) };
}
