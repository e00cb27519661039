import { Injectable } from '@nestjs/common';
import {
  AccessMode,
  EventNames,
  forbidden,
  notFound,
  ownerNameProblem,
  pageOf,
  unprocessable,
  type Actor,
  type CreateOrgOption,
  type EditOrgOption,
  type ListOptions,
  type Organization,
  type OwnerAccess,
  type Page,
  type ReachableRepos,
  type TeamRepoAccess,
  type Visibility,
} from '@gitforge/contracts';
import { Database, OutboxService, PlatformConfig } from '@gitforge/platform';
import { requireActor } from '../auth/actor.js';
import { UserEntity, UserType } from '../users/user.entity.js';
import { toOrganization, toUser } from '../users/user.mapper.js';
import { UsersRepository } from '../users/users.repository.js';
import { UsersService } from '../users/users.service.js';
import type { TeamEntity } from './org.entities.js';
import { OrgsRepository } from './orgs.repository.js';
import { storedUnits } from '../teams/team-units.js';

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
    const creator = await this.users.findById(requireActor(actor).id);
    // Gitea's CanCreateOrganization.
    if (!creator || !(creator.isAdmin || (!creator.isRestricted && creator.allowCreateOrganization))) {
      throw forbidden('Create organization not allowed');
    }
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

  /** Gitea's orgAssignment: the organization of that name, whatever its visibility. */
  async requireOrg(name: string): Promise<UserEntity> {
    const org = await this.users.findByName(name);
    if (!org || !org.isOrganization) throw notFound(`GetOrgByName [${name}]`);
    return org;
  }

  /** The organization if the actor may see it (Gitea's reqOrgVisible); hidden ones answer 404. */
  async requireVisibleOrg(actor: Actor | null, name: string): Promise<UserEntity> {
    const org = await this.requireOrg(name);
    if (!(await this.usersService.ownerVisibleTo(org, actor))) throw notFound(`GetOrgByName [${name}]`);
    return org;
  }

  /** Gitea's reqOrgOwnership: site admins and members of the Owners team. */
  async requireOwner(actor: Actor | null, org: UserEntity): Promise<Actor> {
    const a = requireActor(actor);
    const viewer = await this.usersService.viewerOf(a);
    if (viewer?.isAdmin || (await this.isOwner(org.id, a.id))) return a;
    throw forbidden('Must be an organization owner');
  }

  /** Gitea's reqOrgMembership: site admins and members. */
  async requireMember(actor: Actor | null, org: UserEntity): Promise<Actor> {
    const a = requireActor(actor);
    const viewer = await this.usersService.viewerOf(a);
    if (viewer?.isAdmin || (await this.orgs.isMember(org.id, a.id))) return a;
    throw forbidden('Must be an organization member');
  }

  async isOwner(orgId: number, userId: number): Promise<boolean> {
    return (await this.orgs.teamsOfUser(orgId, userId)).some((t) => t.accessMode >= AccessMode.owner);
  }

  async get(actor: Actor | null, name: string): Promise<Organization> {
    return toOrganization(await this.requireVisibleOrg(actor, name), this.config.rootUrl);
  }

  /** `GET /orgs`: public organizations, limited ones for signed-in callers, private ones for site admins. */
  async list(actor: Actor | null, options: ListOptions): Promise<Page<Organization>> {
    const viewer = await this.usersService.viewerOf(actor);
    const visibilities: Visibility[] = ['public'];
    if (viewer) visibilities.push('limited');
    if (viewer?.isAdmin) visibilities.push('private');
    const [rows, total] = await this.users.listOrganizations(viewer, visibilities, options);
    return pageOf(
      rows.map((o) => toOrganization(o, this.config.rootUrl)),
      total,
      options,
    );
  }

  /**
   * `GET /user/orgs` (no username) and `GET /users/{username}/orgs`: every organization of the user
   * for itself and site admins, otherwise its public memberships of public organizations.
   */
  async listForUser(actor: Actor | null, username: string | undefined, options: ListOptions): Promise<Page<Organization>> {
    const user = username === undefined ? await this.usersService.requireSelf(actor) : await this.usersService.requireByName(username);
    const viewer = await this.usersService.viewerOf(actor);
    const includePrivate = viewer !== null && (viewer.isAdmin || viewer.id === user.id);
    const [rows, total] = await this.users.organizationsOf(user.id, includePrivate, options);
    return pageOf(
      rows.map((o) => toOrganization(o, this.config.rootUrl)),
      total,
      options,
    );
  }

  /** `PATCH /orgs/{org}` for its owners (see EditOrgOption for which fields Gitea always writes). */
  async edit(actor: Actor | null, name: string, body: EditOrgOption): Promise<Organization> {
    const org = await this.requireOrg(name);
    await this.requireOwner(actor, org);
    const changes: Partial<UserEntity> = {
      fullName: body.full_name ?? '',
      description: body.description ?? '',
      website: body.website ?? '',
      location: body.location ?? '',
      updatedAt: new Date(),
    };
    if (body.email !== undefined) changes.email = body.email;
    if (body.visibility) changes.visibility = body.visibility;
    if (body.repo_admin_change_team_access !== undefined) changes.repoAdminChangeTeamAccess = body.repo_admin_change_team_access;
    await this.db.transaction((m) => this.users.update(m, org.id, changes));
    return toOrganization((await this.users.findById(org.id))!, this.config.rootUrl);
  }

  /** `DELETE /orgs/{org}` for its owners; refused while it owns repositories. */
  async delete(actor: Actor | null, name: string): Promise<void> {
    const org = await this.requireOrg(name);
    const a = await this.requireOwner(actor, org);
    await this.usersService.refuseWhileOwningRepositories(a, org);
    await this.db.transaction(async (m) => {
      await this.orgs.deleteOrganizationData(m, org.id);
      await this.users.delete(m, org.id);
    });
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
      visible: await this.usersService.ownerVisibleTo(owner, actor),
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

/**
 * The access a set of teams gives to one repository: the highest mode, unit by unit. A team with
 * admin access makes its members owners of the repository, as Gitea's GetUserRepoPermission does
 * ("if user in an owner team"); `*` stands for every unit.
 */
export function combineTeams(teams: TeamEntity[]): TeamRepoAccess {
  const units: Record<string, number> = {};
  let mode = 0;
  for (const t of teams) {
    const teamMode = t.accessMode >= AccessMode.admin ? AccessMode.owner : t.accessMode;
    mode = Math.max(mode, teamMode);
    const entries = Object.entries(storedUnits(t));
    if (entries.length === 0 || teamMode >= AccessMode.admin) {
      units['*'] = Math.max(units['*'] ?? 0, teamMode);
    }
    for (const [unit, m] of entries) units[unit] = Math.max(units[unit] ?? 0, m);
  }
  return { mode, units };
}
