import type { Label, Milestone } from './issue.js';
import type { Team } from './org.js';
import type { Repository } from './repo.js';
import type { User } from './user.js';

/** Gitea's PRBranchInfo: one side of a pull request. */
export interface PRBranchInfo {
  /** The branch name. */
  label: string;
  /** The branch name; `refs/pull/{index}/head` when the head branch is gone. */
  ref: string;
  sha: string;
  repo_id: number;
  /** Null when the head repository was deleted. */
  repo: Repository | null;
}

/** Gitea's PullRequest (`structs/pull.go`, `convert/pull.go`). */
export interface PullRequest {
  id: number;
  url: string;
  number: number;
  user: User;
  title: string;
  body: string;
  labels: Label[];
  milestone: Milestone | null;
  assignee: User | null;
  assignees: User[] | null;
  /** Null when nobody is asked (Gitea appends to a nil slice). */
  requested_reviewers: User[] | null;
  requested_reviewers_teams: Team[] | null;
  state: 'open' | 'closed';
  draft: boolean;
  is_locked: boolean;
  comments: number;
  /** Only on single-pull answers (Gitea's omitempty). */
  review_comments?: number;
  additions?: number;
  deletions?: number;
  changed_files?: number;
  html_url: string;
  diff_url: string;
  patch_url: string;
  mergeable: boolean;
  merged: boolean;
  merged_at: string | null;
  merge_commit_sha: string | null;
  merged_by: User | null;
  allow_maintainer_edit: boolean;
  base: PRBranchInfo;
  head: PRBranchInfo;
  merge_base: string;
  due_date: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  pin_order: number;
  content_version: number;
}

/** Gitea's ReviewStateType. */
export type ReviewState = 'APPROVED' | 'PENDING' | 'COMMENT' | 'REQUEST_CHANGES' | 'REQUEST_REVIEW' | '';

/** Gitea's PullReview. */
export interface PullReview {
  id: number;
  user: User | null;
  team: Team | null;
  state: ReviewState;
  body: string;
  commit_id: string;
  stale: boolean;
  official: boolean;
  dismissed: boolean;
  comments_count: number;
  submitted_at: string;
  updated_at: string;
  html_url: string;
  pull_request_url: string;
}

/** Gitea's PullReviewComment: a comment on a line of the diff. */
export interface PullReviewComment {
  id: number;
  body: string;
  user: User | null;
  resolver: User | null;
  pull_request_review_id: number;
  created_at: string;
  updated_at: string;
  path: string;
  commit_id: string;
  original_commit_id: string;
  diff_hunk: string;
  position: number;
  original_position: number;
  html_url: string;
  pull_request_url: string;
}

/** Gitea's ChangedFile (`/pulls/{index}/files`). */
export interface ChangedFile {
  filename: string;
  previous_filename?: string;
  /** added, deleted, modified, renamed, copied, changed, unchanged. */
  status: string;
  additions: number;
  deletions: number;
  changes: number;
  html_url: string;
  contents_url: string;
  raw_url: string;
}

/** The merge styles of `POST /pulls/{index}/merge` (`Do`). */
export const MergeStyles = ['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only', 'manually-merged'] as const;
export type MergeStyle = (typeof MergeStyles)[number];

/**
 * Gitea's PullRequestStatus, stored as its number: what the last mergeability check found.
 * `checking` until the first check ends.
 */
export const PullStatus = {
  conflict: 0,
  checking: 1,
  mergeable: 2,
  manuallyMerged: 3,
  error: 4,
  empty: 5,
  ancestorMerged: 6,
} as const;
export type PullStatus = (typeof PullStatus)[keyof typeof PullStatus];
