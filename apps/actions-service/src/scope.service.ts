import { Injectable } from '@nestjs/common';
import {
  ContractError,
  forbidden,
  notFound,
  RepoFactPatterns,
  requireSiteAdmin,
  type Actor,
  type ActionsScope,
  type RepoAccess,
} from '@gitforge/contracts';
import { DirectoryClient, RpcClient } from '@gitforge/platform';

/** What an actions route addresses once its permission is checked. */
export interface ResolvedScope {
  kind: ActionsScope['kind'];
  /** 0 for a repository's or the site's resources. */
  ownerId: number;
  /** 0 unless the scope is a repository. */
  repoId: number;
  /** The repository of a repo scope, as the caller sees it. */
  repo: RepoAccess | null;
}

/** What the caller must be allowed: read runs, write (cancel, rerun, dispatch), or manage (runners, variables, secrets). */
export type ActionsNeed = 'read' | 'write' | 'admin';

/**
 * Gitea's checks on the actions routes, in its order: the repository or organization must be
 * visible (404), then the caller must own, administer or write to it (403); /admin routes are for
 * site administrators; /user routes are the caller's own. Writes to an archived repository are 423.
 */
@Injectable()
export class ScopeService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly directory: DirectoryClient,
  ) {}

  async resolve(actor: Actor | null, scope: ActionsScope, need: ActionsNeed): Promise<ResolvedScope> {
    switch (scope.kind) {
      case 'admin':
        requireSiteAdmin(actor);
        return { kind: 'admin', ownerId: 0, repoId: 0, repo: null };
      case 'user':
        if (!actor) throw new ContractError('unauthenticated', 'token is required');
        return { kind: 'user', ownerId: actor.id, repoId: 0, repo: null };
      case 'org': {
        if (!actor) throw new ContractError('unauthenticated', 'token is required');
        const owner = await this.directory.ownerInPath(actor, scope.org, notFound());
        if (owner.owner.kind !== 'organization' || !owner.visible) throw notFound();
        if (!actor.isAdmin && !owner.isOrgOwner) throw forbidden('Must be an organization owner');
        return { kind: 'org', ownerId: owner.owner.id, repoId: 0, repo: null };
      }
      case 'repo': {
        const repo = await this.rpc.call<RepoAccess, { owner: string; repo: string }>(RepoFactPatterns.access, {
          actor,
          params: { owner: scope.owner, repo: scope.repo },
        });
        // Gitea's reqRepoReader/reqRepoWriter(TypeActions): with the unit off, only admins pass.
        const mode = repo.settings.has_actions ? (repo.units['repo.actions'] ?? 0) : 0;
        if (need === 'admin') {
          // Gitea's reqOwner: a repository's runners, variables and secrets are its owners' (site admins too), not its admin collaborators'.
          if (!actor) throw new ContractError('unauthenticated', 'token is required');
          if (!repo.isOwner) throw forbidden('user should be the owner of the repo');
        } else if (need === 'write') {
          if (!actor) throw new ContractError('unauthenticated', 'token is required');
          if (mode < 2 && !repo.isAdmin) throw forbidden('user should have a permission to write to a repo');
          if (repo.isArchived) throw new ContractError('locked', 'repo is archived');
        } else if (mode < 1 && !repo.isAdmin) {
          throw forbidden('user should have specific read permission or be a repo admin or a site admin');
        }
        return { kind: 'repo', ownerId: 0, repoId: repo.id, repo };
      }
    }
  }
}
