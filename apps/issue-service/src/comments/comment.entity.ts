import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/**
 * One row of an issue's history (Gitea's comment table): a plain comment, or an event such as a
 * close or reopen, told apart by `type` (CommentType).
 */
@Entity({ name: 'comment' })
@Index('idx_comment_issue_created', ['issueId', 'createdAt'])
@Index('idx_comment_dependent_issue', ['dependentIssueId'])
@Index('idx_comment_ref_issue', ['refIssueId', 'refCommentId'])
export class CommentEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer', default: 0 })
  type!: number;

  @Column({ type: 'integer' })
  issueId!: number;

  @Column({ type: 'integer' })
  posterId!: number;

  @Column({ type: 'varchar', length: 255, default: '' })
  originalAuthor!: string;

  @Column({ type: 'integer', default: 0 })
  originalAuthorId!: number;

  @Column({ type: 'text', default: '' })
  content!: string;

  @Column({ type: 'integer', default: 0 })
  contentVersion!: number;

  /** The label added or removed (`label`); the content says which ("1" added). */
  @Column({ type: 'integer', default: 0 })
  labelId!: number;

  /** The milestone before and after (`milestone`), 0 for none. */
  @Column({ type: 'integer', default: 0 })
  oldMilestoneId!: number;

  @Column({ type: 'integer', default: 0 })
  milestoneId!: number;

  /** The user assigned or unassigned (`assignees`). */
  @Column({ type: 'integer', default: 0 })
  assigneeId!: number;

  @Column({ type: 'boolean', default: false })
  removedAssignee!: boolean;

  /** The team asked for a review (`review_request`). */
  @Column({ type: 'integer', default: 0 })
  assigneeTeamId!: number;

  /** The title before and after (`change_title`). */
  @Column({ type: 'varchar', length: 255, default: '' })
  oldTitle!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  newTitle!: string;

  /** The branch or tag before and after (`change_issue_ref`). */
  @Column({ type: 'varchar', length: 255, default: '' })
  oldRef!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  newRef!: string;

  /** The issue at the other end of a dependency (`add_dependency`, `remove_dependency`). */
  @Column({ type: 'integer', default: 0 })
  dependentIssueId!: number;

  /** Review comments (`code`): their review, file, line (negative: the base side), commit and diff hunk. */
  @Column({ type: 'integer', default: 0 })
  reviewId!: number;

  @Column({ type: 'varchar', length: 4096, default: '' })
  treePath!: string;

  @Column({ type: 'integer', default: 0 })
  line!: number;

  @Column({ type: 'varchar', length: 64, default: '' })
  commitSha!: string;

  @Column({ type: 'text', default: '' })
  patch!: string;

  @Column({ type: 'integer', default: 0 })
  resolveDoerId!: number;

  /**
   * A cross reference (`issue_ref`, `comment_ref`, `pull_ref`): the repository, issue and comment
   * (0 for the issue's own title and body) whose text named this row's issue, what it said to
   * do (XRefAction: none, closes, reopens, or neutered once the text no longer says it), and
   * whether that issue is a pull.
   */
  @Column({ type: 'integer', default: 0 })
  refRepoId!: number;

  @Column({ type: 'integer', default: 0 })
  refIssueId!: number;

  @Column({ type: 'integer', default: 0 })
  refCommentId!: number;

  @Column({ type: 'integer', default: 0 })
  refAction!: number;

  @Column({ type: 'boolean', default: false })
  refIsPull!: boolean;

  /** The tracked time an add_time_manual or stop_tracking row made (Gitea's TimeID). */
  @Column({ type: 'integer', default: 0 })
  timeId!: number;

  /** The line changed since the comment was made. */
  @Column({ type: 'boolean', default: false })
  invalidated!: boolean;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn()
  updatedAt!: Date;
}
