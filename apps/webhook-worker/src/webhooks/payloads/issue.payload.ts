import type {
  EventEnvelope,
  HookEventType,
  IssueChanges,
  IssueEventPayload,
} from '@gitforge/contracts';
import type { BuiltHookPayload } from './webhook-payloads.js';
import type {
  ChangesPayload,
  IssuePayload,
  PullRequestPayload,
} from '@gitforge/contracts';

type IssueEventName =
  | 'issue.opened'
  | 'issue.edited'
  | 'issue.closed'
  | 'issue.reopened'
  | 'issue.deleted'
  | 'issue.assigned'
  | 'issue.labeled'
  | 'issue.milestoned';

/** The hook event type of an issue event, and of its pull request twin (Gitea's notifier). */
const HOOK_EVENTS: Record<IssueEventName, { issue: HookEventType; pull: HookEventType }> = {
  'issue.opened': { issue: 'issues', pull: 'pull_request' },
  'issue.edited': { issue: 'issues', pull: 'pull_request' },
  'issue.closed': { issue: 'issues', pull: 'pull_request' },
  'issue.reopened': { issue: 'issues', pull: 'pull_request' },
  'issue.deleted': { issue: 'issues', pull: 'pull_request' },
  'issue.assigned': { issue: 'issue_assign', pull: 'pull_request_assign' },
  'issue.labeled': { issue: 'issue_label', pull: 'pull_request_label' },
  'issue.milestoned': { issue: 'issue_milestone', pull: 'pull_request_milestone' },
};

/** Gitea's ChangesPayload: what the event says changed, the label lists always present. */
export function changesPayload(changes: IssueChanges | { body: { from: string } }): ChangesPayload {
  const c: IssueChanges = changes;
  return {
    ...(c.title ? { title: c.title } : {}),
    ...(c.body ? { body: c.body } : {}),
    ...(c.ref ? { ref: c.ref } : {}),
    added_labels: c.added_labels ?? null,
    removed_labels: c.removed_labels ?? null,
  };
}

/**
 * Gitea's PullRequestPayload for a pull request event, fields in its struct's order: `before` and
 * `after` only when the event has them (a synchronization), the requested reviewer and the review
 * null unless given. issue-service's pull events carry the pull request; one without it sends nothing.
 */
export function pullRequestPayload(
  p: IssueEventPayload,
  action: string,
  extra: { requested_reviewer?: PullRequestPayload['requested_reviewer']; review?: PullRequestPayload['review'] } = {},
): PullRequestPayload | null {
  if (!p.pull_request) return null;
  return {
    action,
    ...(p.before ? { before: p.before } : {}),
    ...(p.after ? { after: p.after } : {}),
    number: p.index,
    ...(p.changes ? { changes: changesPayload(p.changes) } : {}),
    pull_request: p.pull_request,
    requested_reviewer: extra.requested_reviewer ?? null,
    repository: p.repository,
    sender: p.sender,
    commit_id: '',
    review: extra.review ?? null,
  };
}

/**
 * Gitea's IssuePayload for an issue, its PullRequestPayload for a pull request. Assignment,
 * label and milestone changes go to their own event types (issue_assign, …), which hooks
 * subscribed to `issues` receive too.
 */
export function issuePayload(e: EventEnvelope<IssueEventName>): BuiltHookPayload | null {
  const p: IssueEventPayload = e.payload;
  const kinds = HOOK_EVENTS[e.name];
  const changes = p.changes ? { changes: changesPayload(p.changes) } : {};
  const base = { repoId: p.repository.id, ownerId: p.repository.owner.id, ref: null };
  if (p.is_pull) {
    const payload = pullRequestPayload(p, p.action);
    return payload && { event: kinds.pull, payload, ...base };
  }
  const payload: IssuePayload = {
    action: p.action,
    number: p.index,
    ...changes,
    issue: p.issue,
    repository: p.repository,
    sender: p.sender,
    commit_id: '',
  };
  return { event: kinds.issue, payload, ...base };
}
