import { formatTime, formatTimestamp, type Repository, type RepoTransfer, type User } from '@gitforge/contracts';
import type { RepoPermission } from '../access/repo-permission.js';
import { trackerSettings, type RepositoryEntity } from '../records/repository.entity.js';

export interface RepoUrls {
  html: string;
  clone: string;
  ssh: string;
  api: string;
}

/** The public addresses repositories are reached at (PlatformConfig has them). */
export interface PublicBase {
  rootUrl: string;
  sshUrlBase: string;
}

export function repoUrls(base: PublicBase, ownerLogin: string, name: string): RepoUrls {
  const { rootUrl } = base;
  return {
    html: `${rootUrl}${ownerLogin}/${name}`,
    clone: `${rootUrl}${ownerLogin}/${name}.git`,
    ssh: `${base.sshUrlBase}${ownerLogin}/${name}.git`,
    api: `${rootUrl}api/v1/repos/${ownerLogin}/${name}`,
  };
}

/** Gitea's convert.ToRepo: the repository as the given actor sees it. */
export function toRepository(
  r: RepositoryEntity,
  owner: User,
  permission: RepoPermission,
  base: PublicBase,
  parent: Repository | null = null,
  transfer: RepoTransfer | null = null,
): Repository {
  const s = r.settings;
  // The pull request settings while the unit is on, Gitea's fixed answer while it is off.
  const p = s.has_pull_requests ? s : PULL_UNIT_OFF;
  const urls = repoUrls(base, owner.login, r.name);
  return {
    id: r.id,
    owner,
    name: r.name,
    full_name: `${owner.login}/${r.name}`,
    description: r.description,
    empty: r.isEmpty,
    private: r.isPrivate,
    fork: r.isFork,
    template: r.isTemplate,
    ...(parent ? { parent } : {}),
    mirror: r.isMirror,
    size: r.sizeKib,
    language: r.primaryLanguage,
    languages_url: `${urls.api}/languages`,
    html_url: urls.html,
    url: urls.api,
    link: '',
    ssh_url: urls.ssh,
    clone_url: urls.clone,
    original_url: '',
    website: r.website,
    stars_count: r.numStars,
    forks_count: r.numForks,
    watchers_count: r.numWatches,
    open_issues_count: r.numOpenIssues,
    open_pr_counter: r.numOpenPulls,
    release_counter: r.numReleases,
    default_branch: r.defaultBranch,
    archived: r.isArchived,
    created_at: formatTime(r.createdAt),
    updated_at: formatTime(r.updatedAt),
    archived_at: formatTimestamp(r.archivedAt),
    permissions: permission.toApi(),
    has_code: s.has_code,
    has_issues: s.has_issues,
    ...(s.has_issues ? { internal_tracker: trackerSettings(s) } : {}),
    has_wiki: s.has_wiki,
    has_pull_requests: s.has_pull_requests,
    has_projects: s.has_projects,
    // Gitea's default mode while the projects unit is off.
    projects_mode: s.has_projects ? s.projects_mode : 'all',
    has_releases: s.has_releases,
    has_packages: s.has_packages,
    has_actions: s.has_actions,
    ignore_whitespace_conflicts: p.ignore_whitespace_conflicts,
    allow_merge_commits: p.allow_merge_commits,
    allow_rebase: p.allow_rebase,
    allow_rebase_explicit: p.allow_rebase_explicit,
    allow_squash_merge: p.allow_squash_merge,
    allow_fast_forward_only_merge: p.allow_fast_forward_only_merge,
    allow_rebase_update: p.allow_rebase_update,
    allow_manual_merge: p.allow_manual_merge,
    autodetect_manual_merge: p.autodetect_manual_merge,
    allow_merge_update: p.allow_merge_update,
    default_delete_branch_after_merge: p.default_delete_branch_after_merge,
    default_merge_style: p.default_merge_style,
    default_update_style: p.default_update_style,
    default_allow_maintainer_edit: p.default_allow_maintainer_edit,
    avatar_url: '',
    internal: !r.isPrivate && owner.visibility === 'private',
    mirror_interval: '',
    mirror_updated: formatTime(null),
    mirror_last_sync_at: formatTime(null),
    object_format_name: r.objectFormat,
    topics: r.topics,
    licenses: r.licenses,
    branch_count: r.numBranches,
    ...(transfer ? { repo_transfer: transfer } : {}),
  };
}

/** The pull request settings the Repository shows. */
type PullSettings = Pick<
  Repository,
  | 'ignore_whitespace_conflicts'
  | 'allow_merge_commits'
  | 'allow_rebase'
  | 'allow_rebase_explicit'
  | 'allow_squash_merge'
  | 'allow_fast_forward_only_merge'
  | 'allow_rebase_update'
  | 'allow_manual_merge'
  | 'autodetect_manual_merge'
  | 'allow_merge_update'
  | 'default_delete_branch_after_merge'
  | 'default_merge_style'
  | 'default_update_style'
  | 'default_allow_maintainer_edit'
>;

/** What Gitea's innerToRepo shows while the pull request unit is off: no style allowed, manual merges only. */
const PULL_UNIT_OFF: PullSettings = {
  ignore_whitespace_conflicts: false,
  allow_merge_commits: false,
  allow_rebase: false,
  allow_rebase_explicit: false,
  allow_squash_merge: false,
  allow_fast_forward_only_merge: false,
  allow_rebase_update: false,
  allow_manual_merge: true,
  autodetect_manual_merge: false,
  allow_merge_update: false,
  default_delete_branch_after_merge: false,
  default_merge_style: 'merge',
  default_update_style: 'merge',
  default_allow_maintainer_edit: false,
};
