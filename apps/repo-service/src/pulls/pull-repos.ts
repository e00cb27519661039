import { Injectable } from '@nestjs/common';
import { ContractError, notFound, type Actor } from '@gitforge/contracts';
import { PlatformConfig } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import type { PushContext } from '../protections/push-policy.js';
import { repoUrls, type RepoUrls } from '../repos/repo.mapper.js';
import { ReposRepository } from '../repos/repos.repository.js';

/**
 * The repositories of a pull by id, for the internal patterns (the caller has checked access):
 * their URLs, and the context in which a user's write is recorded as a push.
 */
@Injectable()
export class PullRepos {
  constructor(
    private readonly repos: ReposRepository,
    private readonly access: RepoAccessService,
    private readonly config: PlatformConfig,
  ) {}

  async urls(repoId: number): Promise<RepoUrls> {
    const repo = await this.repos.findById(repoId);
    if (!repo) throw notFound();
    const owner = await this.access.ownerAccess(null, { id: repo.ownerId });
    return repoUrls(this.config.rootUrl, owner.owner.login, repo.name);
  }

  /** The repository as `actor` acts on it: what PushesService needs to record a ref update. */
  async pushContext(repoId: number, actor: Actor): Promise<PushContext> {
    const repo = await this.repos.findById(repoId);
    if (!repo) throw notFound();
    if (repo.isArchived) throw new ContractError('locked', 'repo is archived');
    const owner = await this.access.ownerAccess(actor, { id: repo.ownerId });
    const permission = await this.access.permissionFor(actor, owner, repo);
    return { repo, owner, permission, actor };
  }
}
