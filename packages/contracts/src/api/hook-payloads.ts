import type { Comment, Issue, Label } from './issue.js';
import type { Organization } from './org.js';
import type { Package } from './package.js';
import type { PayloadCommit } from './payload.js';
import type { PullRequest } from './pull.js';
import type { Release } from './release.js';
import type { Repository } from './repo.js';
import type { User } from './user.js';

/**
 * Gitea's webhook payloads (structs/hook.go), as the webhook worker builds them and its hook
 * types read them. Events of services
 * that do not exist yet (releases, packages, wiki) carry the same wire names; their inner
 * objects are typed only as far as the chat formats read them.
 */
export interface PushPayload {
  ref: string;
  before: string;
  after: string;
  compare_url: string;
  commits: PayloadCommit[];
  total_commits: number;
  head_commit: PayloadCommit | null;
  repository: Repository;
  pusher: User;
  sender: User;
}

export interface CreatePayload {
  sha: string;
  ref: string;
  ref_type: string;
  repository: Repository;
  sender: User;
}

export interface DeletePayload {
  ref: string;
  ref_type: string;
  pusher_type: 'user';
  repository: Repository;
  sender: User;
}

export interface ForkPayload {
  forkee: Repository;
  repository: Repository;
  sender: User;
}

/** Gitea's ChangesPayload: the labels are always written, null unless a label change set them. */
export interface ChangesPayload {
  title?: { from: string };
  body?: { from: string };
  ref?: { from: string };
  added_labels: Label[] | null;
  removed_labels: Label[] | null;
}

export interface RepositoryPayload {
  action: 'created' | 'deleted';
  repository: Repository;
  /** The owner as a User (Gitea fills it for user-owned repositories too). */
  organization: User | null;
  sender: User;
}

/** Gitea's IssuePayload, fields in its struct's order; `changes` only when the event has them. */
export interface IssuePayload {
  action: string;
  number: number;
  changes?: ChangesPayload;
  issue: Issue;
  repository: Repository;
  sender: User;
  commit_id: string;
}

/**
 * Gitea's PullRequestPayload, fields in its struct's order; `before`/`after` (omitted when
 * empty) only on a synchronization.
 */
export interface PullRequestPayload {
  action: string;
  before?: string;
  after?: string;
  number: number;
  changes?: ChangesPayload;
  /** issue-service's PullRequest as it sent it (Gitea's PullRequest, in its struct's order). */
  pull_request: PullRequest;
  requested_reviewer: User | null;
  repository: Repository;
  sender: User;
  commit_id: string;
  review: { type: string; content: string } | null;
}

/** Gitea's IssueCommentPayload (its `pull_request` is never filled by the comment notifier). */
export interface IssueCommentPayload {
  action: 'created' | 'edited' | 'deleted';
  issue: Issue;
  comment: Comment;
  changes?: ChangesPayload;
  repository: Repository;
  sender: User;
  is_pull: boolean;
}

export interface ReleasePayload {
  action: 'published' | 'updated' | 'deleted';
  release: Release;
  repository: Repository;
  sender: User;
}

export interface WikiPayload {
  action: 'created' | 'edited' | 'deleted';
  repository: Repository;
  sender: User;
  page: string;
  comment: string;
}

export interface PackagePayload {
  action: 'created' | 'deleted';
  repository: Repository | null;
  package: Package;
  organization: Organization | null;
  sender: User;
}

/** Gitea's CommitStatusPayload, fields in its struct's order. */
export interface CommitStatusPayload {
  commit: PayloadCommit;
  context: string;
  created_at: string;
  description: string;
  id: number;
  repository: Repository;
  sender: User;
  sha: string;
  state: string;
  target_url: string;
  updated_at: string;
}
