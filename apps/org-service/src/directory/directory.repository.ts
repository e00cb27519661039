import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { AccessMode } from '@gitforge/contracts';
import { chunksOf, Database } from '@gitforge/platform';
import { OrgUserEntity, TeamEntity, TeamUserEntity } from '../orgs/org.entities.js';
import { UserEntity, UserType } from '../users/user.entity.js';

/** Batched reads for other services: every query takes a whole list. */
@Injectable()
export class DirectoryRepository {
  constructor(private readonly db: Database) {}

  /** In slices: the names may come from a document's mentions (POST /markdown), tens of thousands of them. */
  async accountsByLowerNames(lowerNames: string[]): Promise<UserEntity[]> {
    const out: UserEntity[] = [];
    for (const slice of chunksOf(lowerNames)) out.push(...(await this.db.manager.find(UserEntity, { where: { lowerName: In(slice) } })));
    return out;
  }

  async accountsByIds(ids: number[]): Promise<UserEntity[]> {
    const out: UserEntity[] = [];
    for (const slice of chunksOf(ids)) out.push(...(await this.db.manager.find(UserEntity, { where: { id: In(slice) } })));
    return out;
  }

  usersByLowerEmails(emails: string[]): Promise<UserEntity[]> {
    if (emails.length === 0) return Promise.resolve([]);
    return this.db.manager
      .createQueryBuilder(UserEntity, 'u')
      .where('LOWER(u.email) IN (:...emails) AND u.type = :type', { emails, type: UserType.individual })
      .getMany();
  }

  teams(orgId: number, filter: { lowerNames?: string[]; ids?: number[] }): Promise<TeamEntity[]> {
    // orgId 0: teams of any organization (a transfer tells an unknown team from another organization's).
    const qb = this.db.manager.createQueryBuilder(TeamEntity, 't').where(orgId ? 't.org_id = :orgId' : '1 = 1', { orgId });
    if (filter.lowerNames) {
      if (filter.lowerNames.length === 0) return Promise.resolve([]);
      qb.andWhere('t.lower_name IN (:...names)', { names: filter.lowerNames });
    }
    if (filter.ids) {
      if (filter.ids.length === 0) return Promise.resolve([]);
      qb.andWhere('t.id IN (:...ids)', { ids: filter.ids });
    }
    return qb.orderBy('t.id', 'ASC').getMany();
  }

  async teamIdsOfUser(orgId: number, userId: number): Promise<number[]> {
    const rows = await this.db.manager.find(TeamUserEntity, { where: { orgId, userId } });
    return rows.map((r) => r.teamId);
  }

  /** Members of the organization's owner teams and of its teams that may create repositories, each once (Gitea's GetUsersWhoCanCreateOrgRepo). */
  async repoCreatorIds(orgId: number): Promise<number[]> {
    const rows = await this.db.manager
      .createQueryBuilder(TeamUserEntity, 'tu')
      .innerJoin(TeamEntity, 't', 't.id = tu.team_id')
      .select('DISTINCT tu.user_id', 'id')
      .where('tu.org_id = :orgId', { orgId })
      .andWhere('(t.can_create_org_repo = :yes OR t.access_mode >= :owner)', { yes: true, owner: AccessMode.owner })
      .orderBy('tu.user_id', 'ASC')
      .getRawMany<{ id: number | string }>();
    return rows.map((r) => Number(r.id));
  }

  /** Members of the organization's teams that reach a repository (all-repository teams and linked ones), each once. */
  async teamMemberIdsOfRepo(orgId: number, repoId: number): Promise<number[]> {
    const rows = await this.db.manager
      .createQueryBuilder(TeamUserEntity, 'tu')
      .innerJoin(TeamEntity, 't', 't.id = tu.team_id')
      .select('DISTINCT tu.user_id', 'id')
      .where('tu.org_id = :orgId', { orgId })
      .andWhere('(t.includes_all_repositories = :yes OR t.id IN (SELECT tr.team_id FROM team_repo tr WHERE tr.repo_id = :repoId))', { yes: true, repoId })
      .orderBy('tu.user_id', 'ASC')
      .getRawMany<{ id: number | string }>();
    return rows.map((r) => Number(r.id));
  }

  async isOrgMember(orgId: number, userId: number): Promise<boolean> {
    return (await this.db.manager.count(OrgUserEntity, { where: { orgId, userId } })) > 0;
  }
}
