import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { AccessMode, forbidden, isPublicOnly, moved, notFound, type Actor, type OwnerAccess, type RepoMovedDetails } from '@gitforge/contracts';
import { chunksOf, Database, DirectoryClient } from '@gitforge/platform';
import type { RepositoryEntity } from '../records/repository.entity.js';
import { ReposRepository } from '../records/repos.repository.js';
import { TransfersRepository } from '../records/transfers.repository.js';
import { CollaborationEntity } from './collaboration.entity.js';
import { dependsOnCollaboration, resolveRepoPermission, type RepoPermission } from './repo-permission.js';

/** A repository with everything a handler needs about the actor's access to it. */
export interface RepoContext {
  repo: RepositoryEntity;
  owner: OwnerAccess;
  permission: RepoPermission;
}

/**
 * Gitea's repoAssignment: finds `{owner}/{repo}` and the actor's permission on it. An unknown
 * repository and one the actor may not see answer the same 404.
 */
@Injectable()
export class RepoAccessService {
  constructor(
    private readonly db: Database,
    private readonly repos: ReposRepository,
    private readonly transfers: TransfersRepository,
    private readonly directory: DirectoryClient,
  ) {}

  ownerAccess(actor: Actor | null, owner: { name?: string; id?: number }): Promise<OwnerAccess> {
    return this.directory.ownerAccess(actor, owner.id !== undefined ? { ownerId: owner.id } : { owner: owner.name ?? '' });
  }

  /**
   * The owner named in the request's path (`/users/{username}…`, `/orgs/{org}…`); an old login of a
   * renamed one answers `moved` (the gateway's 307, Gitea's RedirectToUser) to those who may see it.
   */
  ownerInPath(actor: Actor | null, name: string): Promise<OwnerAccess> {
    return this.directory.ownerInPath(actor, name);
  }

  async collaboratorMode(repoId: number, userId: number | undefined): Promise<number> {
    if (userId === undefined) return AccessMode.none;
    const row = await this.db.findOneBy(CollaborationEntity, { repoId, userId });
    return row?.mode ?? AccessMode.none;
  }

  /** The collaboration modes of several users in one repository (absent: none), in slices of a bounded size. */
  async collaboratorModes(repoId: number, userIds: number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (const ids of chunksOf(userIds)) {
      for (const row of await this.db.manager.find(CollaborationEntity, { where: { repoId, userId: In(ids) } })) out.set(row.userId, row.mode);
    }
    return out;
  }

  /**
   * What each of several users may do in one repository, as if signed in with a password: one
   * call to org-service and one read of the collaborations for the whole list. Unknown users and
   * organizations are left out; `active` is false for users who may not sign in.
   */
  async permissionsOfUsers(repo: RepositoryEntity, userIds: number[]): Promise<Array<{ userId: number; active: boolean; permission: RepoPermission }>> {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return [];
    const [base, users, modes] = await Promise.all([
      this.ownerAccess(null, { id: repo.ownerId }),
      this.directory.accessForUsers(repo.ownerId, ids),
      this.collaboratorModes(repo.id, ids),
    ]);
    return users.map((u) => {
      const owner: OwnerAccess = { ...base, visible: u.visible, isOrgOwner: u.isOrgOwner, isOrgMember: u.isOrgMember, teamAccess: u.teamAccess };
      const actor: Actor = { id: u.userId, login: '', isAdmin: u.isAdmin, scopes: null };
      return { userId: u.userId, active: u.isActive, permission: resolveRepoPermission(actor, owner, repo, modes.get(u.userId) ?? AccessMode.none) };
    });
  }

  async collaborationsOf(userId: number): Promise<CollaborationEntity[]> {
    return this.db.manager.find(CollaborationEntity, { where: { userId } });
  }

  async permissionFor(actor: Actor | null, owner: OwnerAccess, repo: RepositoryEntity): Promise<RepoPermission> {
    const mode = dependsOnCollaboration(actor, owner, repo) ? await this.collaboratorMode(repo.id, actor?.id) : AccessMode.none;
    return resolveRepoPermission(actor, owner, repo, mode);
  }

  /** What another user may do in a repository (as if signed in with a password). */
  async permissionOfUser(user: Actor, repo: RepositoryEntity): Promise<RepoPermission> {
    return this.permissionFor(user, await this.ownerAccess(user, { id: repo.ownerId }), repo);
  }

  /** The repository `repoId` and what the actor may do there; 404 when there is none. Callers decide on visibility. */
  async contextById(actor: Actor | null, repoId: number): Promise<RepoContext> {
    const repo = repoId ? await this.repos.findById(repoId) : null;
    if (!repo) throw notFound();
    const owner = await this.ownerAccess(actor, { id: repo.ownerId });
    return { repo, owner, permission: await this.permissionFor(actor, owner, repo) };
  }

  /**
   * The repository if the actor may see it; 404 otherwise. A public-only token then stops at a
   * private repository it could otherwise see (Gitea's checkTokenPublicOnly, 403). An old name of
   * a renamed or transferred repository answers `moved` (the gateway's 301, Gitea's
   * RedirectToRepo; 307 at an old owner name, RedirectToUser) to those who may see it where it is now, and the same 404 to everyone else.
   */
  async assign(actor: Actor | null, ownerName: string, repoName: string): Promise<RepoContext> {
    const owner = await this.ownerAccess(actor, { name: ownerName }).catch(async (err: unknown) => {
      if ((err as { code?: string }).code !== 'not_found') throw err;
      const target = await this.renamedOwnerRedirect(actor, ownerName, repoName);
      throw target && target !== 'hidden' ? moved({ ...target, owner_renamed: true }) : notFound();
    });
    const repo = await this.repos.findByOwnerAndName(owner.owner.id, repoName);
    if (!repo) {
      const target = await this.redirect(actor, owner, ownerName, repoName);
      throw target ? moved(target) : notFound();
    }
    const permission = await this.permissionFor(actor, owner, repo);
    if (!permission.canSee) throw notFound();
    if (repo.isPrivate && actor && isPublicOnly(actor.scopes)) throw forbidden('token scope is limited to public repos');
    return { repo, owner, permission };
  }

  /**
   * Where `{ownerName}/{repoName}` (no repository now) moved to, if it once named a repository the
   * actor may see (Gitea's LookupRedirect; unlike Gitea, a private repository's new place is not
   * told to those who may not see it). Null otherwise.
   */
  async redirect(actor: Actor | null, owner: OwnerAccess, ownerName: string, repoName: string): Promise<RepoMovedDetails | null> {
    const repoId = await this.transfers.redirectOf(owner.owner.id, repoName);
    const repo = repoId ? await this.repos.findById(repoId) : null;
    if (!repo) return null;
    const target = repo.ownerId === owner.owner.id ? owner : await this.ownerAccess(actor, { id: repo.ownerId });
    const permission = await this.permissionFor(actor, target, repo);
    if (!permission.canSee) return null;
    return { from_owner: ownerName, from_repo: repoName, to_owner: target.owner.login, to_repo: repo.name };
  }

  /**
   * Where `{ownerName}/{repoName}` moved to when `ownerName` is an old login of a renamed user or
   * organization (Gitea's LookupUserRedirect): the repository of that name there now, or the one
   * that name leads to there, if the actor may see it. 'hidden' when the login was renamed but
   * the actor may not see what it leads to; null when it was never a login.
   */
  async renamedOwnerRedirect(actor: Actor | null, ownerName: string, repoName: string): Promise<RepoMovedDetails | 'hidden' | null> {
    const account = await this.directory.renamedAccount(actor, ownerName);
    if (!account) return null;
    const owner = await this.ownerAccess(actor, { id: account.id });
    if (!owner.visible) return 'hidden';
    const repo = await this.repos.findByOwnerAndName(owner.owner.id, repoName);
    if (!repo) return (await this.redirect(actor, owner, ownerName, repoName)) ?? 'hidden';
    if (!(await this.permissionFor(actor, owner, repo)).canSee) return 'hidden';
    return { from_owner: ownerName, from_repo: repoName, to_owner: owner.owner.login, to_repo: repo.name };
  }
}
