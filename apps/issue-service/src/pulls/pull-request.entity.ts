import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/**
 * The pull request side of an issue (Gitea's pull_request table): its two branches, what the
 * last mergeability check found, and how it was merged. The issue row holds title, body, state.
 */
@Entity({ name: 'pull_request' })
@Index('uq_pull_request_issue', ['issueId'], { unique: true })
@Index('idx_pull_request_base', ['baseRepoId', 'baseBranch'])
@Index('idx_pull_request_head', ['headRepoId', 'headBranch'])
export class PullRequestEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  issueId!: number;

  /** The issue's number, kept here so refs/pull/{index}/head is named without the issue row. */
  @Column({ type: 'integer' })
  idx!: number;

  @Column({ type: 'integer' })
  baseRepoId!: number;

  @Column({ type: 'varchar', length: 255 })
  baseBranch!: string;

  /** 0 once the head repository is deleted. */
  @Column({ type: 'integer' })
  headRepoId!: number;

  @Column({ type: 'varchar', length: 255 })
  headBranch!: string;

  /** The head commit (refs/pull/{index}/head). */
  @Column({ type: 'varchar', length: 64, default: '' })
  headSha!: string;

  /** The base branch's tip at the last check. */
  @Column({ type: 'varchar', length: 64, default: '' })
  baseSha!: string;

  @Column({ type: 'varchar', length: 64, default: '' })
  mergeBase!: string;

  /** PullStatus. */
  @Column({ type: 'integer', default: 1 })
  status!: number;

  /** JSON array of paths. */
  @Column({ type: 'text', default: '[]' })
  conflictedFiles!: string;

  @Column({ type: 'integer', default: 0 })
  commitsAhead!: number;

  @Column({ type: 'integer', default: 0 })
  commitsBehind!: number;

  @Column({ type: 'integer', default: 0 })
  additions!: number;

  @Column({ type: 'integer', default: 0 })
  deletions!: number;

  @Column({ type: 'integer', default: 0 })
  changedFiles!: number;

  @Column({ type: 'boolean', default: false })
  allowMaintainerEdit!: boolean;

  @Column({ type: 'boolean', default: false })
  hasMerged!: boolean;

  /**
   * The head branch was deleted (after a merge, say) and not pushed again: the pull shows its own
   * ref, refs/pull/{index}/head, as Gitea does when it finds no branch.
   */
  @Column({ type: 'boolean', default: false })
  headBranchDeleted!: boolean;

  @Column({ type: 'varchar', length: 64, default: '' })
  mergedCommitId!: string;

  @Column({ type: 'integer', default: 0 })
  mergerId!: number;

  @TimestampColumn({ nullable: true })
  mergedAt!: Date | null;
}

/** A merge scheduled for when the required checks succeed (Gitea's pull_auto_merge). */
@Entity({ name: 'pull_auto_merge' })
@Index('uq_pull_auto_merge_pull', ['pullId'], { unique: true })
export class PullAutoMergeEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  pullId!: number;

  @Column({ type: 'integer' })
  doerId!: number;

  @Column({ type: 'varchar', length: 32 })
  mergeStyle!: string;

  @Column({ type: 'text', default: '' })
  message!: string;

  @Column({ type: 'boolean', default: false })
  deleteBranchAfterMerge!: boolean;

  @TimestampColumn()
  createdAt!: Date;
}
