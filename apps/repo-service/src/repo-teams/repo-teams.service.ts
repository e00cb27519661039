import { Injectable } from '@nestjs/common';
import {
  ContractError,
  forbidden,
  TeamPatterns,
  type Actor,
  type OwnerAccess,
  type RepoTeamLink,
  type RepoTeamRequest,
  type Team,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { RepoAccessService, type RepoContext } from '../access/repo-access.service.js';

/**
 * Gitea's CanChangeRepoTeamAccess for a repository administrator: site admins and organization
 * owners always, other repository administrators only when the organization lets them.
 */
export function canChangeRepoTeamAccess(actor: Actor, owner: OwnerAccess): boolean {
  return actor.isAdmin || owner.isOrgOwner || owner.organization?.repo_admin_change_team_access === true;
}

/**
 * `/repos/{owner}/{repo}/teams` (Gitea's routers/api/v1/repo/teams.go). This service decides who may
 * ask (the repository must be visible, then a token, then admin rights for changes); the teams
 * themselves are org-service's, asked through TeamPatterns' `forRepo` patterns.
 */
@Injectable()
export class RepoTeamsService {
  constructor(
    private readonly access: RepoAccessService,
    private readonly rpc: RpcClient,
  ) {}

  /** repoAssignment (404) before reqToken (401), then 405 for a repository no organization owns. */
  private async context(actor: Actor | null, owner: string, repo: string): Promise<{ actor: Actor; ctx: RepoContext }> {
    const ctx = await this.access.assign(actor, owner, repo);
    if (!actor) throw new ContractError('unauthenticated', 'token is required');
    return { actor, ctx };
  }

  private requireOrgOwned(ctx: RepoContext): number {
    if (ctx.owner.owner.kind !== 'organization') throw new ContractError('method_not_allowed', 'repo is not owned by an organization');
    return ctx.owner.owner.id;
  }

  private ask<R>(pattern: string, actor: Actor, body: RepoTeamRequest): Promise<R> {
    return this.rpc.call<R, Record<string, string>, RepoTeamRequest>(pattern, { actor, body });
  }

  async list(actor: Actor | null, owner: string, repo: string): Promise<Team[]> {
    const { actor: a, ctx } = await this.context(actor, owner, repo);
    const orgId = this.requireOrgOwned(ctx);
    return this.ask<Team[]>(TeamPatterns.listForRepo, a, { orgId, repoId: ctx.repo.id });
  }

  /** The team when it reaches the repository; 404 otherwise. */
  async get(actor: Actor | null, owner: string, repo: string, team: string): Promise<Team> {
    const { actor: a, ctx } = await this.context(actor, owner, repo);
    const orgId = this.requireOrgOwned(ctx);
    const found = await this.ask<RepoTeamLink>(TeamPatterns.getForRepo, a, { orgId, repoId: ctx.repo.id, team });
    if (!found.linked) throw new ContractError('not_found', 'not found');
    return found.team;
  }

  /**
   * Gitea's changeRepoTeam: repository administrators only (reqAdmin), on an organization's
   * repository, and only if they may manage team access (CanChangeRepoTeamAccess: site admins
   * and organization owners always, repository administrators when the organization lets them).
   */
  async change(actor: Actor | null, owner: string, repo: string, team: string, link: boolean): Promise<void> {
    const { actor: a, ctx } = await this.context(actor, owner, repo);
    if (!ctx.permission.isAdmin) throw forbidden('user should be an owner or a collaborator with admin write of a repository');
    const orgId = this.requireOrgOwned(ctx);
    if (!canChangeRepoTeamAccess(a, ctx.owner)) throw forbidden('Must have permission to manage team repository access');
    await this.ask<void>(TeamPatterns.linkRepo, a, { orgId, repoId: ctx.repo.id, team, link });
  }
}
