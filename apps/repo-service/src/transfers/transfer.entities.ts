import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** Gitea's RepoTransfer: a transfer waiting for its recipient (one per repository at most). */
@Entity({ name: 'repo_transfer' })
export class RepoTransferEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer', unique: true })
  repoId!: number;

  @Column({ type: 'integer' })
  doerId!: number;

  @Column({ type: 'integer' })
  recipientId!: number;

  /** Teams of the recipient organization that get the repository on acceptance. */
  @Column({ type: 'simple-json' })
  teamIds!: number[];

  @TimestampColumn()
  createdAt!: Date;
}

/**
 * Gitea's repo_redirect: `{owner}/{lower_name}` once named the repository `redirectRepoId` (before a
 * rename or a transfer). A repository that takes that name again ends the redirect.
 */
@Entity({ name: 'repo_redirect' })
export class RepoRedirectEntity {
  @PrimaryColumn({ type: 'integer' })
  ownerId!: number;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  lowerName!: string;

  @Column({ type: 'integer' })
  redirectRepoId!: number;
}
