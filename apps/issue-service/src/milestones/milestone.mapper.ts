import { formatTime, type Milestone } from '@gitforge/contracts';
import type { MilestoneEntity } from './milestone.entity.js';

export interface MilestoneCounts {
  open: number;
  closed: number;
}

/** Gitea's ToAPIMilestone: counts as counted now, `closed_at` only when closed. */
export function toMilestone(m: MilestoneEntity, counts: MilestoneCounts): Milestone {
  return {
    id: m.id,
    title: m.name,
    description: m.content,
    state: m.isClosed ? 'closed' : 'open',
    open_issues: counts.open,
    closed_issues: counts.closed,
    created_at: formatTime(m.createdAt),
    updated_at: formatTime(m.updatedAt),
    closed_at: m.isClosed && m.closedAt ? formatTime(m.closedAt) : null,
    due_on: m.deadline ? formatTime(m.deadline) : null,
  };
}
