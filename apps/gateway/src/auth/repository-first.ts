import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import {
  ContractError,
  DirectoryPatterns,
  notFound,
  OrgPatterns,
  ownerMoved,
  RepoFactPatterns,
  type AccountRef,
  type Actor,
  type OwnerAccess,
  type RepoAccess,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';

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
  constructor(private readonly rpc: RpcClient) {}

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
    const access = await this.rpc.call<OwnerAccess, Record<string, string>, { owner: string }>(OrgPatterns.access, { actor, body: { owner: org } }).catch(async (err: unknown) => {
      if (!(err instanceof ContractError && err.code === 'not_found')) throw err;
      // An old name of a renamed organization is Gitea's redirect to the new one (RedirectToUser), for those who may see it.
      const renamed = await this.rpc.call<AccountRef | null, Record<string, string>, { name: string }>(DirectoryPatterns.renamedAccount, { actor, body: { name: org } });
      throw renamed ? ownerMoved({ from_owner: org, to_owner: renamed.login }) : err;
    });
    if (access.owner.kind !== 'organization') throw notFound();
    return access;
  }
}
