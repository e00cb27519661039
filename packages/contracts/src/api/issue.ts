import type { Team } from './org.js';
import type { User } from './user.js';

/** Gitea's Attachment (issue, comment and release assets). */
export interface Attachment {
  id: number;
  name: string;
  size: number;
  download_count: number;
  created_at: string;
  uuid: string;
  /** `{ROOT_URL}attachments/{uuid}`. */
  browser_download_url: string;
}

/** Gitea's Label: `color` is sent without `#`; `url` points at the repository's or the organization's label. */
export interface Label {
  id: number;
  name: string;
  exclusive: boolean;
  is_archived: boolean;
  color: string;
  description: string;
  url: string;
}

export interface Milestone {
  id: number;
  title: string;
  description: string;
  state: 'open' | 'closed';
  open_issues: number;
  closed_issues: number;
  created_at: string;
  updated_at: string | null;
  closed_at: string | null;
  due_on: string | null;
}

export interface PullRequestMeta {
  merged: boolean;
  merged_at: string | null;
  draft: boolean;
  html_url: string;
}

export interface RepositoryMeta {
  id: number;
  name: string;
  owner: string;
  full_name: string;
}

/** A project (Gitea has no project API: shaped on Gitea's project model and docs/spec.md's Project). */
export interface Project {
  id: number;
  title: string;
  description: string;
  /** Set for repository projects, 0 otherwise. */
  repo_id: number;
  /** Set for organization (and user) projects, 0 otherwise. */
  owner_id: number;
  creator_id: number;
  is_closed: boolean;
  /** Gitea's template type: `none`, `basic_kanban`, `bug_triage`. */
  template_type: string;
  /** Gitea's card type: `text_only`, `images_and_text`. */
  card_type: string;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  url: string;
  html_url: string;
}

/** A column of a project board (Gitea's project_board). */
export interface ProjectColumn {
  id: number;
  project_id: number;
  title: string;
  color: string;
  default: boolean;
  sorting: number;
  num_issues: number;
  created_at: string;
  updated_at: string;
}

/** Gitea's Issue (structs/issue.go); also the issue side of a pull request. */
export interface Issue {
  id: number;
  url: string;
  html_url: string;
  number: number;
  user: User;
  original_author: string;
  original_author_id: number;
  title: string;
  body: string;
  ref: string;
  assets: Attachment[];
  labels: Label[];
  milestone: Milestone | null;
  /** Deprecated: the first assignee. */
  assignee: User | null;
  assignees: User[] | null;
  state: 'open' | 'closed';
  is_locked: boolean;
  comments: number;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  due_date: string | null;
  time_estimate: number;
  pull_request: PullRequestMeta | null;
  repository: RepositoryMeta;
  pin_order: number;
  /** Bumped on every change of the title or body (optimistic locking in the web editor). */
  content_version: number;
  /** Null when the issue is on no project (Gitea sets the list only when there is one). */
  projects: Project[] | null;
}

/** Gitea's Comment. */
export interface Comment {
  id: number;
  html_url: string;
  pull_request_url: string;
  issue_url: string;
  user: User;
  original_author: string;
  original_author_id: number;
  body: string;
  assets: Attachment[];
  created_at: string;
  updated_at: string;
}

/** Gitea's TimelineComment: one comment or event of an issue's history. */
export interface TimelineComment {
  id: number;
  type: string;
  html_url: string;
  pull_request_url: string;
  issue_url: string;
  user: User | null;
  body: string;
  created_at: string;
  updated_at: string;
  old_project_id: number;
  project_id: number;
  old_milestone: Milestone | null;
  milestone: Milestone | null;
  tracked_time: TrackedTime | null;
  old_title: string;
  new_title: string;
  old_ref: string;
  new_ref: string;
  ref_issue: Issue | null;
  ref_comment: Comment | null;
  ref_action: string;
  ref_commit_sha: string;
  review_id: number;
  label: Label | null;
  assignee: User | null;
  assignee_team: Team | null;
  resolve_doer: User | null;
  dependent_issue: Issue | null;
  removed_assignee: boolean;
}

/** Gitea's TrackedTime (`issue_id` and `user_id` are deprecated but still sent). */
export interface TrackedTime {
  id: number;
  created: string;
  time: number;
  user_id: number;
  user_name: string;
  issue_id: number;
  issue: Issue | null;
}

export interface StopWatch {
  created: string;
  seconds: number;
  duration: string;
  issue_index: number;
  issue_title: string;
  repo_owner_name: string;
  repo_name: string;
}

/** Gitea's Reaction. */
export interface Reaction {
  user: User;
  content: string;
  created_at: string;
}

/** A reaction as added: `created` is false when the user had already given it (Gitea answers 200 then, 201 otherwise). */
export interface ReactionResult {
  created: boolean;
  reaction: Reaction;
}

/** An issue subscription change: Gitea answers 201 when the state changed, 200 when it already was so. */
export interface SubscriptionChange {
  changed: boolean;
}

export interface IssueDeadline {
  due_date: string | null;
}

/** Gitea's WatchInfo, answered by the issue and repository subscription checks (`reason` is always null). */
export interface WatchInfo {
  subscribed: boolean;
  ignored: boolean;
  reason: unknown;
  created_at: string;
  url: string;
  repository_url: string;
}

/** Gitea's `NewIssuePinsAllowed`: whether another issue, and another pull request, may be pinned. */
export class NewIssuePinsAllowed {
  issues!: boolean;
  pull_requests!: boolean;
}
