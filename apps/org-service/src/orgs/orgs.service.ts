import { Injectable } from '@nestjs/common';
import {
  AccessMode,
  ContractError,
  EventNames,
  forbidden,
  notFound,
  ownerNameProblem,
  unprocessable,
  type Actor,
  type CreateOrgOption,
  type Organization,
  type OwnerAccess,
  type ReachableRepos,
  type TeamRepoAccess,
} from '@gitforge/contracts';
import { Database, OutboxService, PlatformConfig } from '@gitforge/platform';
import { UserEntity, UserType } from '../users/user.entity.js';
import { toOrganization, toUser } from '../users/user.mapper.js';
import { UsersRepository } from '../users/users.repository.js';
import { UsersService } from '../users/users.service.js';
import type { TeamEntity } from './org.entities.js';
import { OrgsRepository } from './orgs.repository.js';

@Injectable()
export class OrgsService {
  constructor(
    private readonly db: Database,
    private readonly users: UsersRepository,
    private readonly usersService: UsersService,
    private readonly orgs: OrgsRepository,
    private readonly outbox: OutboxService,
    private readonly config: PlatformConfig,
  ) {}

  async create(actor: Actor | null, body: CreateOrgOption): Promise<Organization> {
    if (!actor) throw new ContractError('unauthenticated', 'token is required');
    const creator = await this.users.findById(actor.id);
    if (!creator || creator.isRestricted) throw forbidden('Create organization not allowed');
    const problem = ownerNameProblem(body.username);
    if (problem) throw unprocessable(problem);
    const id = await this.db.transaction(async (m) => {
      if (await this.users.findByName(body.username, m)) throw unprocessable(`user already exists [name: ${body.username}]`);
      const now = new Date();
      const org = await this.users.insert(m, {
        lowerName: body.username.toLowerCase(),
        name: body.username,
        fullName: body.full_name ?? '',
        email: body.email ?? '',
        description: body.description ?? '',
        website: body.website ?? '',
        location: body.location ?? '',
        visibility: body.visibility || 'public',
        repoAdminChangeTeamAccess: body.repo_admin_change_team_access ?? false,
        type: UserType.organization,
        isActive: true,
        createdAt: now,
        updatedAt: now,
      });
      await this.orgs.createWithOwner(m, org.id, creator.id);
      await this.outbox.add(
        m,
        EventNames.orgCreated,
        { organization: toOrganization(org, this.config.rootUrl), sender: toUser(creator, null, this.config.rootUrl) },
        { actor },
      );
      return org.id;
    });
    return toOrganization((await this.users.findById(id))!, this.config.rootUrl);
  }

  async get(actor: Actor | null, name: string): Promise<Organization> {
    const org = await this.findVisibleOrg(actor, name);
    return toOrganization(org, this.config.rootUrl);
  }

  private async findVisibleOrg(actor: Actor | null, name: string): Promise<UserEntity> {
    const org = await this.users.findByName(name);
    if (!org || !org.isOrganization || !(await this.usersService.isVisibleTo(org, actor))) {
      throw notFound(`GetOrgByName [${name}]`);
    }
    return org;
  }

  /**
   * How the actor relates to an owner (by name or id) and, for an organization, what its teams
   * give it: one call per request, from which repo-service resolves any repository's permission.
   */
  async access(actor: Actor | null, query: { owner?: string; ownerId?: number }): Promise<OwnerAccess> {
    const owner = query.ownerId !== undefined ? await this.users.findById(query.ownerId) : await this.users.findByName(query.owner ?? '');
    if (!owner) throw notFound(`user redirect does not exist [name: ${query.owner ?? query.ownerId}]`);
    const result: OwnerAccess = {
      owner: {
        id: owner.id,
        login: owner.name,
        kind: owner.isOrganization ? 'organization' : 'user',
        visibility: owner.visibility,
      },
      ownerUser: toUser(owner, actor, this.config.rootUrl),
      visible: await this.usersService.isVisibleTo(owner, actor),
      isOrgOwner: false,
      isOrgMember: false,
      canCreateRepo: !owner.isOrganization && actor?.id === owner.id,
      teamAccess: { all: null, repos: {} },
      organization: owner.isOrganization ? toOrganization(owner, this.config.rootUrl) : null,
    };
    if (!owner.isOrganization || !actor) return result;
    const teams = await this.orgs.teamsOfUser(owner.id, actor.id);
    result.isOrgMember = teams.length > 0 || (await this.orgs.isMember(owner.id, actor.id));
    result.isOrgOwner = teams.some((t) => t.accessMode >= AccessMode.owner);
    result.canCreateRepo = result.isOrgOwner || teams.some((t) => t.canCreateOrgRepo);
    const allTeams = teams.filter((t) => t.includesAllRepositories);
    if (allTeams.length > 0) result.teamAccess.all = combineTeams(allTeams);
    const links = await this.orgs.repoLinksOfTeams(teams.filter((t) => !t.includesAllRepositories).map((t) => t.id));
    const byRepo = new Map<number, TeamEntity[]>();
    for (const link of links) {
      const team = teams.find((t) => t.id === link.teamId)!;
      byRepo.set(link.repoId, [...(byRepo.get(link.repoId) ?? []), team]);
    }
    for (const [repoId, linked] of byRepo) result.teamAccess.repos[String(repoId)] = combineTeams(linked);
    return result;
  }

  async reachableRepos(actor: Actor | null): Promise<ReachableRepos> {
    if (!actor) return { orgIds: [], repoIds: [] };
    return this.orgs.reachableRepos(actor.id);
  }
}

/** The access a set of teams gives to one repository: the highest mode, unit by unit. */
export function combineTeams(teams: TeamEntity[]): TeamRepoAccess {
  const units: Record<string, number> = {};
  let mode = 0;
  for (const t of teams) {
    mode = Math.max(mode, t.accessMode);
    const map = JSON.parse(t.units || '{}') as Record<string, number>;
    const entries = Object.entries(map);
    if (entries.length === 0 || t.accessMode >= AccessMode.admin) {
      units['*'] = Math.max(units['*'] ?? 0, t.accessMode);
    }
    for (const [unit, m] of entries) units[unit] = Math.max(units[unit] ?? 0, m);
  }
  return { mode, units };
}
