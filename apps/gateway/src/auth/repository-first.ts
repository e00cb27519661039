import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { notFound, RepoFactPatterns, type Actor, type OwnerAccess, type RepoAccess } from '@gitforge/contracts';
import { DirectoryClient, RpcClient } from '@gitforge/platform';

/** The routes of one repository. */
const REPO_ROUTE = '/api/v1/repos/:owner/:repo';
/** The routes of one organization. */
const ORG_ROUTE = '/api/v1/orgs/:org';

/**
 * Gitea assigns the repository of a `/repos/{owner}/{repo}/…` route before any other check of the
 * request (its repoAssignment is the group's first middleware): a caller that cannot see the
 * repository (private, or none) gets its 404 before a missing token's 401 or a bad body's 422.
 * The gateway asks only when it is about to refuse the request itself; services check in
 * Gitea's order on their own.
 */
@Injectable()
export class RepositoryFirst {
  constructor(
    private readonly rpc: RpcClient,
    private readonly directory: DirectoryClient,
  ) {}

  /** Throws the repository's 404 when `actor` cannot see it, else answers their access; null on routes of no repository. */
  async assertVisible(request: FastifyRequest, actor: Actor | null): Promise<RepoAccess | null> {
    if (!request.routeOptions.url?.startsWith(REPO_ROUTE)) return null;
    const { owner, repo } = request.params as { owner: string; repo: string };
    return this.rpc.call<RepoAccess, { owner: string; repo: string }>(RepoFactPatterns.access, { actor, params: { owner, repo } });
  }

  /**
   * As {@link assertVisible} for `/orgs/{org}` routes, after Gitea's orgAssignment: the 404 of an
   * organization that does not exist (whether the actor may see it is the route's to say), else
   * the actor's access to it.
   */
  async assertOrgExists(request: FastifyRequest, actor: Actor | null): Promise<OwnerAccess | null> {
    if (!request.routeOptions.url?.startsWith(ORG_ROUTE)) return null;
    const { org } = request.params as { org: string };
    // An old name of a renamed organization redirects to the new one (Gitea's RedirectToUser), for those who may see it.
    const access = await this.directory.ownerInPath(actor, org);
    if (access.owner.kind !== 'organization') throw notFound();
    return access;
  }
}
