import {
  formatTime,
  type Attachment,
  type Issue,
  type IssueDeadline,
  type Label,
  type Milestone,
  type Project,
  type PullRequestMeta,
  type RepoAccess,
  type Repository,
  type User,
} from '@gitforge/contracts';
import type { IssueEntity } from './issue.entity.js';

/** Everything of an issue that lives in other rows or services, gathered once per page. */
export interface IssueParts {
  poster: User;
  assignees: User[];
  labels: Label[];
  milestone: Milestone | null;
  assets: Attachment[];
  projects: Project[];
  pullRequest: PullRequestMeta | null;
}

export function issueApiUrl(repository: Repository, index: number): string {
  return `${repository.url}/issues/${index}`;
}

export function issueHtmlUrl(repository: Repository, issue: Pick<IssueEntity, 'idx' | 'isPull'>): string {
  return `${repository.html_url}/${issue.isPull ? 'pulls' : 'issues'}/${issue.idx}`;
}

/** Gitea's ToAPIIssue. */
export function toIssue(i: IssueEntity, repo: RepoAccess, parts: IssueParts): Issue {
  const repository = repo.repository;
  return {
    id: i.id,
    url: issueApiUrl(repository, i.idx),
    html_url: issueHtmlUrl(repository, i),
    number: i.idx,
    user: parts.poster,
    original_author: i.originalAuthor,
    original_author_id: i.originalAuthorId,
    title: i.title,
    body: i.body,
    ref: i.ref,
    assets: parts.assets,
    labels: parts.labels,
    milestone: parts.milestone,
    assignee: parts.assignees[0] ?? null,
    assignees: parts.assignees.length > 0 ? parts.assignees : null,
    state: i.isClosed ? 'closed' : 'open',
    is_locked: i.isLocked,
    comments: i.numComments,
    created_at: formatTime(i.createdAt),
    updated_at: formatTime(i.updatedAt),
    closed_at: i.isClosed && i.closedAt ? formatTime(i.closedAt) : null,
    due_date: i.deadline ? formatTime(i.deadline) : null,
    time_estimate: i.timeEstimate,
    pull_request: parts.pullRequest,
    repository: { id: repo.id, name: repo.name, owner: repo.ownerLogin, full_name: `${repo.ownerLogin}/${repo.name}` },
    pin_order: i.pinOrder,
    content_version: i.contentVersion,
    projects: parts.projects.length > 0 ? parts.projects : null,
  };
}

/** Gitea's IssueDeadline: the due date, or null when there is none. */
export function toIssueDeadline(deadline: Date | null): IssueDeadline {
  return { due_date: deadline ? formatTime(deadline) : null };
}

/**
 * The repository as webhook payloads show it (Gitea's ToRepo with owner access): as the caller
 * sees it, with every permission.
 */
export function repositoryForEvents(repo: RepoAccess): Repository {
  return { ...repo.repository, permissions: { admin: true, push: true, pull: true } };
}
