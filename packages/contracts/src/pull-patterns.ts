import type { PullStatus } from './api/pull.js';
import type { User } from './api/user.js';
import { definePatterns } from './patterns.js';

/**
 * issue-service's pull request routes. Params name the base repository (`owner`, `repo`) and
 * the pull (`index`) as the routes do; the service checks access itself and asks repo-service
 * (PullGitPatterns) for everything git knows.
 */
export const PullPatterns = definePatterns('issue', {
  /** `POST /repos/{o}/{r}/pulls`. */
  create: 'pulls.create',
  /** `GET /repos/{o}/{r}/pulls` (state, sort, milestone, labels, poster, base_branch). */
  list: 'pulls.list',
  get: 'pulls.get',
  /** `GET /pulls/{base}/{head}`: the newest pull from `head` into `base`. */
  getByBaseHead: 'pulls.getByBaseHead',
  /** `GET /repos/{o}/{r}/commits/{sha}/pull`: the pull request merged as that commit. */
  getByMergedCommit: 'pulls.getByMergedCommit',
  edit: 'pulls.edit',
  /** `GET /pulls/{index}.diff|.patch` (params.diffType). */
  raw: 'pulls.raw',
  files: 'pulls.files',
  commits: 'pulls.commits',
  /** `GET /pulls/{index}/merge`: 204 when merged, 404 otherwise. */
  isMerged: 'pulls.merged.check',
  merge: 'pulls.merge',
  /** `DELETE /pulls/{index}/merge`: cancels a scheduled auto-merge. */
  cancelAutoMerge: 'pulls.autoMerge.cancel',
  /** `POST /pulls/{index}/update` (query style=merge|rebase). */
  update: 'pulls.update',
});

export const PullReviewPatterns = definePatterns('issue', {
  list: 'pulls.reviews.list',
  get: 'pulls.reviews.get',
  create: 'pulls.reviews.create',
  /** `POST /pulls/{index}/reviews/{id}`: submits a pending review. */
  submit: 'pulls.reviews.submit',
  delete: 'pulls.reviews.delete',
  listComments: 'pulls.reviews.comments.list',
  dismiss: 'pulls.reviews.dismiss',
  undismiss: 'pulls.reviews.undismiss',
  requestReviewers: 'pulls.reviewers.request',
  removeReviewRequests: 'pulls.reviewers.remove',
  resolveComment: 'pulls.comments.resolve',
  unresolveComment: 'pulls.comments.unresolve',
  replyToComment: 'pulls.comments.reply',
});

/** One pull request's two sides as issue-service stores them. */
export interface PullSides {
  baseRepoId: number;
  baseBranch: string;
  headRepoId: number;
  headBranch: string;
}

/** What git says about a pull request at one moment (answered by repo-service). */
export interface PullGitState {
  /** The head commit (refs/pull/{index}/head once synchronised). */
  headSha: string;
  /** The base branch's tip when this was computed. */
  baseSha: string;
  mergeBase: string;
  status: PullStatus;
  conflictedFiles: string[];
  /** Commits on the head not on the base, and the reverse. */
  commitsAhead: number;
  commitsBehind: number;
  additions: number;
  deletions: number;
  changedFiles: number;
}

/** A pull to synchronise: its ref is written, then its state computed. */
export interface PullSyncItem extends PullSides {
  index: number;
  /** Null: take the head branch's tip (it must exist); else keep this commit (head branch deleted). */
  headSha: string | null;
}

/** body of `pulls.git.sync`; answered with one entry per item, in order (null: head and base both gone). */
export interface PullSyncRequest {
  items: PullSyncItem[];
}

/** body of `pulls.git.diff`, `pulls.git.files`, `pulls.git.commits`. */
export interface PullRangeRequest {
  repoId: number;
  /** The range compared: `mergeBase..headSha` (both already in the base repository). */
  mergeBase: string;
  headSha: string;
  /** For `files`: the head repository, whose links ChangedFile carries (Gitea's ToChangedFile); the base when absent. */
  headRepoId?: number;
  /** For `diff`: 'diff' or 'patch'; `binary` asks for binary patches (`--binary`). */
  kind?: 'diff' | 'patch';
  binary?: boolean;
  /** For files and commits: Gitea's page and limit (already parsed), and commits' `files`/`verification` flags. */
  page?: number;
  limit?: number;
  files?: boolean;
  verification?: boolean;
  /** For files: the file the list starts at (Gitea's `skip-to`), and how line counts treat whitespace (Gitea's `whitespace`). */
  skipTo?: string;
  whitespace?: string;
}

/** body of `pulls.git.merge`. */
export interface PullMergeRequest extends PullSides {
  index: number;
  style: 'merge' | 'rebase' | 'rebase-merge' | 'squash' | 'fast-forward-only';
  /**
   * The head commit the caller expects (a `head_commit_id`, or the commit a scheduled merge's
   * checks passed on): refused (stale, 409) unless the head branch holds it. Empty: whatever the
   * head branch holds now, as Gitea merges it.
   */
  headSha: string;
  /** The whole commit message (title, blank line, body) of the merge or squash commit. */
  message: string;
  /** Who merges (committer; the author too, except squash which keeps the head's author). */
  doerId: number;
  /**
   * The pull's poster: a squash commit's author is the poster, as signed on one of the head's
   * commits or else as their account says (Gitea's getAuthorSignatureSquash). Absent: the
   * newest head commit's author.
   */
  posterId?: number;
}

/** Answer of `pulls.git.merge`. */
export interface PullMergeResult {
  mergeCommitSha: string;
  /** The head commit that was merged. */
  headSha: string;
  /** The base branch before the merge. */
  baseBefore: string;
  /** The doer as anyone sees them (the sender of the merge's events). */
  merger: User;
}

/** body of `pulls.git.update`: brings the head branch up to date with the base (in the head repository). */
export interface PullUpdateRequest extends PullSides {
  index: number;
  style: 'merge' | 'rebase';
  doerId: number;
  /** The merge commit's message (a pull's update: `Merge branch '<base>' into <head>`). */
  message?: string;
  /**
   * Moved as the doer's own push would move it (merge-upstream): the head branch's protection
   * decides, files and signatures included.
   */
  asPush?: boolean;
  /**
   * A pull's update, allowed as Gitea's CheckUserAllowedToUpdate allows it (403 otherwise, before
   * anything is read): the doer may push to the head branch (force-push, for a rebase) by its
   * protection; or else, when the poster allowed maintainers' edits and the doer may merge into
   * the base branch, the poster may.
   */
  asPullUpdate?: { posterId: number; allowMaintainerEdit: boolean };
}

/** body of `pulls.git.policy`: the base branch's protection as it bears on merging. */
export interface PullPolicyRequest {
  repoId: number;
  branch: string;
  /** Who wants to merge (0: nobody, just the rules). */
  doerId: number;
  /** Reviewers whose officialness is asked (approvals whitelist, or write access when there is none). */
  reviewerIds: number[];
  /** The head commit whose statuses the required checks are matched against. */
  headSha: string;
  /** The files the pull changes, for protected and unprotected file patterns. */
  changedPaths?: string[];
}

/** Answer of `pulls.git.policy`. */
export interface PullPolicy {
  /** The branch has a protection rule. */
  protected: boolean;
  ruleName: string;
  /** The doer may merge: merge whitelist when enabled, else write access to code. */
  doerCanMerge: boolean;
  /** The doer may bypass the rule (repository admin with `block_admin_merge_override` off, or bypass allowlist). */
  doerCanBypass: boolean;
  requiredApprovals: number;
  /** Of `reviewerIds`, those whose approvals count. */
  officialReviewerIds: number[];
  blockOnRejectedReviews: boolean;
  blockOnOfficialReviewRequests: boolean;
  blockOnOutdatedBranch: boolean;
  dismissStaleApprovals: boolean;
  /** Required status checks: enabled, and whether the head's statuses satisfy them. */
  statusCheckEnabled: boolean;
  statusCheckContexts: string[];
  statusChecksPassed: boolean;
  /** 'success', 'pending', 'failure', 'error' or '' (no matching status): the required checks' combined state. */
  statusCheckState: string;
  /** Changed files matching the rule's protected file patterns (a merge is refused while any). */
  protectedFiles: string[];
}

/** body of `pulls.git.headRepo`: the repository `head` names, as the actor may read it. */
export interface PullHeadRepoRequest {
  baseRepoId: number;
  /** The owner of the head repository (a fork of the base, or the base itself). */
  owner: string;
  /** The head repository's name when given as `owner/repo:branch`; absent: the owner's fork of the base. */
  repo?: string;
}

/** body of `pulls.git.branchHead`. */
export interface PullBranchRequest {
  repoId: number;
  branch: string;
}

/**
 * The git side of pull requests, in repo-service: comparing, refs/pull/{index}/head, diffs,
 * merging with plumbing, and the protection facts of a merge. Callers have checked access.
 */
export const PullGitPatterns = definePatterns('repo', {
  /** body PullSides → PullGitState without writing anything (404 when a branch is missing). */
  inspect: 'pulls.git.inspect',
  /** body PullSyncRequest → (PullGitState | null)[]: writes refs/pull/{index}/head and recomputes. */
  sync: 'pulls.git.sync',
  /** body PullRangeRequest → RawText. */
  diff: 'pulls.git.diff',
  /** body PullRangeRequest → Page<ChangedFile>. */
  files: 'pulls.git.files',
  /** body PullRangeRequest → Page<Commit>. */
  commits: 'pulls.git.commits',
  /** body PullMergeRequest → PullMergeResult (errors: conflict 405, stale 409). */
  merge: 'pulls.git.merge',
  /** body PullUpdateRequest → { headSha } of the updated head branch. */
  update: 'pulls.git.update',
  /** body PullPolicyRequest → PullPolicy. */
  policy: 'pulls.git.policy',
  /** body PullHeadRepoRequest (with the actor) → RepoAccess of the head repository, 404 when unreadable or unrelated. */
  headRepo: 'pulls.git.headRepo',
  /** body PullBranchRequest → { sha } of the branch's tip, null when the branch (or its repository) is gone. */
  branchHead: 'pulls.git.branchHead',
  /** body PullHeadDeleteRequest → boolean: a merged pull's head branch deleted, as its merge's delete_branch_after_merge asks. */
  deleteHead: 'pulls.git.deleteHead',
});

/** body of `pulls.git.deleteHead`: the head branch goes only if it still holds `headSha`, the doer may write there and no rule protects it. */
export interface PullHeadDeleteRequest {
  headRepoId: number;
  headBranch: string;
  headSha: string;
  doerId: number;
}
