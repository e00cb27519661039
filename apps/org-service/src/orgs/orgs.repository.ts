import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import { AccessMode } from '@gitforge/contracts';
import { OrgUserEntity, OWNER_TEAM_NAME, TeamEntity, TeamRepoEntity, TeamUserEntity } from './org.entities.js';

@Injectable()
export class OrgsRepository {
  constructor(private readonly db: Database) {}

  async isMember(orgId: number, userId: number): Promise<boolean> {
    return (await this.db.manager.count(OrgUserEntity, { where: { orgId, userId } })) > 0;
  }

  /** Whether the two users are members of at least one common organization. */
  async shareAnOrganization(userId: number, otherId: number): Promise<boolean> {
    const rows = (await this.db.manager
      .createQueryBuilder(OrgUserEntity, 'a')
      .innerJoin(OrgUserEntity, 'b', 'a.org_id = b.org_id')
      .where('a.user_id = :userId AND b.user_id = :otherId', { userId, otherId })
      .limit(1)
      .getCount()) as number;
    return rows > 0;
  }

  findOwnerTeam(orgId: number, manager?: EntityManager): Promise<TeamEntity | null> {
    return (manager ?? this.db.manager).findOne(TeamEntity, { where: { orgId, lowerName: OWNER_TEAM_NAME.toLowerCase() } });
  }

  /** The actor's teams in one organization. */
  async teamsOfUser(orgId: number, userId: number): Promise<TeamEntity[]> {
    return this.db.manager
      .createQueryBuilder(TeamEntity, 't')
      .innerJoin(TeamUserEntity, 'tu', 'tu.team_id = t.id')
      .where('tu.user_id = :userId AND t.org_id = :orgId', { userId, orgId })
      .getMany();
  }

  /** The repositories linked to any of `teamIds`. */
  async repoLinksOfTeams(teamIds: number[]): Promise<TeamRepoEntity[]> {
    if (teamIds.length === 0) return [];
    return this.db.manager.find(TeamRepoEntity, { where: { teamId: In(teamIds) } });
  }

  /** Organizations where a team of the user includes every repository, and repositories linked to its other teams. */
  async reachableRepos(userId: number): Promise<{ orgIds: number[]; repoIds: number[] }> {
    const teams = await this.db.manager
      .createQueryBuilder(TeamEntity, 't')
      .innerJoin(TeamUserEntity, 'tu', 'tu.team_id = t.id')
      .where('tu.user_id = :userId', { userId })
      .getMany();
    const orgIds = [...new Set(teams.filter((t) => t.includesAllRepositories).map((t) => t.orgId))];
    const links = await this.repoLinksOfTeams(teams.filter((t) => !t.includesAllRepositories).map((t) => t.id));
    return { orgIds, repoIds: [...new Set(links.map((l) => l.repoId))] };
  }

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
        visibility: 'public',
        units: '{}',
      }),
    );
    await manager.insert(TeamUserEntity, { teamId: team.id, userId: ownerId, orgId });
    await manager.insert(OrgUserEntity, { orgId, userId: ownerId, isPublic: false });
  }
}
