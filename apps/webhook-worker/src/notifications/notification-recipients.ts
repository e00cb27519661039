import type { CommentEventPayload, EventEnvelope, IssueEventPayload, IssueParticipants } from '@gitforge/contracts';

/**
 * Who an event notifies, before access is checked (Gitea's services/uinotification): `all` is
 * everyone taking part (the followers, assignees and requested reviewers of the issue), less those
 * who unsubscribed, and with `watchers` the repository's watchers too;
 * `receivers` are named users (an assignee, a requested reviewer) notified whatever they chose;
 * `mentionText` is searched for `@login` mentions, which also notify whatever the user chose.
 * Null: the event changes what threads show, and notifies nobody.
 */
export interface NotificationPlan {
  all: boolean;
  /**
   * The repository's watchers take part too: with `all`, unless the pull is a work in progress
   * (createOrUpdateIssueNotifications), save when it is opened (NewPullRequest names them each).
   */
  watchers: boolean;
  receivers: number[];
  mentionText: string;
}

/** Gitea's default WORK_IN_PROGRESS_PREFIXES: a pull titled so does not notify the repository's watchers. */
const WIP_PREFIXES = ['wip:', '[wip]'];

export const isWorkInProgress = (title: string): boolean => WIP_PREFIXES.some((p) => title.trim().toLowerCase().startsWith(p));

export function planOf(envelope: EventEnvelope): NotificationPlan | null {
  const everyone = (p: IssueEventPayload | CommentEventPayload, mentionText: string): NotificationPlan => ({
    all: true,
    watchers: !(p.is_pull && isWorkInProgress(p.issue.title)),
    receivers: [],
    mentionText,
  });
  if (envelope.name === 'comment.created') {
    const c = envelope.payload as CommentEventPayload;
    return everyone(c, c.comment.body);
  }
  const p = envelope.payload as IssueEventPayload;
  switch (envelope.name) {
    case 'issue.opened':
      return { ...everyone(p, p.issue.body ?? ''), watchers: true };
    case 'issue.edited': {
      // A pull whose title drops its work-in-progress prefix is news to everyone (IssueChangeTitle).
      const from = p.changes?.title?.from;
      return p.is_pull && from !== undefined && isWorkInProgress(from) && !isWorkInProgress(p.issue.title) ? everyone(p, '') : null;
    }
    case 'issue.closed':
    case 'issue.reopened':
    case 'pull.merged':
    case 'pull.synchronized':
      return everyone(p, '');
    case 'pull.reviewed': {
      const texts = [p.review?.content ?? '', ...(p.review_code_comments ?? []).map((c) => c.body)];
      return everyone(p, p.action === 'reviewed' ? texts.join('\n') : '');
    }
    case 'issue.assigned':
      return p.action === 'assigned' && p.assignee ? { all: false, watchers: false, receivers: [p.assignee.id], mentionText: '' } : null;
    case 'pull.review_requested':
      return p.action === 'review_requested' && p.requested_reviewer ? { all: false, watchers: false, receivers: [p.requested_reviewer.id], mentionText: '' } : null;
    default:
      return null;
  }
}

/**
 * The logins `@mentioned` in a Markdown text, lower-cased and without repeats; code spans and
 * fenced blocks are skipped, as Gitea finds mentions in rendered text only.
 */
export function mentionedLogins(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?(```|$)/g, ' ').replace(/`[^`\n]*`/g, ' ');
  const found = new Set<string>();
  for (const m of prose.matchAll(/(?:^|[\s([])@([0-9A-Za-z_](?:[-.\w]*[-\w])?)(?=[.,:;?!]*(?:[\s)\]]|$))/g)) found.add(m[1]!.toLowerCase());
  return [...found];
}

/**
 * The users to ask about (before access), and those who must be left out: everyone taking part
 * when the plan says so, less the unsubscribed; the named receivers and the mentioned; never the actor.
 */
export function candidatesOf(
  plan: NotificationPlan,
  participants: IssueParticipants,
  mentionedIds: number[],
  actorId: number | null,
): { userIds: number[]; excluded: Set<number> } {
  const ids = new Set<number>();
  if (plan.all) {
    const unsubscribed = new Set(participants.unsubscribed);
    for (const id of [...participants.followers, ...participants.assignees, ...participants.reviewers]) if (!unsubscribed.has(id)) ids.add(id);
  }
  const named = [...plan.receivers, ...mentionedIds];
  for (const id of named) ids.add(id);
  // Watchers are added by repo-service; an explicit unsubscribe still wins over watching, a mention or a name over both.
  const excluded = new Set(plan.all ? participants.unsubscribed.filter((id) => !named.includes(id)) : []);
  if (actorId !== null) {
    ids.delete(actorId);
    excluded.add(actorId);
  }
  return { userIds: [...ids], excluded };
}
