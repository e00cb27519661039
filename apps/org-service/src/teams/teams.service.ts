import { Injectable } from '@nestjs/common';
import {
  AccessMode,
  ContractError,
  forbidden,
  notFound,
  pageOf,
  RepoPatterns,
  unprocessable,
  type Actor,
  type CreateTeamOption,
  type EditTeamOption,
  type FindReposRequest,
  type ListOptions,
  type Page,
  type Repository,
  type RepoTeamLink,
  type RepoTeamMove,
  type Team,
  type User,
  type Visibility,
  type TeamRepoScope,
  searchKeyword,
} from '@gitforge/contracts';
import { Database, PlatformConfig, RpcClient } from '@gitforge/platform';
import { rejectPublicOnly, rejectPublicOnlyOrg, requireActor } from '../auth/actor.js';
import { OWNER_TEAM_NAME, type TeamEntity } from '../orgs/org.entities.js';
import { OrgsRepository } from '../orgs/orgs.repository.js';
import { OrgsService } from '../orgs/orgs.service.js';
import type { UserEntity } from '../users/user.entity.js';
import { toOrganization, toUser } from '../users/user.mapper.js';
import { UsersRepository } from '../users/users.repository.js';
import { UsersService } from '../users/users.service.js';
import { hasOrgOrUserVisible, type Viewer } from '../users/visibility.js';
import { toTeam } from './team.mapper.js';
import { ALL_UNITS, parseTeamAccess, unitsFromList, unitsFromMap, unitsListAccess } from './team-units.js';
import { TeamsRepository } from './teams.repository.js';

/** Team names Gitea reserves (models/organization IsUsableTeamName). */
const RESERVED_TEAM_NAMES = new Set(['new']);

interface TeamContext {
  team: TeamEntity;
  org: UserEntity;
  actor: Actor;
  viewer: Viewer;
}

/**
 * Teams of organizations (Gitea's routers/api/v1/org/team.go). Who may see a team follows its
 * visibility: private teams their members and the organization's owners, limited teams every
 * member of the organization, public teams every signed-in user who may see the organization.
 */
@Injectable()
export class TeamsService {
  constructor(
    private readonly db: Database,
    private readonly teams: TeamsRepository,
    private readonly orgs: OrgsRepository,
    private readonly orgsService: OrgsService,
    private readonly users: UsersRepository,
    private readonly usersService: UsersService,
    private readonly rpc: RpcClient,
    private readonly config: PlatformConfig,
  ) {}

  /** Gitea's orgAssignment(false, true), reqToken and checkTokenPublicOnly: the team by id, with its organization. */
  private async context(actor: Actor | null, teamId: number): Promise<TeamContext> {
    const team = teamId ? await this.teams.findById(teamId) : null;
    const org = team ? await this.users.findById(team.orgId) : null;
    if (!team || !org) throw notFound();
    const a = requireActor(actor);
    rejectPublicOnlyOrg(a, org);
    return { team, org, actor: a, viewer: await this.usersService.viewerOf(a) };
  }

  /** Site admins, the organization's owners and the team's members may do anything a member may. */
  private async privileged(ctx: TeamContext): Promise<boolean> {
    if (ctx.viewer?.isAdmin) return true;
    if (await this.orgsService.isOwner(ctx.org.id, ctx.actor.id)) return true;
    return this.teams.isMember(ctx.team.id, ctx.actor.id);
  }

  /** Gitea's denyNonTeamMember: 403 for members of the organization, 404 for strangers. */
  private async deny(ctx: TeamContext): Promise<never> {
    if (await this.orgs.isMember(ctx.org.id, ctx.actor.id)) throw forbidden('Must be a team member');
    throw notFound();
  }

  /** Gitea's reqTeamReadAccess (team visibility) for reading a team, its members and repositories. */
  private async requireRead(ctx: TeamContext): Promise<void> {
    if (await this.privileged(ctx)) return;
    let admitted = false;
    if (ctx.team.visibility === 'public') {
      admitted = await hasOrgOrUserVisible(ctx.org, ctx.viewer, () => this.orgs.isMember(ctx.org.id, ctx.actor.id));
    } else if (ctx.team.visibility === 'limited') {
      admitted = await this.orgs.isMember(ctx.org.id, ctx.actor.id);
    }
    if (!admitted) await this.deny(ctx);
  }

  /** Gitea's reqTeamMembership, for linking repositories. */
  private async requireTeamMember(ctx: TeamContext): Promise<void> {
    if (!(await this.privileged(ctx))) await this.deny(ctx);
  }

  /**
   * Gitea's ApplyTeamListFilter: site admins and owners list every team; others their own teams
   * plus limited and public ones (members) or public ones (other signed-in users).
   */
  private async listFilter(org: UserEntity, actor: Actor): Promise<{ memberId?: number; alsoVisibilities?: Visibility[] }> {
    const viewer = await this.usersService.viewerOf(actor);
    if (viewer?.isAdmin || (await this.orgsService.isOwner(org.id, actor.id))) return {};
    const member = await this.orgs.isMember(org.id, actor.id);
    return { memberId: actor.id, alsoVisibilities: member ? ['limited', 'public'] : ['public'] };
  }

  async create(actor: Actor | null, orgName: string, body: CreateTeamOption): Promise<Team> {
    const org = await this.orgsService.requireOrg(actor, orgName);
    await this.orgsService.requireMember(actor, org);
    await this.orgsService.requireOwner(actor, org);
    // The permission is stored as given, whatever units_map says of each unit (Gitea's CreateTeam).
    const mode = parseTeamAccess(body.permission);
    const map = body.units_map ?? {};
    let units = ALL_UNITS;
    if (mode < AccessMode.admin) {
      if (Object.keys(map).length > 0) units = JSON.stringify(unitsFromMap(map));
      else if (body.units && body.units.length > 0) units = JSON.stringify(unitsFromList(body.units, unitsListAccess(body.permission)));
      else throw new ContractError('internal', 'units permission should not be empty');
    }
    this.checkName(body.name);
    const id = await this.db.transaction(async (m) => {
      if (await this.teams.findByName(org.id, body.name, m)) throw unprocessable(`team already exists [org_id: ${org.id}, name: ${body.name}]`);
      const team = await this.teams.insert(m, {
        orgId: org.id,
        lowerName: body.name.toLowerCase(),
        name: body.name,
        description: body.description ?? '',
        accessMode: mode,
        includesAllRepositories: body.includes_all_repositories ?? false,
        canCreateOrgRepo: body.can_create_org_repo ?? false,
        visibility: body.visibility || 'private',
        units,
      });
      return team.id;
    });
    // Gitea (1.21+) answers the new team with its organization (convert.ToTeam(ctx, team, true)).
    return toTeam((await this.teams.findById(id))!, toOrganization(org, this.config.rootUrl));
  }

  private checkName(name: string): void {
    if (RESERVED_TEAM_NAMES.has(name.toLowerCase())) throw unprocessable(`name is reserved [name: ${name}]`);
  }

  /** `GET /orgs/{org}/teams`: the teams the actor may see (docs/spec.md's team visibility rules). */
  async listForOrg(actor: Actor | null, orgName: string, options: ListOptions): Promise<Page<Team>> {
    return this.searchIn(actor, orgName, {}, options);
  }

  /** `GET /orgs/{org}/teams/search`: `q` in the name, and in the description unless `include_desc=false`. */
  async search(actor: Actor | null, orgName: string, query: { q?: string; includeDesc: boolean }, options: ListOptions): Promise<Page<Team>> {
    return this.searchIn(actor, orgName, { keyword: searchKeyword(query.q), includeDesc: query.includeDesc }, options);
  }

  private async searchIn(actor: Actor | null, orgName: string, filter: { keyword?: string; includeDesc?: boolean }, options: ListOptions): Promise<Page<Team>> {
    // docs/spec.md's team visibility (it wins over Gitea, which lists teams to org members only): private
    // teams for their members and org owners, limited ones for org members, public ones for anyone signed in.
    const a = requireActor(actor);
    const org = await this.orgsService.requireVisibleOrg(a, orgName);
    const [rows, total] = await this.teams.search({ orgId: org.id, ...filter, ...(await this.listFilter(org, a)) }, options);
    return pageOf(
      rows.map((t) => toTeam(t, null)),
      total,
      options,
    );
  }

  /** `GET /user/teams`: the actor's teams in every organization, each with its organization. */
  async listForActor(actor: Actor | null, options: ListOptions): Promise<Page<Team>> {
    const a = requireActor(actor);
    rejectPublicOnly(a);
    const [rows, total] = await this.teams.search({ memberId: a.id }, options);
    const orgs = await this.users.findByIds(rows.map((t) => t.orgId));
    return pageOf(
      rows.map((t) => toTeam(t, toOrganization(orgs.find((o) => o.id === t.orgId)!, this.config.rootUrl))),
      total,
      options,
    );
  }

  async get(actor: Actor | null, teamId: number): Promise<Team> {
    const ctx = await this.context(actor, teamId);
    await this.requireRead(ctx);
    return toTeam(ctx.team, toOrganization(ctx.org, this.config.rootUrl));
  }

  /** `PATCH /teams/{id}` for owners of the organization (see EditTeamOption for Gitea's rules). */
  async edit(actor: Actor | null, teamId: number, body: EditTeamOption): Promise<Team> {
    const ctx = await this.context(actor, teamId);
    await this.orgsService.requireOwner(ctx.actor, ctx.org);
    const team = ctx.team;
    const isOwnerTeam = team.accessMode >= AccessMode.owner;
    const changes: Partial<TeamEntity> = {};
    if (body.can_create_org_repo !== undefined) changes.canCreateOrgRepo = isOwnerTeam || body.can_create_org_repo;
    // The Owners team keeps its name, which is how Gitea recognises it.
    if (body.name && !isOwnerTeam && body.name !== team.name) {
      this.checkName(body.name);
      changes.name = body.name;
      changes.lowerName = body.name.toLowerCase();
    }
    if (body.description !== undefined) changes.description = body.description;
    let mode = team.accessMode;
    const map = body.units_map ?? {};
    if (!isOwnerTeam && body.permission) {
      mode = parseTeamAccess(body.permission);
      changes.accessMode = mode;
      if (body.includes_all_repositories !== undefined) changes.includesAllRepositories = body.includes_all_repositories;
    }
    if (mode < AccessMode.admin) {
      if (Object.keys(map).length > 0) changes.units = JSON.stringify(unitsFromMap(map));
      else if (body.units && body.units.length > 0) changes.units = JSON.stringify(unitsFromList(body.units, unitsListAccess(body.permission)));
    } else {
      changes.units = ALL_UNITS;
    }
    if (body.visibility && !isOwnerTeam) changes.visibility = body.visibility;
    if (Object.keys(changes).length > 0) await this.applyEdit(team, changes);
    return toTeam((await this.teams.findById(team.id))!, null);
  }

  private async applyEdit(team: TeamEntity, changes: Partial<TeamEntity>): Promise<void> {
    await this.db.transaction(async (m) => {
      if (changes.lowerName) {
        const clash = await this.teams.findByName(team.orgId, changes.lowerName, m);
        if (clash && clash.id !== team.id) throw unprocessable(`team already exists [org_id: ${team.orgId}, name: ${changes.name}]`);
      }
      await this.teams.update(m, team.id, changes);
    });
  }

  /** `DELETE /teams/{id}` for owners; the Owners team stays (an organization needs its owners). */
  async delete(actor: Actor | null, teamId: number): Promise<void> {
    const ctx = await this.context(actor, teamId);
    await this.orgsService.requireOwner(ctx.actor, ctx.org);
    if (ctx.team.name === OWNER_TEAM_NAME && ctx.team.accessMode >= AccessMode.owner) {
      throw unprocessable('the Owners team of an organization cannot be deleted');
    }
    await this.db.transaction((m) => this.teams.delete(m, ctx.team.id));
  }

  /** `GET /teams/{id}/members`: readers of the team who are also members of the organization. */
  async listMembers(actor: Actor | null, teamId: number, options: ListOptions): Promise<Page<User>> {
    const ctx = await this.context(actor, teamId);
    await this.requireRead(ctx);
    await this.orgsService.requireMember(ctx.actor, ctx.org);
    const [rows, total] = await this.teams.members(ctx.team.id, options);
    return pageOf(
      rows.map((u) => toUser(u, ctx.actor, this.config.rootUrl)),
      total,
      options,
    );
  }

  async getMember(actor: Actor | null, teamId: number, username: string): Promise<User> {
    const ctx = await this.context(actor, teamId);
    await this.requireRead(ctx);
    await this.orgsService.requireMember(ctx.actor, ctx.org);
    const user = await this.usersService.requireByName(username);
    if (!(await this.teams.isMember(ctx.team.id, user.id))) throw notFound();
    return toUser(user, ctx.actor, this.config.rootUrl);
  }

  /** Adds a user to the team (and so to the organization); adding a member again changes nothing. */
  async addMember(actor: Actor | null, teamId: number, username: string): Promise<void> {
    const ctx = await this.context(actor, teamId);
    await this.orgsService.requireOwner(ctx.actor, ctx.org);
    const user = await this.usersService.requireByName(username);
    if (user.isOrganization) throw unprocessable(`${user.name} is an organization not a user`);
    await this.db.transaction(async (m) => {
      if (await this.teams.isMember(ctx.team.id, user.id, m)) return;
      await this.orgs.addMember(m, ctx.org.id, user.id);
      await this.teams.addMember(m, ctx.team, user.id);
    });
  }

  /**
   * Removes a user from the team; a user left in none of the organization's teams leaves the
   * organization too (Gitea's removeTeamMember). The last owner stays.
   */
  async removeMember(actor: Actor | null, teamId: number, username: string): Promise<void> {
    const ctx = await this.context(actor, teamId);
    await this.orgsService.requireOwner(ctx.actor, ctx.org);
    const user = await this.usersService.requireByName(username);
    await this.db.transaction(async (m) => {
      if (!(await this.teams.isMember(ctx.team.id, user.id, m))) return;
      if (ctx.team.accessMode >= AccessMode.owner && (await this.teams.countMembers(ctx.team.id, m)) <= 1) {
        throw unprocessable(`user is the last member of owner team [uid: ${user.id}]`);
      }
      await this.teams.removeMember(m, ctx.team.id, user.id);
      if ((await this.teams.countTeamsOfUser(ctx.org.id, user.id, m)) === 0) await this.orgs.removeMember(m, ctx.org.id, user.id);
    });
  }

  /** `GET /teams/{id}/repos`: by name; links to repositories deleted since are left out. */
  async listRepos(actor: Actor | null, teamId: number, options: ListOptions): Promise<Page<Repository>> {
    const ctx = await this.context(actor, teamId);
    await this.requireRead(ctx);
    const request: FindReposRequest = { ownerId: ctx.org.id };
    if (!ctx.team.includesAllRepositories) {
      request.ids = await this.teams.repoIds(ctx.team.id);
      if (request.ids.length === 0) return pageOf([], 0, options);
    }
    return this.findRepos(ctx.actor, request, options);
  }

  /** The repositories a team reaches, for `GET /repos/search?team_id=` (hidden teams answer 404/403 as `GET /teams/{id}`). */
  async repoScope(actor: Actor | null, teamId: number): Promise<TeamRepoScope> {
    const ctx = await this.context(actor, teamId);
    await this.requireRead(ctx);
    return this.linksOf(ctx.team);
  }

  /** The team's repository links without asking who may read the team (Gitea's team_repo subquery in repository search); null for no such team. */
  async repoLinks(teamId: number): Promise<TeamRepoScope | null> {
    const team = teamId ? await this.teams.findById(teamId) : null;
    return team ? this.linksOf(team) : null;
  }

  private async linksOf(team: TeamEntity): Promise<TeamRepoScope> {
    return { orgId: team.orgId, includesAllRepositories: team.includesAllRepositories, repoIds: team.includesAllRepositories ? [] : await this.teams.repoIds(team.id) };
  }

  /** `GET /repos/{owner}/{repo}/teams` (repo-service checked the caller): Gitea answers these teams without their organization. */
  async listForRepo(orgId: number, repoId: number): Promise<Team[]> {
    return (await this.teams.ofRepo(orgId, repoId)).map((t) => toTeam(t, null));
  }

  /** One team of an organization by name, and whether it reaches the repository (Gitea's getTeamByParam and HasRepository). */
  async getForRepo(orgId: number, repoId: number, name: string): Promise<RepoTeamLink> {
    const team = await this.requireTeamNamed(orgId, name);
    return { team: toTeam(team, null), linked: team.includesAllRepositories || (await this.teams.hasRepo(team.id, repoId)) };
  }

  /**
   * `PUT`/`DELETE /repos/{owner}/{repo}/teams/{team}` (repo-service checked the caller): 422 when the
   * team already reaches the repository or does not. Unlinking from a team that includes every
   * repository changes nothing, as in Gitea's RemoveRepositoryFromTeam.
   */
  async linkRepo(orgId: number, repoId: number, name: string, link: boolean): Promise<void> {
    const team = await this.requireTeamNamed(orgId, name);
    await this.db.transaction(async (m) => {
      const linked = team.includesAllRepositories || (await this.teams.hasRepo(team.id, repoId, m));
      if (link && linked) throw unprocessable(`team '${team.name}' is already added to repo`);
      if (!link && !linked) throw unprocessable(`team '${team.name}' was not added to repo`);
      if (team.includesAllRepositories) return;
      if (link) await this.teams.addRepo(m, team, repoId);
      else await this.teams.removeRepo(m, team.id, repoId);
    });
  }

  /**
   * A transferred repository (repo-service checked the caller, Gitea's transferOwnership): its old
   * team links go, and it joins `teamIds` of its new organization (those that still belong to it;
   * all-repository teams reach it anyway). Running it twice changes nothing more.
   */
  async moveRepo(move: RepoTeamMove): Promise<void> {
    await this.db.transaction(async (m) => {
      await this.teams.removeRepoFromAll(m, move.repoId);
      if (move.orgId === null) return;
      for (const id of [...new Set(move.teamIds)]) {
        const team = await this.teams.findById(id, m);
        if (team && team.orgId === move.orgId && !team.includesAllRepositories) await this.teams.addRepo(m, team, move.repoId);
      }
    });
  }

  private async requireTeamNamed(orgId: number, name: string): Promise<TeamEntity> {
    const team = await this.teams.findByName(orgId, name);
    if (!team) throw notFound(`team does not exist [org_id ${orgId}, team_id 0, name: ${name}]`);
    return team;
  }

  async getRepo(actor: Actor | null, teamId: number, repoName: string): Promise<Repository> {
    const ctx = await this.context(actor, teamId);
    await this.requireRead(ctx);
    const repo = await this.orgRepo(ctx, repoName);
    if (!ctx.team.includesAllRepositories && !(await this.teams.hasRepo(ctx.team.id, repo.id))) throw notFound();
    return repo;
  }

  /** Links a repository of the team's organization; the caller must administer the repository. */
  async addRepo(actor: Actor | null, teamId: number, repoName: string): Promise<void> {
    const ctx = await this.context(actor, teamId);
    await this.requireTeamMember(ctx);
    const repo = await this.orgRepo(ctx, repoName);
    if (!repo.permissions.admin) throw forbidden('Must have admin-level access to the repository');
    await this.db.transaction(async (m) => {
      if (!(await this.teams.hasRepo(ctx.team.id, repo.id, m))) await this.teams.addRepo(m, ctx.team, repo.id);
    });
  }

  async removeRepo(actor: Actor | null, teamId: number, repoName: string): Promise<void> {
    const ctx = await this.context(actor, teamId);
    await this.requireTeamMember(ctx);
    const repo = await this.orgRepo(ctx, repoName);
    if (!repo.permissions.admin) throw forbidden('Must have admin-level access to the repository');
    await this.db.transaction((m) => this.teams.removeRepo(m, ctx.team.id, repo.id));
  }

  /**
   * The repository of that name in the team's organization (Gitea looks it up in the team's
   * organization, whatever `{org}` the path names), with the actor's permissions.
   */
  private async orgRepo(ctx: TeamContext, name: string): Promise<Repository> {
    const page = await this.findRepos(ctx.actor, { ownerId: ctx.org.id, names: [name] }, { page: 1, limit: 1 });
    const repo = page.items[0];
    if (!repo) throw notFound();
    return repo;
  }

  private findRepos(actor: Actor, request: FindReposRequest, options: ListOptions): Promise<Page<Repository>> {
    return this.rpc.call<Page<Repository>, Record<string, string>, FindReposRequest, ListOptions>(RepoPatterns.findMany, {
      actor,
      body: request,
      query: options,
    });
  }
}

