import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Per repository: the last issue number handed out (issues and pulls share the sequence) and
 * the counts, recounted in every transaction that changes them. Updating this row first
 * serialises those transactions per repository, so numbers are never repeated and counts
 * never drift; `version` orders the counts sent to repo-service.
 */
@Entity({ name: 'issue_counter' })
export class IssueCounterEntity {
  @PrimaryColumn({ type: 'integer' })
  repoId!: number;

  @Column({ type: 'integer', default: 0 })
  lastIndex!: number;

  @Column({ type: 'integer', default: 0 })
  numIssues!: number;

  @Column({ type: 'integer', default: 0 })
  numClosedIssues!: number;

  @Column({ type: 'integer', default: 0 })
  numPulls!: number;

  @Column({ type: 'integer', default: 0 })
  numClosedPulls!: number;

  @Column({ type: 'integer', default: 0 })
  version!: number;
}
