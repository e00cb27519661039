import { Injectable } from '@nestjs/common';
import { notFound, pageOf, type Actor, type ListOptions, type Page, type Repository, type User } from '@gitforge/contracts';
import { Database, DirectoryClient } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import { RepoSearchService } from '../repos/repo-search.service.js';
import { StarCounts } from './star-counts.js';
import { StarsRepository } from './stars.repository.js';
import { listedUserId, requireActor } from './user-lookup.js';

/**
 * Stars (Gitea's StarRepo and the `/user/starred` routes). Any repository the actor can see may be
 * starred; Gitea sends no webhook and writes no feed entry for a star, and neither do we.
 */
@Injectable()
export class StarsService {
  constructor(
    private readonly db: Database,
    private readonly access: RepoAccessService,
    private readonly stars: StarsRepository,
    private readonly search: RepoSearchService,
    private readonly directory: DirectoryClient,
    private readonly counts: StarCounts,
  ) {}

  async star(actor: Actor | null, owner: string, repo: string): Promise<void> {
    const a = requireActor(actor);
    const ctx = await this.access.assign(a, owner, repo);
    await this.counts.publish([await this.db.transaction((m) => this.stars.add(m, a.id, ctx.repo.id))]);
  }

  async unstar(actor: Actor | null, owner: string, repo: string): Promise<void> {
    const a = requireActor(actor);
    const ctx = await this.access.assign(a, owner, repo);
    await this.counts.publish([await this.db.transaction((m) => this.stars.remove(m, a.id, ctx.repo.id))]);
  }

  /** Nothing when the actor stars the repository; 404 when it does not (Gitea's IsStarring). */
  async check(actor: Actor | null, owner: string, repo: string): Promise<void> {
    const a = requireActor(actor);
    const ctx = await this.access.assign(a, owner, repo);
    if (!(await this.stars.has(a.id, ctx.repo.id))) throw notFound();
  }

  async listForUser(actor: Actor | null, username: string | undefined, options: ListOptions): Promise<Page<Repository>> {
    const userId = await listedUserId(this.access, actor, username);
    return this.search.ofUser(actor, userId, 'starredBy', options);
  }

  async stargazers(actor: Actor | null, owner: string, repo: string, options: ListOptions): Promise<Page<User>> {
    const ctx = await this.access.assign(actor, owner, repo);
    const [ids, total] = await this.stars.stargazers(ctx.repo.id, options);
    const users = new Map((await this.directory.usersByIds(actor, ids)).map((u) => [u.id, u]));
    return pageOf(ids.map((id) => users.get(id)).filter((u): u is User => u !== undefined), total, options);
  }
}
