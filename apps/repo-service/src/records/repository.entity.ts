import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn, TimestampColumn } from '@gitforge/platform';

/** Per-repository switches (units and merge settings), stored as JSON. */
export interface RepoSettings {
  has_code: boolean;
  has_issues: boolean;
  has_wiki: boolean;
  has_pull_requests: boolean;
  has_projects: boolean;
  has_releases: boolean;
  has_packages: boolean;
  has_actions: boolean;
  ignore_whitespace_conflicts: boolean;
  allow_merge_commits: boolean;
  allow_rebase: boolean;
  allow_rebase_explicit: boolean;
  allow_squash_merge: boolean;
  allow_fast_forward_only_merge: boolean;
  allow_rebase_update: boolean;
  allow_manual_merge: boolean;
  autodetect_manual_merge: boolean;
  allow_merge_update: boolean;
  default_delete_branch_after_merge: boolean;
  default_allow_maintainer_edit: boolean;
  default_merge_style: string;
  default_update_style: string;
  projects_mode: string;
  /** InternalTracker (rows written before these keys existed read as Gitea's defaults). */
  enable_time_tracker?: boolean;
  allow_only_contributors_to_track_time?: boolean;
  enable_issue_dependencies?: boolean;
}

/** The issue tracker's settings, Gitea's defaults where a row has none. */
export function trackerSettings(s: RepoSettings): { enable_time_tracker: boolean; allow_only_contributors_to_track_time: boolean; enable_issue_dependencies: boolean } {
  return {
    enable_time_tracker: s.enable_time_tracker ?? true,
    allow_only_contributors_to_track_time: s.allow_only_contributors_to_track_time ?? true,
    enable_issue_dependencies: s.enable_issue_dependencies ?? true,
  };
}

/** Gitea's defaults for a new repository: every unit on, every merge style allowed. */
export const DEFAULT_REPO_SETTINGS: RepoSettings = {
  has_code: true,
  has_issues: true,
  has_wiki: true,
  has_pull_requests: true,
  has_projects: true,
  has_releases: true,
  has_packages: true,
  has_actions: true,
  ignore_whitespace_conflicts: false,
  allow_merge_commits: true,
  allow_rebase: true,
  allow_rebase_explicit: true,
  allow_squash_merge: true,
  allow_fast_forward_only_merge: true,
  allow_rebase_update: true,
  allow_manual_merge: false,
  autodetect_manual_merge: false,
  allow_merge_update: true,
  default_delete_branch_after_merge: false,
  default_allow_maintainer_edit: true,
  default_merge_style: 'merge',
  default_update_style: 'merge',
  projects_mode: 'all',
  enable_time_tracker: true,
  allow_only_contributors_to_track_time: true,
  enable_issue_dependencies: true,
};

/** Gitea's RepositoryStatus values that gitforge uses. */
export const RepositoryStatus = { ready: 0, pendingTransfer: 2 } as const;

@Entity({ name: 'repository' })
export class RepositoryEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  ownerId!: number;

  /**
   * The owner's login as last known (Gitea's repository.owner_name): repository search matches
   * `owner/name` keywords and sorts alphabetically by it. Set at creation and transfer, and
   * followed on renames ({@link OwnerNamesKeeper}).
   */
  @Column({ type: 'varchar', length: 255, default: '' })
  ownerName!: string;

  @Column({ type: 'varchar', length: 255 })
  lowerName!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  @Column({ type: 'varchar', length: 1024, default: '' })
  website!: string;

  @Column({ type: 'varchar', length: 255 })
  defaultBranch!: string;

  @Column({ type: 'boolean', default: false })
  isPrivate!: boolean;

  @Column({ type: 'boolean', default: true })
  isEmpty!: boolean;

  @Column({ type: 'boolean', default: false })
  isArchived!: boolean;

  @TimestampColumn({ nullable: true })
  archivedAt!: Date | null;

  @Column({ type: 'boolean', default: false })
  isMirror!: boolean;

  @Column({ type: 'boolean', default: false })
  isFork!: boolean;

  @Column({ type: 'integer', nullable: true })
  forkId!: number | null;

  @Column({ type: 'boolean', default: false })
  isTemplate!: boolean;

  /** KiB on disk. */
  @BigIntColumn({ default: 0 })
  sizeKib!: number;

  @Column({ type: 'integer', default: 0 })
  numBranches!: number;

  @Column({ type: 'integer', default: 0 })
  numStars!: number;

  @Column({ type: 'integer', default: 0 })
  numForks!: number;

  @Column({ type: 'integer', default: 0 })
  numWatches!: number;

  @Column({ type: 'integer', default: 0 })
  numOpenIssues!: number;

  @Column({ type: 'integer', default: 0 })
  numOpenPulls!: number;

  /** The RepoIssueCounters version the open counts above come from; older ones are ignored. */
  @Column({ type: 'integer', default: 0 })
  issueCountersVersion!: number;

  @Column({ type: 'integer', default: 0 })
  numReleases!: number;

  /** {@link RepositoryStatus}: whether a transfer waits for its recipient (a row in `repo_transfer`). */
  @Column({ type: 'integer', default: RepositoryStatus.ready })
  status!: number;

  @Column({ type: 'varchar', length: 10, default: 'sha1' })
  objectFormat!: 'sha1' | 'sha256';

  @Column({ type: 'simple-json' })
  settings!: RepoSettings;

  @Column({ type: 'simple-json' })
  topics!: string[];

  /** The licenses of the default branch's license file (SPDX ids, sorted), as Gitea's repo_license rows. */
  @Column({ type: 'simple-json', default: '[]' })
  licenses!: string[];

  /** The blob id of the license file {@link licenses} describes ('' for none): a push that leaves it alone is not read again. */
  @Column({ type: 'varchar', length: 64, default: '' })
  licenseBlob!: string;

  /** The largest language of the default branch's statistics (Gitea's PrimaryLanguage), '' for none. */
  @Column({ type: 'varchar', length: 64, default: '' })
  primaryLanguage!: string;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn()
  updatedAt!: Date;
}
