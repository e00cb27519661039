import type { Team } from './org.js';
import type { User } from './user.js';

export class Permission {
  admin!: boolean;
  push!: boolean;
  pull!: boolean;
}

export class ExternalTracker {
  external_tracker_url!: string;
  external_tracker_format!: string;
  external_tracker_style!: string;
  external_tracker_regexp_pattern!: string;
}

export class ExternalWiki {
  external_wiki_url!: string;
}

export class InternalTracker {
  enable_time_tracker!: boolean;
  allow_only_contributors_to_track_time!: boolean;
  enable_issue_dependencies!: boolean;
}

/** Gitea's `Repository` (structs/repo.go). */
export class Repository {
  id!: number;
  owner!: User;
  name!: string;
  full_name!: string;
  description!: string;
  empty!: boolean;
  private!: boolean;
  fork!: boolean;
  template!: boolean;
  /** The repository this is a fork of; left out when there is none (Gitea's omitempty). */
  parent?: Repository;
  mirror!: boolean;
  size!: number;
  language!: string;
  languages_url!: string;
  html_url!: string;
  url!: string;
  link!: string;
  ssh_url!: string;
  clone_url!: string;
  original_url!: string;
  website!: string;
  stars_count!: number;
  forks_count!: number;
  watchers_count!: number;
  open_issues_count!: number;
  open_pr_counter!: number;
  release_counter!: number;
  default_branch!: string;
  archived!: boolean;
  created_at!: string;
  updated_at!: string;
  archived_at!: string;
  permissions!: Permission;
  has_code!: boolean;
  has_issues!: boolean;
  internal_tracker?: InternalTracker;
  external_tracker?: ExternalTracker;
  has_wiki!: boolean;
  external_wiki?: ExternalWiki;
  has_pull_requests!: boolean;
  has_projects!: boolean;
  projects_mode!: string;
  has_releases!: boolean;
  has_packages!: boolean;
  has_actions!: boolean;
  ignore_whitespace_conflicts!: boolean;
  allow_merge_commits!: boolean;
  allow_rebase!: boolean;
  allow_rebase_explicit!: boolean;
  allow_squash_merge!: boolean;
  allow_fast_forward_only_merge!: boolean;
  allow_rebase_update!: boolean;
  allow_manual_merge!: boolean;
  autodetect_manual_merge!: boolean;
  allow_merge_update!: boolean;
  default_delete_branch_after_merge!: boolean;
  default_merge_style!: string;
  default_update_style!: string;
  default_allow_maintainer_edit!: boolean;
  /** The pull request unit's default target branch; Gitea leaves it out while it is unset (omitempty), as it is here. */
  default_target_branch?: string;
  avatar_url!: string;
  internal!: boolean;
  mirror_interval!: string;
  mirror_updated!: string;
  /** When a pull mirror last synchronised; the zero time for other repositories. */
  mirror_last_sync_at!: string;
  object_format_name!: string;
  topics!: string[];
  licenses!: string[];
  branch_count!: number;
  /** The pending transfer (Gitea's RepoTransfer), null when there is none. */
  /** The transfer waiting for its recipient; left out when there is none (Gitea's omitempty). */
  repo_transfer?: RepoTransfer;
}

/** Gitea's `RepoTransfer`: a repository transfer waiting for its recipient. */
export class RepoTransfer {
  doer!: User;
  recipient!: User;
  teams!: Team[];
}

/** Gitea's `TopicName` (`GET /repos/{owner}/{repo}/topics`). */
export class TopicName {
  topics!: string[];
}

/** How many repositories a user starred (User.starred_repos_count), counted by repo-service; `version` orders the counts. */
export interface UserStarCount {
  userId: number;
  numStars: number;
  version: number;
}
