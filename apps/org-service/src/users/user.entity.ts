import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';
import type { Visibility } from '@gitforge/contracts';

export const UserType = { individual: 0, organization: 1 } as const;

/**
 * An account: an individual user or an organization (Gitea keeps both in one table,
 * which also keeps their names unique together).
 */
@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  lowerName!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  fullName!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  email!: string;

  @Column({ type: 'boolean', default: false })
  keepEmailPrivate!: boolean;

  /** `scrypt$N$r$p$salt$hash`; null for organizations. */
  @Column({ type: 'text', nullable: true })
  passwordHash!: string | null;

  @Column({ type: 'boolean', default: false })
  mustChangePassword!: boolean;

  @Column({ type: 'integer', default: 0 })
  loginSource!: number;

  @Column({ type: 'varchar', length: 255, default: '' })
  loginName!: string;

  @Column({ type: 'integer', default: 0 })
  type!: number;

  @Column({ type: 'varchar', length: 255, default: '' })
  location!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  website!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  @Column({ type: 'varchar', length: 32, default: '' })
  language!: string;

  @Column({ type: 'varchar', length: 10, default: 'public' })
  visibility!: Visibility;

  @Column({ type: 'boolean', default: true })
  isActive!: boolean;

  @Column({ type: 'boolean', default: false })
  isAdmin!: boolean;

  @Column({ type: 'boolean', default: false })
  isRestricted!: boolean;

  @Column({ type: 'boolean', default: false })
  prohibitLogin!: boolean;

  @Column({ type: 'boolean', default: false })
  repoAdminChangeTeamAccess!: boolean;

  /** Gitea's UI theme; only stored and answered (`/user/settings`). */
  @Column({ type: 'varchar', length: 30, default: 'gitea-auto' })
  theme!: string;

  @Column({ type: 'varchar', length: 8, default: '' })
  diffViewStyle!: string;

  @Column({ type: 'boolean', default: false })
  keepActivityPrivate!: boolean;

  /** Gitea's CanCreateOrganization: site admins always, others unless restricted or refused this. */
  @Column({ type: 'boolean', default: true })
  allowCreateOrganization!: boolean;

  @Column({ type: 'integer', default: 0 })
  numFollowers!: number;

  @Column({ type: 'integer', default: 0 })
  numFollowing!: number;

  /** Counted by repo-service (the star rows live there) and sent with {@link starCountVersion}. */
  @Column({ type: 'integer', default: 0 })
  numStars!: number;

  @Column({ type: 'integer', default: 0 })
  starCountVersion!: number;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn()
  updatedAt!: Date;

  @TimestampColumn({ nullable: true })
  lastLoginAt!: Date | null;

  get isOrganization(): boolean {
    return this.type === UserType.organization;
  }
}

/** Gitea's CanCreateOrganization: site admins always, others unless restricted or refused this. */
export function canCreateOrganization(u: Pick<UserEntity, 'isAdmin' | 'isRestricted' | 'allowCreateOrganization'>): boolean {
  return u.isAdmin || (!u.isRestricted && u.allowCreateOrganization);
}
