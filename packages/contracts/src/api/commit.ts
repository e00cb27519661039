import type { CommitMeta, CommitUser, CommitVerification } from './contents.js';
import type { PayloadUser } from './payload.js';
import type { Repository } from './repo.js';
import type { User } from './user.js';

/** Gitea's `RepoCommit`: the commit object itself. */
export class RepoCommit {
  url!: string;
  author!: CommitUser;
  committer!: CommitUser;
  message!: string;
  /** Gitea puts the commit's own sha here, not the tree's. */
  tree!: CommitMeta;
  verification!: CommitVerification | null;
}

/** Gitea's `CommitAffectedFiles`. */
export class CommitAffectedFiles {
  filename!: string;
  status!: 'added' | 'removed' | 'modified';
}

/** Gitea's `CommitStats`. */
export class CommitStats {
  total!: number;
  additions!: number;
  deletions!: number;
}

/** Gitea's `Commit` (commit lists, single commit, compare); `author`/`committer` are the accounts matching the e-mails. */
export class Commit {
  url!: string;
  sha!: string;
  created!: string;
  html_url!: string;
  commit!: RepoCommit;
  author!: User | null;
  committer!: User | null;
  parents!: CommitMeta[];
  files!: CommitAffectedFiles[] | null;
  stats!: CommitStats | null;
}

/** Gitea's `Compare`. */
export class Compare {
  total_commits!: number;
  commits!: Commit[];
}

/** Gitea's `PayloadCommit` as the Branch shape carries it: no file lists (null). */
export class BranchCommit {
  id!: string;
  message!: string;
  url!: string;
  author!: PayloadUser;
  committer!: PayloadUser;
  verification!: CommitVerification | null;
  timestamp!: string;
  added!: string[] | null;
  removed!: string[] | null;
  modified!: string[] | null;
}

/** Gitea's `Branch`. */
export class Branch {
  name!: string;
  commit!: BranchCommit;
  protected!: boolean;
  required_approvals!: number;
  enable_status_check!: boolean;
  status_check_contexts!: string[];
  user_can_push!: boolean;
  user_can_merge!: boolean;
  effective_branch_protection_name!: string;
}

export type CommitStatusState = 'pending' | 'success' | 'error' | 'failure' | 'warning' | 'skipped';
export const CommitStatusStates: readonly CommitStatusState[] = ['pending', 'success', 'error', 'failure', 'warning', 'skipped'];

/** Gitea's `CommitStatus`: note the state is in `status`. */
export class CommitStatus {
  /** Sequence number of the status within its commit, not a global id. */
  id!: number;
  status!: CommitStatusState;
  target_url!: string;
  description!: string;
  url!: string;
  context!: string;
  creator!: User | null;
  created_at!: string;
  updated_at!: string;
}

/** Gitea's `CombinedStatus`: the latest status per context and their combined `state`. */
export class CombinedStatus {
  state!: CommitStatusState;
  sha!: string;
  total_count!: number;
  statuses!: CommitStatus[] | null;
  repository!: Repository;
  commit_url!: string;
  url!: string;
}

/** What `POST /repos/{owner}/{repo}/merge-upstream` did to the fork's branch (Gitea's MergeUpstreamResponse). */
export interface MergeUpstreamResponse {
  merge_type: 'up-to-date' | 'fast-forward' | 'merge';
}
