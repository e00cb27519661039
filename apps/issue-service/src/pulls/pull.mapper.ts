import { formatTime, PullStatus, type Issue, type PullRequest, type PullRequestMeta, type RepoAccess, type Repository, type Team, type User } from '@gitforge/contracts';
import type { PullRequestEntity } from './pull-request.entity.js';

/** Gitea's `[repository.pull-request] WORK_IN_PROGRESS_PREFIXES`. */
const WIP_PREFIXES = ['WIP:', '[WIP]'];

/** A title starting with a work-in-progress prefix (any case) makes a draft, as in Gitea. */
export function isWorkInProgress(title: string): boolean {
  const upper = title.toUpperCase();
  return WIP_PREFIXES.some((p) => upper.startsWith(p));
}

/** Gitea's Mergeable: checked, no conflict, no error, and not a draft. */
export function isMergeable(pull: PullRequestEntity, title: string): boolean {
  const s = pull.status;
  return s !== PullStatus.checking && s !== PullStatus.conflict && s !== PullStatus.error && !isWorkInProgress(title);
}

/** `refs/pull/{index}/head`: the head of a pull in its base repository. */
export const pullHeadRef = (index: number): string => `refs/pull/${index}/head`;

/** Issue.pull_request. */
export function toPullRequestMeta(pull: PullRequestEntity, title: string, htmlUrl: string): PullRequestMeta {
  return {
    merged: pull.hasMerged,
    merged_at: pull.hasMerged && pull.mergedAt ? formatTime(pull.mergedAt) : null,
    draft: isWorkInProgress(title),
    html_url: htmlUrl,
  };
}

/** What a pull request shows beyond its issue. */
export interface PullParts {
  /** The head repository as the viewer sees it; null when gone or invisible. */
  headRepo: Repository | null;
  mergedBy: User | null;
  requestedReviewers: User[];
  requestedTeams: Team[];
  /** Review comments on the pull: shown only when there are some (Gitea's omitempty). */
  reviewComments: number;
  /** A single pull's answer (Gitea's ToAPIPullRequest): diff stats, and empty lists as `[]`, where a list of pulls shows no stats and `null`. */
  single?: boolean;
}

/** Gitea's ToAPIPullRequest, from the issue as ToAPIIssue shows it. */
export function toPullRequest(issue: Issue, pull: PullRequestEntity, base: RepoAccess, parts: PullParts): PullRequest {
  const headKnown = pull.headRepoId > 0 && parts.headRepo !== null;
  return {
    id: pull.id,
    url: issue.html_url,
    number: issue.number,
    user: issue.user,
    title: issue.title,
    body: issue.body,
    labels: issue.labels,
    milestone: issue.milestone,
    assignee: issue.assignee,
    assignees: parts.single ? (issue.assignees ?? []) : issue.assignees,
    requested_reviewers: parts.single || parts.requestedReviewers.length > 0 ? parts.requestedReviewers : null,
    requested_reviewers_teams: parts.single || parts.requestedTeams.length > 0 ? parts.requestedTeams : null,
    state: issue.state,
    draft: isWorkInProgress(issue.title),
    is_locked: issue.is_locked,
    comments: issue.comments,
    ...(parts.reviewComments > 0 ? { review_comments: parts.reviewComments } : {}),
    ...(parts.single ? { additions: pull.additions, deletions: pull.deletions, changed_files: pull.changedFiles } : {}),
    html_url: issue.html_url,
    diff_url: `${issue.html_url}.diff`,
    patch_url: `${issue.html_url}.patch`,
    mergeable: isMergeable(pull, issue.title),
    merged: pull.hasMerged,
    merged_at: pull.hasMerged && pull.mergedAt ? formatTime(pull.mergedAt) : null,
    merge_commit_sha: pull.hasMerged ? pull.mergedCommitId : null,
    merged_by: pull.hasMerged ? parts.mergedBy : null,
    allow_maintainer_edit: pull.allowMaintainerEdit,
    base: { label: pull.baseBranch, ref: pull.baseBranch, sha: pull.baseSha, repo_id: pull.baseRepoId, repo: base.repository },
    head: {
      label: pull.headBranch,
      // The branch while it and its repository are there; the pull's own ref once either is gone.
      ref: headKnown && !pull.headBranchDeleted ? pull.headBranch : pullHeadRef(pull.idx),
      sha: pull.headSha,
      repo_id: headKnown ? pull.headRepoId : -1,
      repo: headKnown ? parts.headRepo : null,
    },
    merge_base: pull.mergeBase,
    due_date: issue.due_date,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    pin_order: issue.pin_order,
    content_version: issue.content_version,
  };
}
