import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import type { Visibility } from '@gitforge/contracts';

/** Membership of a user in an organization. */
@Entity({ name: 'org_user' })
export class OrgUserEntity {
  @PrimaryColumn({ type: 'integer' })
  orgId!: number;

  @PrimaryColumn({ type: 'integer' })
  userId!: number;

  /** Shown in the organization's public member list. */
  @Column({ type: 'boolean', default: false })
  isPublic!: boolean;
}

@Entity({ name: 'team' })
export class TeamEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  orgId!: number;

  @Column({ type: 'varchar', length: 255 })
  lowerName!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  /** AccessMode of the team (4 = owner for the Owners team). */
  @Column({ type: 'integer' })
  accessMode!: number;

  @Column({ type: 'boolean', default: false })
  includesAllRepositories!: boolean;

  @Column({ type: 'boolean', default: false })
  canCreateOrgRepo!: boolean;

  @Column({ type: 'varchar', length: 10, default: 'public' })
  visibility!: Visibility;

  /** JSON map of unit name → access mode; empty map means every unit at `accessMode`. */
  @Column({ type: 'text', default: '{}' })
  units!: string;
}

@Entity({ name: 'team_user' })
export class TeamUserEntity {
  @PrimaryColumn({ type: 'integer' })
  teamId!: number;

  @PrimaryColumn({ type: 'integer' })
  userId!: number;

  @Column({ type: 'integer' })
  orgId!: number;
}

@Entity({ name: 'team_repo' })
export class TeamRepoEntity {
  @PrimaryColumn({ type: 'integer' })
  teamId!: number;

  @PrimaryColumn({ type: 'integer' })
  repoId!: number;

  @Column({ type: 'integer' })
  orgId!: number;
}

export const OWNER_TEAM_NAME = 'Owners';
