import { Injectable } from '@nestjs/common';
import {
  AccessMode,
  EventNames,
  forbidden,
  isPublicOnly,
  notFound,
  ownerNameProblem,
  pageOf,
  unprocessable,
  type Actor,
  type CreateOrgOption,
  type EditOrgOption,
  type ListOptions,
  type Organization,
  type OrganizationPermissions,
  type OwnerAccess,
  type Page,
  type ReachableRepos,
  type TeamAccess,
  type TeamRepoAccess,
  type UserOwnerAccess,
  type Visibility,
  Visibilities,
} from '@gitforge/contracts';
import { chunksOf, Database, OutboxService, PlatformConfig } from '@gitforge/platform';
import { hasOrgOrUserVisible } from '../users/visibility.js';
import { rejectPublicOnlyOrg, rejectPublicOnlyUser, requireActor } from '../auth/actor.js';
import { emailProblem, emailProblemMessage } from '../emails/email-validation.js';
import { canCreateOrganization, UserEntity, UserType } from '../users/user.entity.js';
import { toOrganization, toUser, toUserWithAccess } from '../users/user.mapper.js';
import { UsersRepository } from '../users/users.repository.js';
import { UsersService } from '../users/users.service.js';
import type { TeamEntity } from './org.entities.js';
import { canCreateOrgRepo, toOrganizationPermissions } from './org-permissions.mapper.js';
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
    if (!creator || !canCreateOrganization(creator)) throw forbidden('not allowed to create org');
    return this.insertOrganization(actor, creator, body);
  }

  /**
   * `POST /admin/users/{username}/orgs`: a site administrator creates an organization owned by a
   * user. As Gitea's admin CreateOrg, the e-mail and repo_admin_change_team_access of the body are
   * not used, and the owner must be allowed to create organizations.
   */
  async createForUser(actor: Actor | null, username: string, body: CreateOrgOption): Promise<Organization> {
    if (!actor?.isAdmin) throw forbidden('user should be the site admin');
    const owner = await this.usersService.requireInPath(actor, username);
    if (owner.isOrganization) throw unprocessable(`${owner.name} is an organization not a user`);
    if (!canCreateOrganization(owner)) throw forbidden('user is not allowed to create organizations');
    return this.insertOrganization(actor, owner, { ...body, email: undefined, repo_admin_change_team_access: undefined });
  }

  /** Gitea's CreateOrganization: the account, its Owners team and the owner as the team's member. */
  private async insertOrganization(actor: Actor | null, owner: UserEntity, body: CreateOrgOption): Promise<Organization> {
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
      await this.orgs.createWithOwner(m, org.id, owner.id);
      await this.outbox.add(
        m,
        EventNames.orgCreated,
        { organization: toOrganization(org, this.config.rootUrl), sender: toUser(owner, null, this.config.rootUrl) },
        { actor },
      );
      return org.id;
    });
    return toOrganization((await this.users.findById(id))!, this.config.rootUrl);
  }

  /**
   * Gitea's orgAssignment followed by checkTokenPublicOnly, which every `/orgs/{org}` route runs:
   * the organization of that name whatever its visibility (404 "not found" otherwise), and 403 for
   * a public-only token when it is not public.
   */
  async requireOrg(actor: Actor | null, name: string): Promise<UserEntity> {
    const org = await this.users.findByName(name);
    // An old name of a renamed organization: Gitea's orgAssignment redirects (RedirectToUser).
    if (!org) throw await this.usersService.unknownInPath(actor, name, notFound());
    if (!org.isOrganization) throw notFound();
    rejectPublicOnlyOrg(actor, org);
    return org;
  }

  /** The organization if the actor may see it (Gitea's reqOrgVisible); hidden ones answer 404. */
  async requireVisibleOrg(actor: Actor | null, name: string): Promise<UserEntity> {
    const org = await this.requireOrg(actor, name);
    if (!(await this.usersService.ownerVisibleTo(org, actor))) throw notFound();
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

  /** `GET /orgs/{org}`; anonymous callers do not see the organization's e-mail (Gitea's org.Get). */
  async get(actor: Actor | null, name: string): Promise<Organization> {
    return toOrganization(await this.requireVisibleOrg(actor, name), this.config.rootUrl, actor !== null);
  }

  /**
   * `GET /orgs`: public organizations, limited ones for signed-in callers, private ones for site
   * admins; public-only tokens see public ones (Gitea's SearchUserOptions.ApplyPublicOnly).
   */
  async list(actor: Actor | null, options: ListOptions): Promise<Page<Organization>> {
    const viewer = await this.usersService.viewerOf(actor);
    const visibilities: Visibility[] = ['public'];
    if (viewer && !isPublicOnly(actor!.scopes)) {
      visibilities.push('limited');
      if (viewer.isAdmin) visibilities.push('private');
    }
    const [rows, total] = await this.users.listOrganizations(viewer, visibilities, options);
    return pageOf(
      rows.map((o) => toOrganization(o, this.config.rootUrl)),
      total,
      options,
    );
  }

  /** `GET /admin/orgs` (Gitea's admin GetAllOrgs): every organization, by name. */
  async adminList(actor: Actor | null, options: ListOptions): Promise<Page<Organization>> {
    if (!actor?.isAdmin) throw forbidden('user should be the site admin');
    const [rows, total] = await this.users.listOrganizations({ id: actor.id, isAdmin: true, isRestricted: false }, [...Visibilities], options);
    return pageOf(
      rows.map((o) => toOrganization(o, this.config.rootUrl)),
      total,
      options,
    );
  }

  /**
   * `GET /user/orgs` (no username), `GET /users/{username}/orgs` and `GET /admin/users/{username}/orgs`
   * (Gitea's listUserOrgs with DoerViewOtherVisibility): the user itself and site admins see every
   * membership; other signed-in callers public memberships of public and limited organizations;
   * anonymous callers and public-only tokens public memberships of public organizations.
   */
  async listForUser(actor: Actor | null, username: string | undefined, options: ListOptions): Promise<Page<Organization>> {
    const user = username === undefined ? await this.usersService.requireSelf(actor) : await this.usersService.requireInPath(actor, username);
    if (username !== undefined) rejectPublicOnlyUser(actor, user);
    const viewer = await this.usersService.viewerOf(actor);
    const publicOnly = actor !== null && isPublicOnly(actor.scopes);
    const everything = viewer !== null && !publicOnly && (viewer.isAdmin || viewer.id === user.id);
    const visibilities: Visibility[] = everything ? [...Visibilities] : viewer && !publicOnly ? ['public', 'limited'] : ['public'];
    const [rows, total] = await this.users.organizationsOf(user.id, { allMemberships: everything, visibilities }, options);
    return pageOf(
      rows.map((o) => toOrganization(o, this.config.rootUrl)),
      total,
      options,
    );
  }

  /**
   * `GET /users/{username}/orgs/{org}/permissions` (Gitea's GetUserOrgsPermissions): what the user
   * may do in an organization the caller can see, from the user's highest team access.
   */
  async userPermissions(actor: Actor | null, username: string, orgName: string): Promise<OrganizationPermissions> {
    const user = await this.usersService.requireInPath(actor, username);
    rejectPublicOnlyUser(actor, user);
    requireActor(actor);
    const org = await this.users.findByName(orgName);
    if (!org) throw notFound(`user redirect does not exist [name: ${orgName}]`);
    if (!(await this.usersService.ownerVisibleTo(org, actor))) throw notFound();
    return toOrganizationPermissions(org.isOrganization ? await this.orgs.teamsOfUser(org.id, user.id) : []);
  }

  /**
   * `PATCH /orgs/{org}` for its owners. As Gitea's org.Edit, only the fields present change; an
   * e-mail must be valid (422) and an empty one clears it; an unknown visibility is ignored.
   */
  async edit(actor: Actor | null, name: string, body: EditOrgOption): Promise<Organization> {
    const org = await this.requireOrg(actor, name);
    await this.requireOwner(actor, org);
    const changes: Partial<UserEntity> = { updatedAt: new Date() };
    if (body.email !== undefined && body.email !== '') {
      const problem = emailProblem(body.email);
      if (problem) throw unprocessable(emailProblemMessage(problem, body.email));
    }
    if (body.email !== undefined) changes.email = body.email;
    if (body.full_name !== undefined) changes.fullName = body.full_name;
    if (body.description !== undefined) changes.description = body.description;
    if (body.website !== undefined) changes.website = body.website;
    if (body.location !== undefined) changes.location = body.location;
    if (body.visibility) changes.visibility = body.visibility;
    if (body.repo_admin_change_team_access !== undefined) changes.repoAdminChangeTeamAccess = body.repo_admin_change_team_access;
    await this.db.transaction((m) => this.users.update(m, org.id, changes));
    return toOrganization((await this.users.findById(org.id))!, this.config.rootUrl);
  }

  /** `POST /orgs/{org}/rename` for its owners (Gitea's org.Rename): 204, or 422 with the reason. */
  async rename(actor: Actor | null, name: string, newName: string): Promise<void> {
    const org = await this.requireOrg(actor, name);
    requireActor(actor);
    await this.requireOwner(actor, org);
    await this.usersService.rename(org, newName);
  }

  /** `DELETE /orgs/{org}` for its owners; refused while it owns repositories. */
  async delete(actor: Actor | null, name: string): Promise<void> {
    const org = await this.requireOrg(actor, name);
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
      ownerUser: toUserWithAccess(owner, this.config.rootUrl),
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
    result.canCreateRepo = canCreateOrgRepo(teams);
    result.teamAccess = teamAccessOf(teams, await this.orgs.repoLinksOfTeams(teams.filter((t) => !t.includesAllRepositories).map((t) => t.id)));
    return result;
  }

  /**
   * {@link access}'s per-user part for many users of one owner at once (who a notification may
   * reach): a handful of queries for the whole list, never one per user. Unknown users are left out.
   */
  async accessForUsers(ownerId: number, userIds: number[]): Promise<UserOwnerAccess[]> {
    const owner = await this.users.findById(ownerId);
    if (!owner) throw notFound(`user redirect does not exist [name: ${ownerId}]`);
    const ids = [...new Set(userIds)];
    const users: UserEntity[] = [];
    for (const slice of chunksOf(ids)) users.push(...(await this.users.findByIds(slice)));
    const individuals = users.filter((u) => !u.isOrganization);
    const [members, teams] = owner.isOrganization
      ? await Promise.all([this.orgs.membersAmong(owner.id, individuals.map((u) => u.id)), this.orgs.teamsOfUsers(owner.id, individuals.map((u) => u.id))])
      : [new Set<number>(), new Map<number, TeamEntity[]>()];
    const linkedTeamIds = [...new Set([...teams.values()].flat().filter((t) => !t.includesAllRepositories).map((t) => t.id))];
    const links = await this.orgs.repoLinksOfTeams(linkedTeamIds);
    return Promise.all(
      individuals.map(async (u) => {
        const own = teams.get(u.id) ?? [];
        const isOrgMember = own.length > 0 || members.has(u.id);
        const viewer = { id: u.id, isAdmin: u.isAdmin, isRestricted: u.isRestricted };
        return {
          userId: u.id,
          isAdmin: u.isAdmin,
          isActive: u.isActive && !u.prohibitLogin,
          visible: await hasOrgOrUserVisible(owner, viewer, () => Promise.resolve(owner.isOrganization && isOrgMember)),
          isOrgOwner: own.some((t) => t.accessMode >= AccessMode.owner),
          isOrgMember,
          teamAccess: teamAccessOf(own, links),
        };
      }),
    );
  }

  /** Where a user reaches repositories through organizations: the actor, or `userId` (repository search's `uid`, whose results the searcher's own access still bounds). */
  async reachableRepos(actor: Actor | null, userId?: number): Promise<ReachableRepos> {
    const id = userId ?? actor?.id;
    if (!id) return { orgIds: [], repoIds: [], privateOrgIds: [], concealedOrgIds: [] };
    return this.orgs.reachableRepos(id);
  }
}

/** What a user's teams of one organization give: through all-repository teams, and repository by repository. */
function teamAccessOf(teams: TeamEntity[], links: Array<{ teamId: number; repoId: number }>): TeamAccess {
  const access: TeamAccess = { all: null, repos: {} };
  const allTeams = teams.filter((t) => t.includesAllRepositories);
  if (allTeams.length > 0) access.all = combineTeams(allTeams);
  const byRepo = new Map<number, TeamEntity[]>();
  for (const link of links) {
    const team = teams.find((t) => t.id === link.teamId && !t.includesAllRepositories);
    if (team) byRepo.set(link.repoId, [...(byRepo.get(link.repoId) ?? []), team]);
  }
  for (const [repoId, linked] of byRepo) access.repos[String(repoId)] = combineTeams(linked);
  return access;
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
