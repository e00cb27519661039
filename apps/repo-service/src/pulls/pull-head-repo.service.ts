import { Injectable } from '@nestjs/common';
import { notFound, type Actor, type PullHeadRepoRequest, type RepoAccess } from '@gitforge/contracts';
import { RepoAccessService } from '../access/repo-access.service.js';
import { RepoFactsService } from '../facts/repo-facts.service.js';
import { ReposRepository } from '../repos/repos.repository.js';
import type { RepositoryEntity } from '../repos/repository.entity.js';

/** How far up a fork chain is followed to find its root (forks of forks are rare and shallow). */
const MAX_FORK_DEPTH = 32;

/**
 * The repository a pull's `head` names (Gitea's parseCompareInfo): the base itself for its own
 * owner, else that owner's fork of the base, else the base's parent when they own it; with
 * `owner/repo:branch` the named repository, when it is in the base's fork network. 404 when the
 * actor cannot read its code.
 */
@Injectable()
export class PullHeadRepoService {
  constructor(
    private readonly repos: ReposRepository,
    private readonly access: RepoAccessService,
    private readonly facts: RepoFactsService,
  ) {}

  async headRepo(actor: Actor | null, req: PullHeadRepoRequest): Promise<RepoAccess> {
    const base = await this.repos.findById(req.baseRepoId);
    if (!base) throw notFound();
    const owner = await this.access.ownerAccess(actor, { name: req.owner }).catch((err: unknown) => {
      throw (err as { code?: string }).code === 'not_found' ? notFound() : err;
    });
    const ownerId = owner.owner.id;
    let head: RepositoryEntity | null = null;
    if (req.repo) {
      const named = await this.repos.findByOwnerAndName(ownerId, req.repo);
      if (named && (await this.root(named)) === (await this.root(base))) head = named;
    } else if (ownerId === base.ownerId) {
      head = base;
    } else {
      head = await this.repos.findFork(ownerId, base.id);
      if (!head && base.forkId) {
        const parent = await this.repos.findById(base.forkId);
        if (parent?.ownerId === ownerId) head = parent;
      }
    }
    if (!head) throw notFound();
    const found = await this.facts.one(actor, owner.owner.login, head.name);
    if (!found.permission.pull) throw notFound();
    return found;
  }

  /** The first repository of a fork chain. */
  private async root(repo: RepositoryEntity): Promise<number> {
    let current = repo;
    for (let depth = 0; current.forkId && depth < MAX_FORK_DEPTH; depth++) {
      const parent = await this.repos.findById(current.forkId);
      if (!parent) break;
      current = parent;
    }
    return current.id;
  }
}
