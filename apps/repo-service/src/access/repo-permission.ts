import { AccessMode, RepoUnitKeys, type Actor, type OwnerAccess, type Permission, type RepoUnitKey, type TeamRepoAccess } from '@gitforge/contracts';
import type { RepoSettings } from '../records/repository.entity.js';

/** Repository units (Gitea's unit names). */
export type RepoUnit =
  | 'repo.code'
  | 'repo.issues'
  | 'repo.pulls'
  | 'repo.releases'
  | 'repo.wiki'
  | 'repo.projects'
  | 'repo.packages'
  | 'repo.actions'
  | 'repo.ext_issues'
  | 'repo.ext_wiki';

/** What one actor may do in one repository. */
export class RepoPermission {
  constructor(
    /** The overall AccessMode. */
    readonly mode: number,
    /** Per-unit modes when teams restrict units; otherwise every unit has `mode`. */
    private readonly units: Record<string, number> | null = null,
    /**
     * The actor owns the repository, collaborates on it or is in a team of its organization that
     * reaches its code (Gitea's IsOwnerMemberCollaborator, which decides who may open pulls on it).
     */
    readonly member = false,
  ) {}

  unitMode(unit: RepoUnit): number {
    if (this.mode >= AccessMode.admin || this.units === null) return this.mode;
    return Math.max(this.units[unit] ?? 0, this.units['*'] ?? 0);
  }

  canRead(unit: RepoUnit = 'repo.code'): boolean {
    return this.unitMode(unit) >= AccessMode.read;
  }

  canWrite(unit: RepoUnit = 'repo.code'): boolean {
    return this.unitMode(unit) >= AccessMode.write;
  }

  get isAdmin(): boolean {
    return this.mode >= AccessMode.admin;
  }

  get isOwner(): boolean {
    return this.mode >= AccessMode.owner;
  }

  /** Any access at all (Gitea's HasAnyUnitAccessOrPublicAccess): otherwise the repository is hidden (404). */
  get canSee(): boolean {
    return this.mode >= AccessMode.read || (this.units !== null && Object.values(this.units).some((m) => m >= AccessMode.read));
  }

  toApi(): Permission {
    return { admin: this.isAdmin, push: this.canWrite('repo.code'), pull: this.canRead('repo.code') };
  }

  static readonly none = new RepoPermission(AccessMode.none);
}

export interface RepoFacts {
  id: number;
  ownerId: number;
  isPrivate: boolean;
}

/**
 * The single answer to "what may this actor do in this repository", after Gitea's
 * GetUserRepoPermission: site admins and owners have everything; strangers see nothing of an
 * owner they may not see (unless they collaborate); public repositories are readable; team and
 * collaborator grants add to that, unit by unit. An Actions task's token (Gitea's
 * GetActionsUserRepoPermission) reaches its own repository only, every unit with write (read for
 * a pull request from a fork), and no other repository, public or private: Gitea grants other
 * repositories only to tasks of owners a repository names as collaborative, which gitforge has not.
 */
export function resolveRepoPermission(
  actor: Actor | null,
  owner: OwnerAccess,
  repo: RepoFacts,
  collaboratorMode: number,
): RepoPermission {
  if (actor?.actionsTask) {
    if (actor.actionsTask.repoId !== repo.id) return RepoPermission.none;
    return new RepoPermission(actor.actionsTask.readOnly ? AccessMode.read : AccessMode.write);
  }
  if (actor?.isAdmin) return new RepoPermission(AccessMode.owner, null, true);
  if (actor && actor.id === repo.ownerId) return new RepoPermission(AccessMode.owner, null, true);
  if (!owner.visible && collaboratorMode === AccessMode.none) return RepoPermission.none;
  // Organization owners are in its Owners team, which reaches every repository's code.
  if (owner.owner.kind === 'organization' && owner.isOrgOwner) return new RepoPermission(AccessMode.owner, null, true);
  const base = repo.isPrivate ? AccessMode.none : AccessMode.read;
  const collaborates = collaboratorMode !== AccessMode.none;
  const team = combine(owner.teamAccess.all, owner.teamAccess.repos[String(repo.id)] ?? null);
  if (!team) return new RepoPermission(Math.max(base, collaboratorMode), null, collaborates);
  const floor = Math.max(base, collaboratorMode);
  const units: Record<string, number> = {};
  for (const [unit, mode] of Object.entries(team.units)) units[unit] = Math.max(mode, floor);
  units['*'] = Math.max(units['*'] ?? 0, floor);
  return new RepoPermission(Math.max(team.mode, floor), units, collaborates || team.units['repo.code'] !== undefined || team.units['*'] !== undefined);
}

/**
 * Whether {@link resolveRepoPermission} reads the actor's collaboration at all: not for anonymous
 * callers, Actions tasks, site admins, the repository's owner or an owner of its organization,
 * whose permission does not depend on it (hot reads then skip the query).
 */
export function dependsOnCollaboration(actor: Actor | null, owner: OwnerAccess, repo: RepoFacts): boolean {
  if (!actor || actor.actionsTask || actor.isAdmin || actor.id === repo.ownerId) return false;
  return !(owner.owner.kind === 'organization' && owner.isOrgOwner && owner.visible);
}

function combine(a: TeamRepoAccess | null, b: TeamRepoAccess | null): TeamRepoAccess | null {
  if (!a) return b;
  if (!b) return a;
  const units: Record<string, number> = { ...a.units };
  for (const [unit, mode] of Object.entries(b.units)) units[unit] = Math.max(units[unit] ?? 0, mode);
  return { mode: Math.max(a.mode, b.mode), units };
}

/** Every unit's mode, as other services read a permission (UserRepoAccess, RepoAccess). */
export function unitModes(permission: RepoPermission): Record<RepoUnitKey, number> {
  return Object.fromEntries(RepoUnitKeys.map((unit) => [unit, permission.unitMode(unit)])) as Record<RepoUnitKey, number>;
}

/** The switch of each unit a repository can turn off (the external tracker and wiki have none of their own). */
const UNIT_SWITCHES: Partial<Record<RepoUnitKey, keyof RepoSettings>> = {
  'repo.code': 'has_code',
  'repo.issues': 'has_issues',
  'repo.pulls': 'has_pull_requests',
  'repo.releases': 'has_releases',
  'repo.wiki': 'has_wiki',
  'repo.projects': 'has_projects',
  'repo.packages': 'has_packages',
  'repo.actions': 'has_actions',
};

/**
 * What a user may do unit by unit where the repository has the unit on (Gitea's
 * Permission.UnitAccessMode: a unit switched off gives nobody any access): the
 * UserRepoAccess of assignee and reviewer checks.
 */
export function enabledUnitModes(permission: RepoPermission, settings: RepoSettings): Record<RepoUnitKey, number> {
  const modes = unitModes(permission);
  for (const [unit, key] of Object.entries(UNIT_SWITCHES) as Array<[RepoUnitKey, keyof RepoSettings]>) if (settings[key] === false) modes[unit] = 0;
  return modes;
}
