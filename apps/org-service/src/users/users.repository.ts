import { Injectable } from '@nestjs/common';
import { Brackets, In, type EntityManager, type SelectQueryBuilder, type WhereExpressionBuilder } from 'typeorm';
import { PublicKeyEntity } from '../keys/public-key.entity.js';
import { UserBadgeEntity } from '../badges/user-badge.entity.js';
import { containsPattern, Database } from '@gitforge/platform';
import { isRowIdRange, type ListOptions, type UserStarCount, type Visibility } from '@gitforge/contracts';
import { EmailAddressEntity } from '../emails/email-address.entity.js';
import { FollowEntity } from '../follows/follow.entity.js';
import { OrgUserEntity, TeamUserEntity } from '../orgs/org.entities.js';
import { UserRedirectEntity } from './user-redirect.entity.js';
import { UserEntity, UserType } from './user.entity.js';
import type { AdminUserFilter } from './admin-user-filter.js';
import type { Viewer } from './visibility.js';

export interface UserSearch {
  keyword?: string;
  uid?: number;
  type: number;
  /** Only these visibilities (Gitea's SearchUserOptions.Visible). */
  visibilities?: Visibility[];
  /** Also match e-mail addresses the viewer may see (Gitea's SearchByEmail). */
  byEmail?: boolean;
}

@Injectable()
export class UsersRepository {
  constructor(private readonly db: Database) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.db.manager;
  }

  findById(id: number, manager?: EntityManager): Promise<UserEntity | null> {
    return this.db.findOneBy(UserEntity, { id }, manager);
  }

  findByIds(ids: number[]): Promise<UserEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.manager.find(UserEntity, { where: { id: In([...new Set(ids)]) } });
  }

  /** Users and organizations share one namespace, case-insensitively. */
  findByName(name: string, manager?: EntityManager): Promise<UserEntity | null> {
    return this.db.findOneBy(UserEntity, { lowerName: name.toLowerCase() }, manager);
  }

  /** The account an old login of a renamed user or organization leads to (Gitea's LookupUserRedirect), null when none does. */
  async renamedTo(name: string): Promise<UserEntity | null> {
    const row = await this.db.manager.findOne(UserRedirectEntity, { where: { lowerName: name.toLowerCase() } });
    return row ? this.findById(row.redirectUserId) : null;
  }

  /** The individual whose primary address, or any verified secondary one, is `email` (Gitea's GetUserByEmail). */
  async findIndividualByEmail(email: string, manager?: EntityManager): Promise<UserEntity | null> {
    const lower = email.toLowerCase();
    const primary = await this.m(manager)
      .createQueryBuilder(UserEntity, 'u')
      .where('LOWER(u.email) = :email AND u.type = :type', { email: lower, type: UserType.individual })
      .getOne();
    if (primary) return primary;
    const other = await this.m(manager).findOne(EmailAddressEntity, { where: { lowerEmail: lower, isActivated: true } });
    return other ? this.findById(other.uid, manager) : null;
  }

  /** A new user or organization; an old login it takes leads nowhere else from now on (Gitea's DeleteUserRedirect in CreateUser and CreateOrganization). */
  async insert(manager: EntityManager, user: Partial<UserEntity>): Promise<UserEntity> {
    if (user.lowerName) await manager.delete(UserRedirectEntity, { lowerName: user.lowerName });
    return manager.save(UserEntity, manager.create(UserEntity, user));
  }

  async update(manager: EntityManager, id: number, changes: Partial<UserEntity>): Promise<void> {
    await manager.update(UserEntity, { id }, changes);
  }

  async delete(manager: EntityManager, id: number): Promise<void> {
    await manager.delete(UserEntity, { id });
    // Its old logins lead nowhere now (Gitea deletes user_redirect rows with the user).
    await manager.delete(UserRedirectEntity, { redirectUserId: id });
    // The account's SSH keys must not outlive it (a later account could never claim them).
    await manager.delete(PublicKeyEntity, { ownerId: id });
    // Its badges go with it (Gitea's DeleteUser removes the user_badge rows).
    await manager.delete(UserBadgeEntity, { userId: id });
  }

  /** Gitea's NewUserRedirect: `oldName` leads to the account from now on, and no redirect sits on its new name. */
  async addRedirect(manager: EntityManager, id: number, oldName: string, newName: string): Promise<void> {
    await manager.delete(UserRedirectEntity, { lowerName: newName.toLowerCase() });
    if (oldName.toLowerCase() === newName.toLowerCase()) return;
    await manager.delete(UserRedirectEntity, { lowerName: oldName.toLowerCase() });
    await manager.insert(UserRedirectEntity, { lowerName: oldName.toLowerCase(), redirectUserId: id });
  }

  /** Applies a star count when it is newer than the one the user shows. */
  async setStarCount(manager: EntityManager, c: UserStarCount): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(UserEntity)
      .set({ numStars: c.numStars, starCountVersion: c.version })
      .where('id = :id AND star_count_version < :version', { id: c.userId, version: c.version })
      .execute();
  }

  /**
   * Individuals never activated, created before `before` (delete_inactive_accounts). Site
   * administrators are never among them: a deactivated administrator is suspended, not abandoned.
   */
  findInactiveIndividualsBefore(before: Date): Promise<UserEntity[]> {
    return this.db.manager
      .createQueryBuilder(UserEntity, 'u')
      .where('u.type = :type AND u.is_active = :inactive AND u.is_admin = :admin AND u.created_at < :before', { type: UserType.individual, inactive: false, admin: false, before: before.getTime() })
      .orderBy('u.id', 'ASC')
      .getMany();
  }

  async countAdmins(manager?: EntityManager): Promise<number> {
    return this.m(manager).count(UserEntity, { where: { isAdmin: true, type: UserType.individual } });
  }

  /** Gitea's SearchUsers, ordered by name. */
  search(viewer: Viewer, search: UserSearch, options: ListOptions): Promise<[UserEntity[], number]> {
    const qb = this.db.manager.createQueryBuilder(UserEntity, 'u').where('u.type = :type', { type: search.type });
    const keyword = search.keyword?.trim().toLowerCase();
    if (keyword) {
      const like = containsPattern(keyword);
      qb.andWhere(
        new Brackets((w) => {
          w.where("u.lower_name LIKE :like ESCAPE '\\'", { like }).orWhere("LOWER(u.full_name) LIKE :like ESCAPE '\\'", { like });
          if (search.byEmail) {
            // Addresses kept private only match for their owner and site admins.
            if (!viewer) w.orWhere("(LOWER(u.email) LIKE :like ESCAPE '\\' AND u.keep_email_private = :no)", { no: false });
            else if (!viewer.isAdmin) w.orWhere("(LOWER(u.email) LIKE :like ESCAPE '\\' AND (u.keep_email_private = :no OR u.id = :viewerId))", { no: false, viewerId: viewer.id });
            else w.orWhere("LOWER(u.email) LIKE :like ESCAPE '\\'");
          }
        }),
      );
    }
    if (search.visibilities) qb.andWhere('u.visibility IN (:...vis)', { vis: search.visibilities });
    this.whereCanSeeUser(qb, viewer);
    if (search.uid !== undefined && search.uid > 0) qb.andWhere('u.id = :uid', { uid: search.uid });
    return qb
      .orderBy('u.lower_name', 'ASC')
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  /** `GET /admin/users`: individuals of any visibility matching the filter, one page and the total. */
  adminSearch(filter: AdminUserFilter, options: ListOptions): Promise<[UserEntity[], number]> {
    const qb = this.db.manager.createQueryBuilder(UserEntity, 'u').where('u.type = :type', { type: UserType.individual });
    const keyword = filter.keyword?.toLowerCase();
    if (keyword) {
      const like = containsPattern(keyword);
      qb.andWhere("(u.lower_name LIKE :like ESCAPE '\\' OR LOWER(u.full_name) LIKE :like ESCAPE '\\' OR LOWER(u.email) LIKE :like ESCAPE '\\')", { like });
    }
    if (filter.loginName !== undefined) qb.andWhere('u.login_name = :loginName', { loginName: filter.loginName });
    // A source id beyond the column's range is no source: nobody signs in through it.
    if (filter.sourceId !== undefined) qb.andWhere(isRowIdRange(filter.sourceId) ? 'u.login_source = :sourceId' : '1 = 0', { sourceId: filter.sourceId });
    if (filter.visibility !== undefined) qb.andWhere('u.visibility = :visibility', { visibility: filter.visibility });
    const flags = [
      ['isActive', 'is_active'],
      ['isAdmin', 'is_admin'],
      ['isRestricted', 'is_restricted'],
      ['isProhibitLogin', 'prohibit_login'],
    ] as const;
    for (const [key, column] of flags) {
      if (filter[key] !== undefined) qb.andWhere(`u.${column} = :${key}`, { [key]: filter[key] });
    }
    if (filter.is2faEnabled === true) qb.andWhere('1 = 0');
    return qb
      .orderBy(`u.${filter.orderBy.column}`, filter.orderBy.direction)
      .addOrderBy('u.id', filter.orderBy.direction)
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  /**
   * Gitea's BuildCanSeeUserCondition (search results): anonymous callers see public accounts; a
   * signed-in caller its own account, organizations it belongs to and, unless restricted, every
   * public or limited account; site admins everything.
   */
  private whereCanSeeUser(qb: WhereExpressionBuilder, viewer: Viewer): void {
    if (!viewer) {
      qb.andWhere('u.visibility = :pub', { pub: 'public' });
      return;
    }
    if (viewer.isAdmin) return;
    qb.andWhere(
      new Brackets((w) => {
        w.where('u.id = :viewerId', { viewerId: viewer.id }).orWhere(
          `u.id IN (SELECT ou.org_id FROM org_user ou WHERE ou.user_id = :viewerId)`,
        );
        if (!viewer.isRestricted) w.orWhere('u.visibility IN (:...open)', { open: ['public', 'limited'] });
      }),
    );
  }

  /**
   * Gitea's isUserVisibleToViewerCond (follower lists): anonymous and restricted callers see public
   * accounts; others every account that is not private, plus private ones that follow them or share
   * a team with them; site admins everything.
   */
  private whereVisibleToViewer(qb: SelectQueryBuilder<UserEntity>, viewer: Viewer): void {
    if (viewer?.isAdmin) return;
    if (!viewer || viewer.isRestricted) {
      qb.andWhere('u.visibility = :pub', { pub: 'public' });
      return;
    }
    qb.andWhere(
      new Brackets((w) => {
        w.where('u.visibility <> :priv', { priv: 'private' })
          .orWhere('u.id = :viewerId', { viewerId: viewer.id })
          .orWhere('u.id IN (SELECT f.user_id FROM follow f WHERE f.follow_id = :viewerId)')
          .orWhere(
            'u.id IN (SELECT tu.user_id FROM team_user tu INNER JOIN team_user t2 ON tu.org_id = t2.org_id WHERE t2.user_id = :viewerId)',
          )
          .orWhere('u.id IN (SELECT tu3.org_id FROM team_user tu3 WHERE tu3.user_id = :viewerId)');
      }),
    );
  }

  /** Individuals who follow `userId` (or whom it follows), as the viewer may see them, oldest follow first. */
  follows(direction: 'followers' | 'following', userId: number, viewer: Viewer, options: ListOptions): Promise<[UserEntity[], number]> {
    const qb = this.db.manager.createQueryBuilder(UserEntity, 'u');
    if (direction === 'followers') qb.innerJoin(FollowEntity, 'f', 'f.user_id = u.id AND f.follow_id = :userId', { userId });
    else qb.innerJoin(FollowEntity, 'f', 'f.follow_id = u.id AND f.user_id = :userId', { userId });
    qb.where('u.type = :type', { type: UserType.individual });
    this.whereVisibleToViewer(qb, viewer);
    // offset/limit rather than skip/take: TypeORM pages joined queries through a DISTINCT
    // sub-select that cannot order by the joined follow row.
    return qb
      .orderBy('f.id', 'ASC')
      .offset((options.page - 1) * options.limit)
      .limit(options.limit)
      .getManyAndCount();
  }

  /** `GET /orgs`: organizations of these visibilities the viewer may see, by name. */
  listOrganizations(viewer: Viewer, visibilities: Visibility[], options: ListOptions): Promise<[UserEntity[], number]> {
    const qb = this.db.manager
      .createQueryBuilder(UserEntity, 'u')
      .where('u.type = :type', { type: UserType.organization })
      .andWhere('u.visibility IN (:...vis)', { vis: visibilities });
    this.whereCanSeeUser(qb, viewer);
    return qb
      .orderBy('u.lower_name', 'ASC')
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  /**
   * Gitea's FindOrgs for a user: organizations of these visibilities where it is a member, all of
   * its memberships or only the public ones. By name.
   */
  organizationsOf(
    userId: number,
    filter: { allMemberships: boolean; visibilities: Visibility[] },
    options: ListOptions,
  ): Promise<[UserEntity[], number]> {
    const qb = this.db.manager
      .createQueryBuilder(UserEntity, 'u')
      .innerJoin(OrgUserEntity, 'ou', 'ou.org_id = u.id AND ou.user_id = :userId', { userId })
      .where('u.type = :type', { type: UserType.organization })
      .andWhere('u.visibility IN (:...vis)', { vis: filter.visibilities });
    if (!filter.allMemberships) qb.andWhere('ou.is_public = :yes', { yes: true });
    return qb
      .orderBy('u.lower_name', 'ASC')
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  /** Whether `userId` is in a team of `orgId`, or shares an organization's team with it (IsUserVisibleToViewer). */
  async sharesTeam(userOrOrgId: number, viewerId: number): Promise<boolean> {
    const n = await this.db.manager
      .createQueryBuilder(TeamUserEntity, 'tu')
      .where('tu.user_id = :viewerId', { viewerId })
      .andWhere(
        new Brackets((w) => {
          w.where('tu.org_id = :id', { id: userOrOrgId }).orWhere('tu.org_id IN (SELECT t2.org_id FROM team_user t2 WHERE t2.user_id = :id)');
        }),
      )
      .getCount();
    return n > 0;
  }

  async isFollowing(userId: number, followId: number, manager?: EntityManager): Promise<boolean> {
    return (await this.m(manager).count(FollowEntity, { where: { userId, followId } })) > 0;
  }

  /** Ids of accounts with one of `visibilities`, except `exceptIds`. */
  async idsWithVisibility(visibilities: Visibility[], exceptIds: number[]): Promise<number[]> {
    const qb = this.db.manager.createQueryBuilder(UserEntity, 'u').select('u.id', 'id').where('u.visibility IN (:...visibilities)', { visibilities });
    if (exceptIds.length > 0) qb.andWhere('u.id NOT IN (:...exceptIds)', { exceptIds });
    return (await qb.getRawMany<{ id: number | string }>()).map((r) => Number(r.id));
  }

  /** Organizations the user is a member of. */
  async orgIdsOfMember(userId: number): Promise<number[]> {
    const rows = await this.db.manager.find(OrgUserEntity, { where: { userId } });
    return rows.map((r) => r.orgId);
  }
}
