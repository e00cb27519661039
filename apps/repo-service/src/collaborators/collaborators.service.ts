import { Injectable } from '@nestjs/common';
import {
  AccessMode,
  accessModeName,
  ContractError,
  forbidden,
  notFound,
  pageOf,
  type AccountRef,
  type Actor,
  type AddCollaboratorOption,
  type ListOptions,
  type Page,
  type RepoCollaboratorPermission,
  type User,
  type UserRepoAccess,
  canBeAssigned,
  canBeRequestedToReview,
  isListedAssignee,
} from '@gitforge/contracts';
import { actorOf, Database, DirectoryClient, userDoesNotExist } from '@gitforge/platform';
import { RepoAccessService, type RepoContext } from '../access/repo-access.service.js';
import { enabledUnitModes } from '../access/repo-permission.js';
import { StarsRepository } from '../stars/stars.repository.js';
import { WatchesRepository } from '../watches/watches.repository.js';
import { CollaboratorsRepository } from './collaborators.repository.js';

/** Gitea's collaborator API (`routers/api/v1/repo/collaborators.go`). */
@Injectable()
export class CollaboratorsService {
  constructor(
    private readonly db: Database,
    private readonly collaborators: CollaboratorsRepository,
    private readonly access: RepoAccessService,
    private readonly directory: DirectoryClient,
    private readonly stars: StarsRepository,
    private readonly watches: WatchesRepository,
  ) {}

  private async assign(actor: Actor | null, owner: string, repo: string): Promise<{ actor: Actor; ctx: RepoContext }> {
    if (!actor) throw new ContractError('unauthenticated', 'token is required');
    return { actor, ctx: await this.access.assign(actor, owner, repo) };
  }

  private requireAdmin(ctx: RepoContext): void {
    if (!ctx.permission.isAdmin) throw forbidden('user should be an owner or a collaborator with admin write of a repository');
  }

  /** An individual user by name, or Gitea's `user does not exist` with the given error kind. */
  private async user(actor: Actor, name: string, missing: 'unprocessable' | 'not_found' = 'unprocessable'): Promise<AccountRef> {
    const [account] = await this.directory.accountsByNames(actor, [name]);
    if (!account || account.kind !== 'user') {
      const err = userDoesNotExist(name);
      throw missing === 'not_found' ? new ContractError('not_found', err.message) : err;
    }
    return account;
  }

  async list(actor: Actor | null, owner: string, repo: string, options: ListOptions): Promise<Page<User>> {
    const { actor: a, ctx } = await this.assign(actor, owner, repo);
    const [rows, total] = await this.collaborators.page(ctx.repo.id, options);
    const users = await this.directory.usersByIds(a, rows.map((r) => r.userId));
    const byId = new Map(users.map((u) => [u.id, u]));
    return pageOf(
      rows.map((r) => byId.get(r.userId)).filter((u): u is User => u !== undefined),
      total,
      options,
    );
  }

  /**
   * Gitea's GetRepoAssignees: the collaborators with write access, the members of the teams
   * reaching the repository who read its issues or pull requests, and its owner (a user), by
   * name, the owner last.
   */
  async assignees(actor: Actor | null, owner: string, repo: string): Promise<User[]> {
    const { actor: a, ctx } = await this.assign(actor, owner, repo);
    return this.candidates(a, ctx, AccessMode.write, isListedAssignee);
  }

  /**
   * Gitea's CheckRepoIssueAssignee: returns when `name` may be assigned issues and pull requests
   * of the repository (Gitea's CanBeAssigned); an unknown user or one who may not is 404, an
   * organization 400.
   */
  async checkAssignee(actor: Actor | null, owner: string, repo: string, name: string): Promise<void> {
    const { actor: a, ctx } = await this.assign(actor, owner, repo);
    const account = await this.directory.assigneeByName(a, name, ctx.repo.id);
    const [found] = await this.access.permissionsOfUsers(ctx.repo, [account.id]);
    const access = found && { userId: found.userId, active: found.active, units: enabledUnitModes(found.permission, ctx.repo.settings) };
    if (!canBeAssigned(access)) throw notFound();
  }

  /**
   * Gitea's GetReviewers (no pull request, so no poster to leave out): the collaborators, the
   * members of the teams reaching the repository and its owner (a user) who read pull requests.
   * Only those who may change review requests may ask (CanDoerChangeReviewRequests, 403).
   */
  async reviewers(actor: Actor | null, owner: string, repo: string): Promise<User[]> {
    const { actor: a, ctx } = await this.assign(actor, owner, repo);
    if (!(await this.mayRequestReviews(a, ctx))) throw forbidden('doer has no permission to get reviewers');
    return this.candidates(a, ctx, AccessMode.read, canBeRequestedToReview);
  }

  private async mayRequestReviews(actor: Actor, ctx: RepoContext): Promise<boolean> {
    if (ctx.repo.isArchived) return false;
    if (actor.id === ctx.repo.ownerId) return true;
    if ((await this.access.collaboratorMode(ctx.repo.id, actor.id)) > AccessMode.none) return true;
    if (ctx.owner.owner.kind !== 'organization') return false;
    const { all, repos } = ctx.owner.teamAccess;
    return [all, repos[String(ctx.repo.id)]].some((team) => team && Math.max(team.units['repo.pulls'] ?? 0, team.units['*'] ?? 0) >= AccessMode.read);
  }

  /** Collaborators (with at least `collaboratorMode`), team members and the owner that `eligible` keeps, one call each. */
  private async candidates(actor: Actor, ctx: RepoContext, collaboratorMode: number, eligible: (access: UserRepoAccess) => boolean): Promise<User[]> {
    const ownerIsUser = ctx.owner.owner.kind !== 'organization';
    const [collaborators, members] = await Promise.all([
      this.collaborators.userIds(ctx.repo.id, collaboratorMode),
      ownerIsUser ? Promise.resolve([]) : this.directory.teamMemberIdsOfRepo(ctx.repo.ownerId, ctx.repo.id),
    ]);
    const ids = [...new Set([...collaborators, ...members])].filter((id) => !(ownerIsUser && id === ctx.repo.ownerId));
    const permissions = await this.access.permissionsOfUsers(ctx.repo, ownerIsUser ? [...ids, ctx.repo.ownerId] : ids);
    const kept = new Set(
      permissions.filter((p) => eligible({ userId: p.userId, active: p.active, units: enabledUnitModes(p.permission, ctx.repo.settings) })).map((p) => p.userId),
    );
    const users = await this.directory.usersByIds(actor, [...kept]);
    // Gitea orders by name, then adds the owner of a user's repository at the end.
    const byName = users.filter((u) => !(ownerIsUser && u.id === ctx.repo.ownerId)).sort((x, y) => compareNames(x.login, y.login));
    const ownerUser = ownerIsUser ? users.find((u) => u.id === ctx.repo.ownerId) : undefined;
    return ownerUser ? [...byName, ownerUser] : byName;
  }

  async check(actor: Actor | null, owner: string, repo: string, name: string): Promise<void> {
    const { actor: a, ctx } = await this.assign(actor, owner, repo);
    const user = await this.user(a, name);
    if (!(await this.collaborators.find(ctx.repo.id, user.id))) throw notFound();
  }

  async add(actor: Actor | null, owner: string, repo: string, name: string, body: AddCollaboratorOption): Promise<void> {
    const { actor: a, ctx } = await this.assign(actor, owner, repo);
    this.requireAdmin(ctx);
    const user = await this.user(a, name);
    if (!user.isActive) throw new ContractError('unprocessable', "collaborator's account is inactive");
    const mode = { read: AccessMode.read, write: AccessMode.write, admin: AccessMode.admin }[body?.permission ?? 'write'];
    await this.db.transaction((m) => this.collaborators.upsert(m, ctx.repo.id, user.id, mode));
  }

  async remove(actor: Actor | null, owner: string, repo: string, name: string): Promise<void> {
    const { actor: a, ctx } = await this.assign(actor, owner, repo);
    this.requireAdmin(ctx);
    const user = await this.user(a, name);
    await this.db.transaction((m) => this.collaborators.delete(m, ctx.repo.id, user.id));
    // Gitea's reconsiderWatches: a user left without any access to the repository stops watching it.
    const [left] = await this.access.permissionsOfUsers(ctx.repo, [user.id]);
    if (!left?.permission.canSee) await this.db.transaction((m) => this.watches.remove(m, user.id, ctx.repo.id));
  }

  /** A user's access mode in the repository: site admins and repository admins may ask about anyone, others about themselves. */
  /**
   * A user is being deleted (org-service asks first, as Gitea's DeleteUser removes its
   * collaborations, stars and watches, and counts the repositories' stars and watchers again).
   */
  async removeUser(actor: Actor | null, userId: number): Promise<void> {
    if (!actor?.isAdmin) throw forbidden('user should be the site admin');
    await this.db.transaction(async (m) => {
      await this.collaborators.deleteOfUser(m, userId);
      await this.stars.removeAllOfUser(m, userId);
      await this.watches.removeAllOfUser(m, userId);
    });
  }

  async permission(actor: Actor | null, owner: string, repo: string, name: string): Promise<RepoCollaboratorPermission> {
    const { actor: a, ctx } = await this.assign(actor, owner, repo);
    if (!a.isAdmin && a.login.toLowerCase() !== name.toLowerCase() && !ctx.permission.isAdmin) {
      throw forbidden('Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own');
    }
    const user = await this.user(a, name, 'not_found');
    const permission = await this.access.permissionOfUser(actorOf(user), ctx.repo);
    const mode = accessModeName(permission.mode);
    return { permission: mode, role_name: mode, user: user.user };
  }
}

/** By login, ignoring case. */
function compareNames(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}
