import { Injectable } from '@nestjs/common';
import { ContractError, forbidden, type Actor } from '@gitforge/contracts';
import { RepoAccessService, type RepoContext } from '../access/repo-access.service.js';
import type { BranchProtectionEntity } from './branch-protection.entity.js';
import { mentionedIds, type NameLookup } from './protection.mapper.js';
import type { TagProtectionEntity } from './tag-protection.entity.js';
import { DirectoryClient } from '@gitforge/platform';

/**
 * What the protection endpoints share: Gitea's `reqToken` + `reqAdmin` (+ `mustNotBeArchived`
 * for writes), and turning the ids a rule stores back into names for a response.
 */
@Injectable()
export class ProtectionAccess {
  constructor(
    private readonly access: RepoAccessService,
    private readonly directory: DirectoryClient,
  ) {}

  async admin(actor: Actor | null, owner: string, repo: string, options: { write?: boolean } = {}): Promise<{ actor: Actor; ctx: RepoContext }> {
    if (!actor) throw new ContractError('unauthenticated', 'token is required');
    const ctx = await this.access.assign(actor, owner, repo);
    if (!ctx.permission.isAdmin) throw forbidden('user should be an owner or a collaborator with admin write of a repository');
    if (options.write && ctx.repo.isArchived) throw new ContractError('locked', 'repo is archived');
    return { actor, ctx };
  }

  async names(actor: Actor, ctx: RepoContext, rows: Array<TagProtectionEntity | BranchProtectionEntity>): Promise<NameLookup> {
    const ids = mentionedIds(rows);
    const [users, teams] = await Promise.all([
      this.directory.accountsByIds(actor, ids.users),
      ctx.owner.owner.kind === 'organization' ? this.directory.teams(ctx.owner.owner.id, { ids: ids.teams }) : Promise.resolve([]),
    ]);
    return { users: new Map(users.map((u) => [u.id, u.login])), teams: new Map(teams.map((t) => [t.id, t.name])) };
  }

  /** Team ids for names, only for organizations (a user's repository has no teams: names are ignored, as Gitea does). */
  async teamIds(ctx: RepoContext, names: string[] | undefined): Promise<number[]> {
    if (!names || names.length === 0 || ctx.owner.owner.kind !== 'organization') return [];
    return (await this.directory.requireTeams(ctx.owner.owner.id, names)).map((t) => t.id);
  }
}
