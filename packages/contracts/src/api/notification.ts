import type { RepoUnitKey } from '../access.js';
import type { TeamAccess } from './org.js';
import type { Repository } from './repo.js';

/** Gitea's NotifySubjectType. */
export type NotificationSubjectType = 'Issue' | 'Pull' | 'Commit' | 'Repository';

/** Gitea's NotificationSubject. Empty strings where Gitea leaves a field out of its struct's zero value. */
export interface NotificationSubject {
  title: string;
  url: string;
  html_url: string;
  latest_comment_url: string;
  latest_comment_html_url: string;
  type: NotificationSubjectType;
  /** `open`, `closed` or `merged`; empty for commits and repositories. */
  state: string;
}

/** Gitea's NotificationThread: the repository as a reader sees it, without permissions (Gitea drops them). */
export interface NotificationThread {
  id: number;
  /** Null (and the subject too) once the thread's user has no access to the repository any more. */
  repository: Repository | null;
  subject: NotificationSubject | null;
  unread: boolean;
  pinned: boolean;
  updated_at: string;
  url: string;
}

/** Gitea's NotificationCount (`GET /notifications/new`). */
export interface NotificationCount {
  new: number;
}

/**
 * Who takes part in an issue or pull, for the notification projector (issue-service's answer):
 * `followers` by Gitea's CheckIssueWatch rule (poster and commenters unless they unsubscribed, and
 * subscribers), `unsubscribed` those who chose not to follow, the current assignees and requested
 * reviewers, and the latest comment (0 when there is none).
 */
export interface IssueParticipants {
  followers: number[];
  unsubscribed: number[];
  assignees: number[];
  reviewers: number[];
  latestCommentId: number;
  /** The issue no longer exists: a late event about it notifies nobody. */
  gone?: boolean;
}

/** Body of `repos.notificationAudience`. */
export interface NotificationAudienceRequest {
  repoId: number;
  userIds: number[];
  /** The unit the subject lives in (`repo.issues`, `repo.pulls`, `repo.code`); null: any active user, whatever they may read. */
  unit: RepoUnitKey | null;
  /** Add the repository's watchers to `userIds`. */
  withWatchers: boolean;
}

/** What one user reaches of one owner (org-service's `orgs.accessForUsers`), the per-user part of OwnerAccess. */
export interface UserOwnerAccess {
  userId: number;
  isAdmin: boolean;
  isActive: boolean;
  visible: boolean;
  isOrgOwner: boolean;
  isOrgMember: boolean;
  teamAccess: TeamAccess;
}
