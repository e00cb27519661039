import type { PayloadCommit, Repository, User } from '@gitforge/contracts';

/**
 * Gitea's webhook payloads (structs/hook.go) as the hook types read them. Events of services
 * that do not exist yet (issues, pulls, releases, packages, statuses, wiki) carry the same wire
 * names; their inner objects are typed only as far as the chat formats read them.
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

export interface ChangesPayload {
  title?: { from: string };
  body?: { from: string };
  ref?: { from: string };
  name?: { from: string };
  added_labels: unknown[] | null;
  removed_labels: unknown[] | null;
}

export interface RepositoryPayload {
  action: 'created' | 'deleted';
  repository: Repository;
  /** The owner as a User (Gitea fills it for user-owned repositories too). */
  organization: User | null;
  sender: User;
}

interface IssueLike {
  id: number;
  number: number;
  title: string;
  body: string;
  html_url: string;
  url: string;
  user: User;
  assignees: User[] | null;
  milestone: { id: number; title: string } | null;
  merged?: boolean;
}

export interface IssuePayload {
  action: string;
  number: number;
  issue: IssueLike;
  repository: Repository;
  sender: User;
}

export interface PullRequestPayload {
  action: string;
  number: number;
  pull_request: IssueLike;
  repository: Repository;
  sender: User;
  review: { type: string; content: string } | null;
}

export interface IssueCommentPayload {
  action: 'created' | 'edited' | 'deleted';
  issue: IssueLike;
  comment: { body: string; html_url: string; issue_url: string; pull_request_url: string };
  repository: Repository;
  sender: User;
  is_pull: boolean;
}

export interface ReleasePayload {
  action: 'published' | 'updated' | 'deleted';
  release: { tag_name: string; html_url: string; body: string };
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
  package: { html_url: string; name: string; version: string };
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
