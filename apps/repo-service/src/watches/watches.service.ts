import { Injectable } from '@nestjs/common';
import { formatTime, notFound, pageOf, type Actor, type ListOptions, type Page, type Repository, type User, type WatchInfo } from '@gitforge/contracts';
import { Database, DirectoryClient, PlatformConfig } from '@gitforge/platform';
import { RepoAccessService, type RepoContext } from '../access/repo-access.service.js';
import { repoUrls } from '../repos/repo.mapper.js';
import { RepoSearchService } from '../repos/repo-search.service.js';
import { listedUserId, requireActor } from '../stars/user-lookup.js';
import { WatchesRepository } from './watches.repository.js';

/**
 * Watches (Gitea's WatchRepo and the subscription routes). Watchers are who repository
 * notifications reach; a new repository's creator watches it from the start (AutoWatchNewRepos).
 */
@Injectable()
export class WatchesService {
  constructor(
    private readonly db: Database,
    private readonly access: RepoAccessService,
    private readonly watches: WatchesRepository,
    private readonly search: RepoSearchService,
    private readonly directory: DirectoryClient,
    private readonly config: PlatformConfig,
  ) {}

  /** Gitea answers the repository's creation time as `created_at`, whenever the watch began. */
  private info(ctx: RepoContext): WatchInfo {
    const api = repoUrls(this.config, ctx.owner.owner.login, ctx.repo.name).api;
    return { subscribed: true, ignored: false, reason: null, created_at: formatTime(ctx.repo.createdAt), url: `${api}/subscription`, repository_url: api };
  }

  async watch(actor: Actor | null, owner: string, repo: string): Promise<WatchInfo> {
    const a = requireActor(actor);
    const ctx = await this.access.assign(a, owner, repo);
    await this.db.transaction((m) => this.watches.add(m, a.id, ctx.repo.id));
    return this.info(ctx);
  }

  async unwatch(actor: Actor | null, owner: string, repo: string): Promise<void> {
    const a = requireActor(actor);
    const ctx = await this.access.assign(a, owner, repo);
    await this.db.transaction((m) => this.watches.remove(m, a.id, ctx.repo.id));
  }

  async get(actor: Actor | null, owner: string, repo: string): Promise<WatchInfo> {
    const a = requireActor(actor);
    const ctx = await this.access.assign(a, owner, repo);
    if (!(await this.watches.has(a.id, ctx.repo.id))) throw notFound();
    return this.info(ctx);
  }

  async listForUser(actor: Actor | null, username: string | undefined, options: ListOptions): Promise<Page<Repository>> {
    const userId = await listedUserId(this.access, actor, username);
    return this.search.ofUser(actor, userId, 'watchedBy', options);
  }

  isWatching(repoId: number, userId: number): Promise<boolean> {
    return this.watches.has(userId, repoId);
  }

  async subscribers(actor: Actor | null, owner: string, repo: string, options: ListOptions): Promise<Page<User>> {
    const ctx = await this.access.assign(actor, owner, repo);
    const [ids, total] = await this.watches.subscribers(ctx.repo.id, options);
    const users = new Map((await this.directory.usersByIds(actor, ids)).map((u) => [u.id, u]));
    return pageOf(ids.map((id) => users.get(id)).filter((u): u is User => u !== undefined), total, options);
  }
}
