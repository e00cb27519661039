import type {
  EventEnvelope,
  HookEventType,
  Issue,
  IssueChanges,
  IssueEventPayload,
} from '@gitforge/contracts';
import type { BuiltHookPayload } from './webhook-payloads.js';
import type {
  ChangesPayload,
  IssuePayload,
  PullRequestObject,
  PullRequestPayload,
} from './gitea-payloads.js';

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
 * The pull request object of a pull_request_* payload as far as its issue tells it: only for an
 * event that does not carry the pull request itself (issue-service's events do).
 */
export function pullRequestFromIssue(issue: Issue): PullRequestObject {
  const pr = issue.pull_request;
  const pullUrl = issue.html_url;
  return {
    id: issue.id,
    url: pullUrl,
    number: issue.number,
    user: issue.user,
    title: issue.title,
    body: issue.body,
    labels: issue.labels,
    milestone: issue.milestone,
    assignee: issue.assignee,
    assignees: issue.assignees,
    requested_reviewers: null,
    requested_reviewers_teams: null,
    state: issue.state,
    draft: pr?.draft ?? false,
    is_locked: issue.is_locked,
    comments: issue.comments,
    html_url: pullUrl,
    diff_url: `${pullUrl}.diff`,
    patch_url: `${pullUrl}.patch`,
    mergeable: false,
    merged: pr?.merged ?? false,
    merged_at: pr?.merged_at ?? null,
    merge_commit_sha: null,
    merged_by: null,
    allow_maintainer_edit: false,
    base: null,
    head: null,
    merge_base: '',
    due_date: issue.due_date,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    pin_order: issue.pin_order,
  };
}

/** The pull request a pull_request_* payload carries: the event's own, as issue-service sent it. */
export function pullRequestOf(p: IssueEventPayload): PullRequestObject {
  return p.pull_request ?? pullRequestFromIssue(p.issue);
}

/**
 * Gitea's PullRequestPayload for a pull request event, fields in its struct's order: `before` and
 * `after` only when the event has them (a synchronization), the requested reviewer and the review
 * null unless given.
 */
export function pullRequestPayload(
  p: IssueEventPayload,
  action: string,
  extra: { requested_reviewer?: PullRequestPayload['requested_reviewer']; review?: PullRequestPayload['review'] } = {},
): PullRequestPayload {
  return {
    action,
    ...(p.before ? { before: p.before } : {}),
    ...(p.after ? { after: p.after } : {}),
    number: p.index,
    ...(p.changes ? { changes: changesPayload(p.changes) } : {}),
    pull_request: pullRequestOf(p),
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
export function issuePayload(e: EventEnvelope<IssueEventName>): BuiltHookPayload {
  const p: IssueEventPayload = e.payload;
  const kinds = HOOK_EVENTS[e.name];
  const changes = p.changes ? { changes: changesPayload(p.changes) } : {};
  const base = { repoId: p.repository.id, ownerId: p.repository.owner.id, branch: null };
  if (p.is_pull) return { event: kinds.pull, payload: pullRequestPayload(p, p.action), ...base };
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
