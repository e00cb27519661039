import { Injectable } from '@nestjs/common';
import {
  AccessMode,
  invalid,
  isPublicOnly,
  notFound,
  type Actor,
  type HookCommit,
  type OwnerAccess,
  type PullHeadRepoRequest,
  type RepoAccess,
  type RepoIssueCounters,
  type Repository,
  type UserRepoAccess,
  type NotificationAudienceRequest,
} from '@gitforge/contracts';
import { Database, DirectoryClient, PlatformConfig } from '@gitforge/platform';
import { WatchesRepository } from '../watches/watches.repository.js';
import { RepoAccessService } from '../access/repo-access.service.js';
import { enabledUnitModes, RepoPermission, resolveRepoPermission, unitModes } from '../access/repo-permission.js';
import { toRepository } from '../repos/repo.mapper.js';
import { RepoSearchService } from '../repos/repo-search.service.js';
import { ReposRepository } from '../records/repos.repository.js';
import { ReposService } from '../repos/repos.service.js';
import { trackerSettings, type RepositoryEntity } from '../records/repository.entity.js';
import { HookCommitReader } from './hook-commit.reader.js';

/** How far Gitea's FindHeadRepo follows a fork network (maxForkTraverseLevel). */
const MAX_FORK_LEVELS = 10;

/** The view a service's own work takes of a repository (RepoFactsService.many's `asOwner`). */
const AS_OWNER = new RepoPermission(AccessMode.owner);

/** Answers other services' questions about repositories and the caller's access to them. */
@Injectable()
export class RepoFactsService {
  constructor(
    private readonly access: RepoAccessService,
    private readonly repos: ReposRepository,
    private readonly commits: HookCommitReader,
    private readonly directory: DirectoryClient,
    private readonly config: PlatformConfig,
    private readonly db: Database,
    private readonly search: RepoSearchService,
    private readonly reposService: ReposService,
    private readonly watches: WatchesRepository,
  ) {}

  private toAccess(repo: RepositoryEntity, owner: OwnerAccess, permission: RepoPermission, parents: Map<number, Repository>): RepoAccess {
    return {
      id: repo.id,
      name: repo.name,
      ownerId: owner.owner.id,
      ownerLogin: owner.owner.login,
      isPrivate: repo.isPrivate,
      isEmpty: repo.isEmpty,
      defaultBranch: repo.defaultBranch,
      permission: permission.toApi(),
      repository: toRepository(repo, owner.ownerUser, permission, this.config, (repo.forkId && parents.get(repo.forkId)) || null),
      isArchived: repo.isArchived,
      isMirror: repo.isMirror,
      ownerKind: owner.owner.kind,
      units: unitModes(permission),
      isAdmin: permission.isAdmin,
      isOwner: permission.isOwner,
      isMember: permission.member,
      settings: {
        has_issues: repo.settings.has_issues,
        has_pull_requests: repo.settings.has_pull_requests,
        has_projects: repo.settings.has_projects,
        has_actions: repo.settings.has_actions,
        ...trackerSettings(repo.settings),
      },
    };
  }

  /** What each of `userIds` may do in the repository (as if signed in with a password); unknown users are left out. */
  async usersAccess(repoId: number, userIds: number[]): Promise<UserRepoAccess[]> {
    const repo = await this.repos.findById(repoId);
    if (!repo || userIds.length === 0) return [];
    const access = await this.access.permissionsOfUsers(repo, userIds);
    return access.map((a) => ({ userId: a.userId, active: a.active, units: enabledUnitModes(a.permission, repo.settings) }));
  }

  /**
   * Who a notification about the repository reaches: the users given, and its watchers when asked,
   * who may sign in and read the unit (switched on); never one call per user.
   */
  async notificationAudience(request: NotificationAudienceRequest): Promise<number[]> {
    const repo = await this.repos.findById(request.repoId);
    if (!repo) return [];
    if (request.unit === 'repo.issues' && !repo.settings.has_issues) return [];
    if (request.unit === 'repo.pulls' && !repo.settings.has_pull_requests) return [];
    const candidates = request.withWatchers ? [...request.userIds, ...(await this.watches.watcherIds(repo.id))] : request.userIds;
    const access = await this.access.permissionsOfUsers(repo, candidates);
    const unit = request.unit;
    return access.filter((a) => a.active && (unit === null || a.permission.canRead(unit))).map((a) => a.userId);
  }

  /** The repositories an actor reaches whose `unit` it can read (issue search), with their access. */
  async reachable(actor: Actor | null, scope: { owner?: string; team?: string }): Promise<RepoAccess[]> {
    return this.many(actor, await this.search.reachableIds(actor, scope));
  }

  async setIssueCounters(counters: RepoIssueCounters): Promise<void> {
    await this.db.transaction((m) => this.repos.setIssueCounters(m, counters));
  }

  /** One repository the actor can see (404 otherwise), with its permission. */
  async one(actor: Actor | null, ownerName: string, repoName: string): Promise<RepoAccess> {
    const ctx = await this.access.assign(actor, ownerName, repoName);
    return this.toAccess(ctx.repo, ctx.owner, ctx.permission, await this.reposService.parentViews(actor, [ctx.repo]));
  }

  /**
   * The head repository of a pull request as the actor may read it (Gitea's GetHeadOwnerAndRepo):
   * without a name, the base itself when `owner` owns it, else the owner's repository in the base's
   * fork network (findHeadRepo), 400 when there is none; with a name, the owner's repository of
   * that name when it is in the base's fork network (Gitea takes any; one outside the network has
   * nothing to compare). An unknown owner, any other named repository, and a head whose code the
   * actor may not read are the same 404.
   */
  async headRepo(actor: Actor | null, request: PullHeadRepoRequest): Promise<RepoAccess> {
    const base = await this.repos.findById(request.baseRepoId);
    if (!base) throw notFound();
    const owner = await this.access.ownerAccess(actor, { name: request.owner }).catch((err: unknown) => {
      throw (err as { code?: string }).code === 'not_found' ? notFound() : err;
    });
    let head: RepositoryEntity | null = null;
    if (request.repo) {
      const named = await this.repos.findByOwnerAndName(owner.owner.id, request.repo);
      if (named && (named.id === base.id || (await this.networkRoot(named)).id === (await this.networkRoot(base)).id)) head = named;
    } else if (owner.owner.id === base.ownerId) {
      head = base;
    } else {
      head = await this.findHeadRepo(base, owner.owner.id);
      if (!head) throw invalid(`the user ${owner.owner.login} does not have a fork of the base repository`);
    }
    if (!head) throw notFound();
    const permission = await this.access.permissionFor(actor, owner, head);
    if (!permission.canRead('repo.code') || (head.isPrivate && actor && isPublicOnly(actor.scopes))) throw notFound();
    return this.toAccess(head, owner, permission, await this.reposService.parentViews(actor, [head]));
  }

  /** A fork's parent, its parent, and so on (up to Gitea's traverse limit), nearest first. */
  private async ancestors(repo: RepositoryEntity): Promise<RepositoryEntity[]> {
    const found: RepositoryEntity[] = [];
    for (let at = repo; at.isFork && at.forkId && found.length < MAX_FORK_LEVELS; ) {
      const parent = await this.repos.findById(at.forkId);
      if (!parent) break;
      found.push(parent);
      at = parent;
    }
    return found;
  }

  /** The repository a fork network grows from: the furthest ancestor (itself for a repository that is no fork). */
  private async networkRoot(repo: RepositoryEntity): Promise<RepositoryEntity> {
    return (await this.ancestors(repo)).at(-1) ?? repo;
  }

  /**
   * Gitea's FindHeadRepo: the closest ancestor of the base that `ownerId` owns; else, from the root
   * of the network, the first repository `ownerId` owns among the forks, searched depth first
   * down to ten levels (a sibling fork, a fork of a fork).
   */
  private async findHeadRepo(base: RepositoryEntity, ownerId: number): Promise<RepositoryEntity | null> {
    const ancestors = await this.ancestors(base);
    const owned = ancestors.find((a) => a.ownerId === ownerId);
    if (owned) return owned;
    const search = async (repo: RepositoryEntity, level: number): Promise<RepositoryEntity | null> => {
      if (level === 0) return null;
      const own = await this.repos.findForkOf(repo.id, ownerId);
      if (own) return own;
      for (const fork of await this.repos.findForks(repo.id)) {
        const found = await search(fork, level - 1);
        if (found) return found;
      }
      return null;
    };
    return search(ancestors.at(-1) ?? base, MAX_FORK_LEVELS);
  }

  /**
   * The repositories among `ids` that exist and the actor can see (a public-only token sees no
   * private one). `asOwner`: every one that exists, as its owner sees it, for a service's own work
   * on them (pull sync, closing pulls), never for a caller.
   */
  async many(actor: Actor | null, ids: number[], asOwner = false): Promise<RepoAccess[]> {
    const rows = await this.repos.findByIds([...new Set(ids)]);
    if (rows.length === 0) return [];
    const owners = await this.directory.ownersAccess(actor, [...new Set(rows.map((r) => r.ownerId))]);
    const [collaborations, parents] = await Promise.all([actor ? this.access.collaborationsOf(actor.id) : [], this.reposService.parentViews(actor, rows)]);
    const result: RepoAccess[] = [];
    for (const repo of rows) {
      const owner = owners.find((o) => o.owner.id === repo.ownerId);
      if (!owner) continue;
      if (asOwner) {
        result.push(this.toAccess(repo, owner, AS_OWNER, parents));
        continue;
      }
      const mode = collaborations.find((c) => c.repoId === repo.id)?.mode ?? AccessMode.none;
      const permission = resolveRepoPermission(actor, owner, repo, mode);
      if (permission.canSee && !(repo.isPrivate && actor && isPublicOnly(actor.scopes))) result.push(this.toAccess(repo, owner, permission, parents));
    }
    return result;
  }

  /**
   * The commit a test delivery shows: `ref` (default: the default branch), null for an empty
   * repository; a ref that names nothing is Gitea's 404 (RepoRefForAPI). The repository is shown
   * as Gitea's TestHook builds it, with no access (all permissions false, the owner as to anyone).
   */
  async hookCommit(actor: Actor | null, ownerName: string, repoName: string, ref: string | undefined): Promise<HookCommit> {
    const ctx = await this.access.assign(actor, ownerName, repoName);
    // Its owner too as anyone sees them (ToUserWithAccessMode with no access): no real e-mail.
    const repository = toRepository(ctx.repo, await this.directory.publicUser(ctx.repo.ownerId), new RepoPermission(AccessMode.none), this.config);
    const fullRef = ref ? ref : `refs/heads/${ctx.repo.defaultBranch}`;
    if (ctx.repo.isEmpty) return { repository, ref: fullRef, commit: null };
    const sha = await this.commits.resolve(ctx.repo.id, ref ? ref : ctx.repo.defaultBranch, ctx.repo.objectFormat);
    const commit = sha ? await this.commits.read(actor, ctx.repo.id, sha, repository.html_url) : null;
    if (!commit) throw notFound('unable to find a git ref');
    return { repository, ref: fullRef, commit };
  }
}
