import { Injectable } from '@nestjs/common';
import { ContractError, type Actor } from '@gitforge/contracts';
import { PlatformConfig } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import type { PushContext } from '../protections/push-policy.js';
import { repoUrls, type RepoUrls } from '../repos/repo.mapper.js';

/**
 * The repositories of a pull by id, for the internal patterns (the caller has checked access):
 * their URLs, and the context in which a user's write is recorded as a push.
 */
@Injectable()
export class PullRepos {
  constructor(
    private readonly access: RepoAccessService,
    private readonly config: PlatformConfig,
  ) {}

  async urls(repoId: number): Promise<RepoUrls> {
    const { repo, owner } = await this.access.contextById(null, repoId);
    return repoUrls(this.config, owner.owner.login, repo.name);
  }

  /** The repository as `actor` acts on it: what PushesService needs to record a ref update. */
  async pushContext(repoId: number, actor: Actor): Promise<PushContext> {
    const ctx = await this.context(repoId, actor);
    if (ctx.repo.isArchived) throw new ContractError('locked', 'repo is archived');
    return ctx;
  }

  /** The repository as `actor` acts on it, archived or not (what they may do there is for its permission to say). */
  async context(repoId: number, actor: Actor): Promise<PushContext> {
    return { ...(await this.access.contextById(actor, repoId)), actor };
  }
}
