import { Injectable } from '@nestjs/common';
import { Brackets, type EntityManager } from 'typeorm';
import { containsPattern, Database } from '@gitforge/platform';
import type { ListOptions, Visibility } from '@gitforge/contracts';
import { UserEntity } from '../users/user.entity.js';
import { OWNER_TEAM_NAME, TeamEntity, TeamRepoEntity, TeamUserEntity } from '../orgs/org.entities.js';

export interface TeamSearch {
  orgId?: number;
  keyword?: string;
  includeDesc?: boolean;
  /** Teams this user is in… */
  memberId?: number;
  /** …and, with `memberId`, also the teams of these visibilities (Gitea's IncludeVisibilities). */
  alsoVisibilities?: Visibility[];
}

@Injectable()
export class TeamsRepository {
  constructor(private readonly db: Database) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.db.manager;
  }

  findById(id: number, manager?: EntityManager): Promise<TeamEntity | null> {
    return this.db.findOneBy(TeamEntity, { id }, manager);
  }

  findByName(orgId: number, name: string, manager?: EntityManager): Promise<TeamEntity | null> {
    return this.m(manager).findOne(TeamEntity, { where: { orgId, lowerName: name.toLowerCase() } });
  }

  insert(manager: EntityManager, team: Partial<TeamEntity>): Promise<TeamEntity> {
    return manager.save(TeamEntity, manager.create(TeamEntity, team));
  }

  async update(manager: EntityManager, id: number, changes: Partial<TeamEntity>): Promise<void> {
    await manager.update(TeamEntity, { id }, changes);
  }

  async delete(manager: EntityManager, id: number): Promise<void> {
    await manager.delete(TeamRepoEntity, { teamId: id });
    await manager.delete(TeamUserEntity, { teamId: id });
    await manager.delete(TeamEntity, { id });
  }

  /** Gitea's SearchTeam: the Owners team first, then by name. */
  search(search: TeamSearch, options: ListOptions): Promise<[TeamEntity[], number]> {
    const qb = this.db.manager.createQueryBuilder(TeamEntity, 't');
    qb.where('1 = 1');
    if (search.orgId !== undefined) qb.andWhere('t.org_id = :orgId', { orgId: search.orgId });
    const keyword = search.keyword?.trim().toLowerCase();
    if (keyword) {
      const like = containsPattern(keyword);
      qb.andWhere(
        new Brackets((w) => {
          w.where("t.lower_name LIKE :like ESCAPE '\\'", { like });
          if (search.includeDesc) w.orWhere("LOWER(t.description) LIKE :like ESCAPE '\\'", { like });
        }),
      );
    }
    if (search.memberId !== undefined) {
      const mine = 't.id IN (SELECT tu.team_id FROM team_user tu WHERE tu.user_id = :memberId)';
      if (search.alsoVisibilities && search.alsoVisibilities.length > 0) {
        qb.andWhere(`(${mine} OR t.visibility IN (:...vis))`, { memberId: search.memberId, vis: search.alsoVisibilities });
      } else {
        qb.andWhere(mine, { memberId: search.memberId });
      }
    }
    return qb
      .orderBy(`CASE WHEN t.name = '${OWNER_TEAM_NAME}' THEN '' ELSE t.lower_name END`, 'ASC')
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  /** Gitea's GetRepoTeams: the organization's teams reaching a repository (all-repository teams and linked ones), Owners first, then by name. */
  ofRepo(orgId: number, repoId: number): Promise<TeamEntity[]> {
    return this.db.manager
      .createQueryBuilder(TeamEntity, 't')
      .where('t.org_id = :orgId', { orgId })
      .andWhere(
        new Brackets((w) => {
          w.where('t.includes_all_repositories = :yes', { yes: true }).orWhere(
            't.id IN (SELECT tr.team_id FROM team_repo tr WHERE tr.repo_id = :repoId)',
            { repoId },
          );
        }),
      )
      .orderBy(`CASE WHEN t.name = '${OWNER_TEAM_NAME}' THEN '' ELSE t.lower_name END`, 'ASC')
      .getMany();
  }

  async isMember(teamId: number, userId: number, manager?: EntityManager): Promise<boolean> {
    return (await this.m(manager).count(TeamUserEntity, { where: { teamId, userId } })) > 0;
  }

  countMembers(teamId: number, manager?: EntityManager): Promise<number> {
    return this.m(manager).count(TeamUserEntity, { where: { teamId } });
  }

  /** Gitea's GetTeamMembers: by full name, then name. */
  members(teamId: number, options: ListOptions): Promise<[UserEntity[], number]> {
    return this.db.manager
      .createQueryBuilder(UserEntity, 'u')
      .innerJoin(TeamUserEntity, 'tu', 'tu.user_id = u.id AND tu.team_id = :teamId', { teamId })
      .orderBy('u.full_name', 'ASC')
      .addOrderBy('u.lower_name', 'ASC')
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  async addMember(manager: EntityManager, team: TeamEntity, userId: number): Promise<void> {
    await manager.insert(TeamUserEntity, { teamId: team.id, userId, orgId: team.orgId });
  }

  async removeMember(manager: EntityManager, teamId: number, userId: number): Promise<void> {
    await manager.delete(TeamUserEntity, { teamId, userId });
  }

  /** How many of the organization's teams the user is in. */
  countTeamsOfUser(orgId: number, userId: number, manager?: EntityManager): Promise<number> {
    return this.m(manager).count(TeamUserEntity, { where: { orgId, userId } });
  }

  /** Repository ids linked to the team; some may name repositories deleted since (the caller filters). */
  async repoIds(teamId: number): Promise<number[]> {
    return (await this.db.manager.find(TeamRepoEntity, { where: { teamId }, order: { repoId: 'ASC' } })).map((l) => l.repoId);
  }

  async hasRepo(teamId: number, repoId: number, manager?: EntityManager): Promise<boolean> {
    return (await this.m(manager).count(TeamRepoEntity, { where: { teamId, repoId } })) > 0;
  }

  async addRepo(manager: EntityManager, team: TeamEntity, repoId: number): Promise<void> {
    await manager.insert(TeamRepoEntity, { teamId: team.id, repoId, orgId: team.orgId });
  }

  async removeRepo(manager: EntityManager, teamId: number, repoId: number): Promise<void> {
    await manager.delete(TeamRepoEntity, { teamId, repoId });
  }

  /** A transferred repository leaves every team it was linked to, in whichever organization. */
  async removeRepoFromAll(manager: EntityManager, repoId: number): Promise<void> {
    await manager.delete(TeamRepoEntity, { repoId });
  }
}
