import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { chunksOf, Database } from '@gitforge/platform';
import { AccessMode, type ListOptions, type ReachableRepos } from '@gitforge/contracts';
import { UserEntity } from '../users/user.entity.js';
import { OrgUserEntity, OWNER_TEAM_NAME, TeamEntity, TeamRepoEntity, TeamUserEntity } from './org.entities.js';
import { ALL_UNITS } from '../teams/team-units.js';

@Injectable()
export class OrgsRepository {
  constructor(private readonly db: Database) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.db.manager;
  }

  async isMember(orgId: number, userId: number, manager?: EntityManager): Promise<boolean> {
    return (await this.m(manager).count(OrgUserEntity, { where: { orgId, userId } })) > 0;
  }

  async isPublicMember(orgId: number, userId: number): Promise<boolean> {
    return (await this.db.manager.count(OrgUserEntity, { where: { orgId, userId, isPublic: true } })) > 0;
  }

  /** How many organizations the user belongs to. */
  countMemberships(userId: number): Promise<number> {
    return this.db.manager.count(OrgUserEntity, { where: { userId } });
  }

  async setPublic(manager: EntityManager, orgId: number, userId: number, isPublic: boolean): Promise<void> {
    await manager.update(OrgUserEntity, { orgId, userId }, { isPublic });
  }

  /** Members of an organization (only its public ones when `publicOnly`), by name. */
  listMembers(orgId: number, publicOnly: boolean, options: ListOptions): Promise<[UserEntity[], number]> {
    const qb = this.db.manager
      .createQueryBuilder(UserEntity, 'u')
      .innerJoin(OrgUserEntity, 'ou', 'ou.user_id = u.id AND ou.org_id = :orgId', { orgId });
    if (publicOnly) qb.where('ou.is_public = :yes', { yes: true });
    return qb
      .orderBy('u.lower_name', 'ASC')
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  async addMember(manager: EntityManager, orgId: number, userId: number): Promise<void> {
    if (await this.isMember(orgId, userId, manager)) return;
    await manager.insert(OrgUserEntity, { orgId, userId, isPublic: false });
  }

  /** Removes the user from the organization and from all of its teams. */
  async removeMember(manager: EntityManager, orgId: number, userId: number): Promise<void> {
    await manager.delete(TeamUserEntity, { orgId, userId });
    await manager.delete(OrgUserEntity, { orgId, userId });
  }

  findOwnerTeam(orgId: number, manager?: EntityManager): Promise<TeamEntity | null> {
    return this.m(manager).findOne(TeamEntity, { where: { orgId, lowerName: OWNER_TEAM_NAME.toLowerCase() } });
  }

  /** Whether the user is in the organization's Owners team and nobody else is (Gitea's ErrLastOrgOwner). */
  async isLastOwner(orgId: number, userId: number): Promise<boolean> {
    const team = await this.findOwnerTeam(orgId);
    const owners = team ? await this.ownerTeamMembers(team.id) : [];
    return owners.includes(userId) && owners.every((id) => id === userId);
  }

  /** Ids of the users in a team (the Owners team is small). */
  async ownerTeamMembers(teamId: number): Promise<number[]> {
    return (await this.db.manager.find(TeamUserEntity, { where: { teamId } })).map((tu) => tu.userId);
  }

  /** The user's teams in one organization. */
  async teamsOfUser(orgId: number, userId: number, manager?: EntityManager): Promise<TeamEntity[]> {
    return this.m(manager)
      .createQueryBuilder(TeamEntity, 't')
      .innerJoin(TeamUserEntity, 'tu', 'tu.team_id = t.id')
      .where('tu.user_id = :userId AND t.org_id = :orgId', { userId, orgId })
      .getMany();
  }

  /** Which of `userIds` belong to the organization. */
  async membersAmong(orgId: number, userIds: number[]): Promise<Set<number>> {
    const out = new Set<number>();
    for (const ids of chunksOf(userIds)) {
      const rows = await this.db.manager.find(OrgUserEntity, { select: { userId: true }, where: { orgId, userId: In(ids) } });
      for (const r of rows) out.add(r.userId);
    }
    return out;
  }

  /** The organization's teams of each of `userIds` (users in none are left out). */
  async teamsOfUsers(orgId: number, userIds: number[]): Promise<Map<number, TeamEntity[]>> {
    const out = new Map<number, TeamEntity[]>();
    const teams = new Map((await this.db.manager.find(TeamEntity, { where: { orgId } })).map((t) => [t.id, t]));
    for (const ids of chunksOf(userIds)) {
      const links = await this.db.manager.find(TeamUserEntity, { where: { orgId, userId: In(ids) } });
      for (const l of links) {
        const team = teams.get(l.teamId);
        if (team) out.set(l.userId, [...(out.get(l.userId) ?? []), team]);
      }
    }
    return out;
  }

  /** The repositories linked to any of `teamIds`. */
  async repoLinksOfTeams(teamIds: number[]): Promise<TeamRepoEntity[]> {
    if (teamIds.length === 0) return [];
    return this.db.manager.find(TeamRepoEntity, { where: { teamId: In(teamIds) } });
  }

  /** Organizations where a team of the user includes every repository, and repositories linked to its other teams. */
  async reachableRepos(userId: number): Promise<ReachableRepos> {
    const [teams, memberships] = await Promise.all([
      this.db.manager.createQueryBuilder(TeamEntity, 't').innerJoin(TeamUserEntity, 'tu', 'tu.team_id = t.id').where('tu.user_id = :userId', { userId }).getMany(),
      this.db.manager
        .createQueryBuilder(OrgUserEntity, 'ou')
        .innerJoin(UserEntity, 'o', 'o.id = ou.org_id')
        .select(['ou.org_id AS org_id', 'ou.is_public AS is_public', 'o.visibility AS visibility'])
        .where('ou.user_id = :userId', { userId })
        .getRawMany<{ org_id: number | string; is_public: boolean | number; visibility: string }>(),
    ]);
    const orgIds = [...new Set(teams.filter((t) => t.includesAllRepositories).map((t) => t.orgId))];
    const links = await this.repoLinksOfTeams(teams.filter((t) => !t.includesAllRepositories).map((t) => t.id));
    return {
      orgIds,
      repoIds: [...new Set(links.map((l) => l.repoId))],
      privateOrgIds: memberships.filter((o) => o.visibility === 'private').map((o) => Number(o.org_id)),
      concealedOrgIds: memberships.filter((o) => !o.is_public).map((o) => Number(o.org_id)),
    };
  }

  /** The Owners team (every unit at owner level, all repositories) with the creator as its member. */
  async createWithOwner(manager: EntityManager, orgId: number, ownerId: number): Promise<void> {
    const team = await manager.save(
      TeamEntity,
      manager.create(TeamEntity, {
        orgId,
        lowerName: OWNER_TEAM_NAME.toLowerCase(),
        name: OWNER_TEAM_NAME,
        description: '',
        accessMode: AccessMode.owner,
        includesAllRepositories: true,
        canCreateOrgRepo: true,
        // Gitea's CreateOrganization: the Owners team is seen by the organization's members.
        visibility: 'limited',
        units: ALL_UNITS,
      }),
    );
    await manager.insert(TeamUserEntity, { teamId: team.id, userId: ownerId, orgId });
    await manager.insert(OrgUserEntity, { orgId, userId: ownerId, isPublic: false });
  }

  /** Every membership, team and team link of the organization (the account row is the caller's). */
  async deleteOrganizationData(manager: EntityManager, orgId: number): Promise<void> {
    await manager.delete(TeamRepoEntity, { orgId });
    await manager.delete(TeamUserEntity, { orgId });
    await manager.delete(TeamEntity, { orgId });
    await manager.delete(OrgUserEntity, { orgId });
  }
}
