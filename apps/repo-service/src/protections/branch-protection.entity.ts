import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** A branch protection rule (Gitea's protected_branch): a branch name or a glob, and what it allows. */
@Entity({ name: 'protected_branch' })
export class BranchProtectionEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  repoId!: number;

  @Column({ type: 'varchar', length: 255 })
  ruleName!: string;

  /** Lower first when several globs match. */
  @Column({ type: 'integer', default: 0 })
  priority!: number;

  /** Direct pushes are allowed at all (`enable_push`). */
  @Column({ type: 'boolean', default: false })
  canPush!: boolean;

  /** Only the push allowlist may push (`enable_push_whitelist`). */
  @Column({ type: 'boolean', default: false })
  enableWhitelist!: boolean;

  @Column({ type: 'simple-json' })
  whitelistUserIds!: number[];

  @Column({ type: 'simple-json' })
  whitelistTeamIds!: number[];

  @Column({ type: 'boolean', default: false })
  whitelistDeployKeys!: boolean;

  @Column({ type: 'boolean', default: false })
  canForcePush!: boolean;

  @Column({ type: 'boolean', default: false })
  enableForcePushAllowlist!: boolean;

  @Column({ type: 'simple-json' })
  forcePushAllowlistUserIds!: number[];

  @Column({ type: 'simple-json' })
  forcePushAllowlistTeamIds!: number[];

  @Column({ type: 'boolean', default: false })
  forcePushAllowlistDeployKeys!: boolean;

  @Column({ type: 'boolean', default: false })
  enableMergeWhitelist!: boolean;

  @Column({ type: 'simple-json' })
  mergeWhitelistUserIds!: number[];

  @Column({ type: 'simple-json' })
  mergeWhitelistTeamIds!: number[];

  @Column({ type: 'boolean', default: false })
  enableBypassAllowlist!: boolean;

  @Column({ type: 'simple-json' })
  bypassAllowlistUserIds!: number[];

  @Column({ type: 'simple-json' })
  bypassAllowlistTeamIds!: number[];

  @Column({ type: 'boolean', default: false })
  enableStatusCheck!: boolean;

  @Column({ type: 'simple-json' })
  statusCheckContexts!: string[];

  @Column({ type: 'boolean', default: false })
  enableApprovalsWhitelist!: boolean;

  @Column({ type: 'simple-json' })
  approvalsWhitelistUserIds!: number[];

  @Column({ type: 'simple-json' })
  approvalsWhitelistTeamIds!: number[];

  @Column({ type: 'integer', default: 0 })
  requiredApprovals!: number;

  @Column({ type: 'boolean', default: false })
  blockOnRejectedReviews!: boolean;

  @Column({ type: 'boolean', default: false })
  blockOnOfficialReviewRequests!: boolean;

  @Column({ type: 'boolean', default: false })
  blockOnOutdatedBranch!: boolean;

  @Column({ type: 'boolean', default: false })
  dismissStaleApprovals!: boolean;

  @Column({ type: 'boolean', default: false })
  ignoreStaleApprovals!: boolean;

  @Column({ type: 'boolean', default: false })
  requireSignedCommits!: boolean;

  /** `;`-separated globs of files only allowed changes through pull requests. */
  @Column({ type: 'text', default: '' })
  protectedFilePatterns!: string;

  /** `;`-separated globs of files anyone with write access may change directly. */
  @Column({ type: 'text', default: '' })
  unprotectedFilePatterns!: string;

  @Column({ type: 'boolean', default: false })
  blockAdminMergeOverride!: boolean;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn()
  updatedAt!: Date;
}
