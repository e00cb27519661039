import { Injectable } from '@nestjs/common';
import { Brackets, In, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { chunksOf, containsPattern, Database, escapeLike } from '@gitforge/platform';
import type { ListOptions, OwnerFilter, RepoIssueCounters } from '@gitforge/contracts';
import { CollaborationEntity } from '../access/collaboration.entity.js';
import { DeployKeyEntity } from '../keys/deploy-key.entity.js';
import { LanguageStatEntity } from '../languages/language-stat.entity.js';
import { TopicEntity } from '../topics/topic.entity.js';
import { BranchProtectionEntity } from '../protections/branch-protection.entity.js';
import { TagProtectionEntity } from '../protections/tag-protection.entity.js';
import { RepoRedirectEntity, RepoTransferEntity } from '../transfers/transfer.entities.js';
import { WatchEntity } from '../watches/watch.entity.js';
import { LfsLockEntity, LfsMetaObjectEntity } from '../lfs/lfs.entities.js';
import { ReleaseAssetEntity, ReleaseEntity } from '../releases/release.entity.js';
import { RepositoryEntity } from './repository.entity.js';

export interface RepoListFilter {
  ownerIds: number[];
  /** Repositories reached otherwise (collaborations, team links). */
  alsoIds?: number[];
  /** Which private repositories the viewer may list: all of them, none, or these ids. */
  privateVisible: 'all' | 'none' | number[];
  /** Oldest first, or by name (Gitea's SearchRepository default, used by `GET /user/repos`). */
  orderBy: 'id' | 'name';
}

/** Gitea's repository search, once permissions and visibility are resolved into ids. */
export interface RepoSearchFilter {
  keywords: string[];
  topicOnly: boolean;
  includeDescription: boolean;
  /** Site admin with private repositories asked for: no access condition at all. */
  unrestricted: boolean;
  /** Private repositories asked for (signed in and `private` not false). */
  includePrivate: boolean;
  owners: OwnerFilter;
  /** Owners whose every repository the actor reaches (itself, organizations it owns or has an all-repositories team in). */
  fullOwnerIds: number[];
  /** Repositories the actor reaches one by one (collaborations, team links). */
  reachableIds: number[];
  /** Owned by this account (`uid`; with {@link collaboration}, or else those). */
  ownerId?: number;
  /**
   * `uid`'s collaborations (Gitea's SearchRepositoryCondition): repositories of others it reaches
   * directly, through its teams, or as public ones of private organizations it belongs to, less
   * those of organizations whose membership it keeps private; `owned` says whether its own count too.
   */
  collaboration?: { owned: boolean; repoIds: number[]; orgIds: number[]; publicOfOrgIds: number[]; exceptOrgIds: number[] };
  /** `team_id`: an organization's repositories, all or these. */
  team?: { orgId: number; ids: number[] | null };
  isPrivate?: boolean;
  template?: boolean;
  archived?: boolean;
  fork?: boolean;
  mirror?: boolean;
  /** Only forks of this repository. */
  forkOf?: number;
  /** Only repositories this user starred (`starredBy`, `/users/{username}/starred`). */
  starredBy?: number;
  /** Only repositories this user watches (`/users/{username}/subscriptions`). */
  watchedBy?: number;
  priorityOwnerId?: number;
  /**
   * A keyword of the form `owner/name` (Gitea's SearchRepositoryCondition): also repositories whose
   * owner name contains `owner` and name contains `name`, those of an owner named `owner` first.
   */
  ownerAndName?: { owner: string; name: string };
  /** Entity columns, in order; `ownerName` sorts by the owner's login regardless of case. */
  orderBy: { columns: string[]; direction: 'ASC' | 'DESC' };
}

/** Advisory-lock class of repositories being created (PostgreSQL's two-key form: class, repository id). */
const CREATING_LOCK = 0x67667263;

@Injectable()
export class ReposRepository {
  constructor(private readonly db: Database) {}

  /**
   * Marks a repository id as being created until the transaction `m` ends, whether it commits,
   * rolls back, or its connection dies with its process. On SQLite every transaction is serialised
   * already, so another transaction never sees one in flight.
   */
  async holdCreation(m: EntityManager, id: number): Promise<void> {
    await this.db.sql.lockForTransaction(m, [CREATING_LOCK, id]);
  }

  /** Takes that mark for the transaction `m` if no creation holds it: false while a create is in flight. */
  async tryHoldCreation(m: EntityManager, id: number): Promise<boolean> {
    return this.db.sql.tryLockForTransaction(m, [CREATING_LOCK, id]);
  }

  findByOwnerAndName(ownerId: number, name: string, manager?: EntityManager): Promise<RepositoryEntity | null> {
    return this.db.findOneBy(RepositoryEntity, { ownerId, lowerName: name.toLowerCase() }, manager);
  }

  /** An owner's fork of a repository (Gitea's GetForkedRepo). */
  findById(id: number, manager?: EntityManager): Promise<RepositoryEntity | null> {
    return this.db.findOneBy(RepositoryEntity, { id }, manager);
  }

  /** The owner's fork of a repository (Gitea's GetUserFork: at most one per owner). */
  findForkOf(baseId: number, ownerId: number, manager?: EntityManager): Promise<RepositoryEntity | null> {
    return this.db.findOneBy(RepositoryEntity, { forkId: baseId, ownerId }, manager);
  }

  /** The direct forks of a repository. */
  findForks(parentId: number): Promise<RepositoryEntity[]> {
    return this.db.manager.find(RepositoryEntity, { where: { forkId: parentId }, order: { id: 'ASC' } });
  }

  findByIds(ids: number[]): Promise<RepositoryEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.manager.find(RepositoryEntity, { where: { id: In(ids) } });
  }

  /** Repositories of some owners (and some other ids) in the filter's order, one page and the total. */
  list(filter: RepoListFilter, options: ListOptions): Promise<[RepositoryEntity[], number]> {
    const qb = this.db.manager.createQueryBuilder(RepositoryEntity, 'r');
    qb.where(
      new Brackets((w) => {
        w.where('1 = 0');
        if (filter.ownerIds.length > 0) w.orWhere('r.owner_id IN (:...ownerIds)', { ownerIds: filter.ownerIds });
        if (filter.alsoIds && filter.alsoIds.length > 0) w.orWhere('r.id IN (:...alsoIds)', { alsoIds: filter.alsoIds });
      }),
    );
    const pv = filter.privateVisible;
    if (pv === 'none' || (Array.isArray(pv) && pv.length === 0)) qb.andWhere('r.is_private = :no', { no: false });
    else if (Array.isArray(pv)) qb.andWhere('(r.is_private = :no OR r.id IN (:...privateIds))', { no: false, privateIds: pv });
    if (filter.orderBy === 'name') qb.orderBy('r.lower_name', 'ASC').addOrderBy('r.id', 'ASC');
    else qb.orderBy('r.id', 'ASC');
    return qb
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  /** One owner's repositories (optionally only these ids or lower-case names), by name, one page and the total. */
  findForOwner(filter: { ownerId: number; ids?: number[]; lowerNames?: string[] }, options: ListOptions): Promise<[RepositoryEntity[], number]> {
    const qb = this.db.manager.createQueryBuilder(RepositoryEntity, 'r').where('r.owner_id = :ownerId', { ownerId: filter.ownerId });
    if (filter.ids) qb.andWhere(filter.ids.length > 0 ? 'r.id IN (:...ids)' : '1 = 0', { ids: filter.ids });
    if (filter.lowerNames) qb.andWhere(filter.lowerNames.length > 0 ? 'r.lower_name IN (:...names)' : '1 = 0', { names: filter.lowerNames });
    return qb
      .orderBy('r.lower_name', 'ASC')
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  /** Which of these lower-case names an owner's repositories have, in slices of a bounded size. */
  async takenNames(ownerId: number, lowerNames: string[]): Promise<string[]> {
    const taken: string[] = [];
    for (const names of chunksOf(lowerNames)) {
      const rows = await this.db.manager.find(RepositoryEntity, { select: { lowerName: true }, where: { ownerId, lowerName: In(names) } });
      taken.push(...rows.map((r) => r.lowerName));
    }
    return taken;
  }

  /** Every repository of an owner (deleting them all). */
  allOfOwner(ownerId: number): Promise<RepositoryEntity[]> {
    return this.db.manager.find(RepositoryEntity, { where: { ownerId }, order: { id: 'ASC' } });
  }

  countForOwner(ownerId: number): Promise<number> {
    return this.db.manager.count(RepositoryEntity, { where: { ownerId } });
  }

  /**
   * The row, locked until the transaction ends (PostgreSQL; SQLite transactions are serialised
   * already): replicas that finish pushes to one repository update it one after the other.
   */
  lockById(manager: EntityManager, id: number): Promise<RepositoryEntity | null> {
    return manager.findOne(RepositoryEntity, { where: { id }, ...this.db.sql.rowLock('pessimistic_write') });
  }

  /** Owners (after `afterId`) of repositories whose owner name is not known yet (rows from before the column), a page at a time. */
  async ownerIdsWithoutName(afterId: number, limit: number): Promise<number[]> {
    const rows = await this.db.manager
      .createQueryBuilder(RepositoryEntity, 'r')
      .select('DISTINCT r.owner_id', 'owner_id')
      .where('r.owner_name = :none AND r.owner_id > :afterId', { none: '', afterId })
      .orderBy('r.owner_id', 'ASC')
      .limit(limit)
      .getRawMany<{ owner_id: number | string }>();
    return rows.map((r) => Number(r.owner_id));
  }

  /** Records `name` as the owner name of every repository of `ownerId` that shows another. */
  async setOwnerName(ownerId: number, name: string): Promise<void> {
    await this.db.manager
      .createQueryBuilder()
      .update(RepositoryEntity)
      .set({ ownerName: name })
      .where('owner_id = :ownerId AND owner_name <> :name', { ownerId, name })
      .execute();
  }

  insert(manager: EntityManager, repo: Partial<RepositoryEntity>): Promise<RepositoryEntity> {
    return manager.save(RepositoryEntity, manager.create(RepositoryEntity, repo));
  }

  async update(manager: EntityManager, id: number, changes: Partial<RepositoryEntity>): Promise<void> {
    await manager.update(RepositoryEntity, { id }, changes);
  }

  /** Applies issue-service's counts unless newer ones are already stored (a late, older write loses). */
  async setIssueCounters(manager: EntityManager, c: RepoIssueCounters): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(RepositoryEntity)
      .set({ numOpenIssues: c.numIssues - c.numClosedIssues, numOpenPulls: c.numPulls - c.numClosedPulls, issueCountersVersion: c.version })
      .where('id = :id AND issue_counters_version < :version', { id: c.repoId, version: c.version })
      .execute();
  }

  /** A direct grant on a new repository (its creator, when teams do not make it an administrator). */
  async addCollaboration(manager: EntityManager, repoId: number, userId: number, mode: number): Promise<void> {
    await manager.insert(CollaborationEntity, { repoId, userId, mode });
  }

  /** Gitea's CopyLFS: a fork references every LFS object its parent does, so its clones find them. */
  async copyLfsObjects(manager: EntityManager, fromId: number, toId: number): Promise<void> {
    const rows = await manager.find(LfsMetaObjectEntity, { where: { repoId: fromId }, order: { id: 'ASC' } });
    const createdAt = new Date();
    for (const slice of chunksOf(rows, 200)) {
      await manager.insert(LfsMetaObjectEntity, slice.map((r) => ({ repoId: toId, oid: r.oid, size: r.size, createdAt })));
    }
  }

  async addForks(manager: EntityManager, id: number, delta: 1 | -1): Promise<void> {
    const qb = manager
      .createQueryBuilder()
      .update(RepositoryEntity)
      .set({ numForks: () => `num_forks + ${delta}` })
      .where('id = :id', { id });
    if (delta < 0) qb.andWhere('num_forks > 0');
    await qb.execute();
  }

  /** A deleted repository's forks stand on their own from then on (Gitea's DeleteRepository). */
  async detachForks(manager: EntityManager, parentId: number): Promise<void> {
    await manager.update(RepositoryEntity, { forkId: parentId }, { isFork: false, forkId: null });
  }

  async delete(manager: EntityManager, id: number): Promise<void> {
    const topics = (await manager.findOne(RepositoryEntity, { where: { id } }))?.topics ?? [];
    await manager.delete(RepositoryEntity, { id });
    if (topics.length > 0) {
      // `GET /topics/search` counts repositories per topic: a deleted one no longer counts.
      await manager.decrement(TopicEntity, { name: In(topics) }, 'repoCount', 1);
      await manager.delete(TopicEntity, { name: In(topics), repoCount: 0 });
    }
    // Grants and rules die with the repository, so a later repository can never inherit them.
    await manager.delete(CollaborationEntity, { repoId: id });
    await manager.delete(BranchProtectionEntity, { repoId: id });
    await manager.delete(TagProtectionEntity, { repoId: id });
    // Its pending transfer and its old names go too (Gitea deletes repo_redirect rows with the repository).
    await manager.delete(RepoTransferEntity, { repoId: id });
    await manager.delete(RepoRedirectEntity, { redirectRepoId: id });
    await manager.delete(WatchEntity, { repoId: id });
    // Its deploy keys go too, and the public keys no other repository uses.
    await manager.delete(DeployKeyEntity, { repoId: id });
    await manager.query('DELETE FROM deploy_public_key WHERE id NOT IN (SELECT key_id FROM deploy_key)');
    await manager.delete(LanguageStatEntity, { repoId: id });
    await manager.delete(ReleaseAssetEntity, { repoId: id });
    await manager.delete(ReleaseEntity, { repoId: id });
    // Its LFS references and locks (Gitea's DeleteRepository); the objects no other repository references go after the commit.
    await manager.delete(LfsMetaObjectEntity, { repoId: id });
    await manager.delete(LfsLockEntity, { repoId: id });
  }

  /** The oids of the LFS objects a repository references, read before its rows go (repository deletion). */
  async lfsOids(manager: EntityManager, repoId: number): Promise<string[]> {
    return (await manager.find(LfsMetaObjectEntity, { where: { repoId }, select: { oid: true } })).map((r) => r.oid);
  }

  /** Those of `oids` that no repository references any more: their bytes can go. */
  async unreferencedLfsOids(oids: string[]): Promise<string[]> {
    const referenced = new Set<string>();
    for (const slice of chunksOf(oids)) {
      for (const r of await this.db.manager.find(LfsMetaObjectEntity, { where: { oid: In(slice) }, select: { oid: true } })) referenced.add(r.oid);
    }
    return oids.filter((oid) => !referenced.has(oid));
  }

  search(f: RepoSearchFilter, options: ListOptions): Promise<[RepositoryEntity[], number]> {
    return this.searchQuery(f)
      .addOrderBy('r.id', f.orderBy.direction)
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  /** Every id the search finds, unpaged (issue search across the repositories an actor reaches). */
  async searchIds(f: RepoSearchFilter): Promise<number[]> {
    const rows = await this.searchQuery(f).select('r.id', 'id').getRawMany<{ id: number }>();
    return rows.map((r) => Number(r.id));
  }

  private searchQuery(f: RepoSearchFilter): SelectQueryBuilder<RepositoryEntity> {
    const qb = this.db.manager.createQueryBuilder(RepositoryEntity, 'r');
    qb.where('1 = 1');
    if (f.keywords.length > 0) {
      qb.andWhere(
        new Brackets((w) => {
          f.keywords.forEach((kw, i) => {
            // A topic matches whole (its JSON string in the column); a name or description anywhere.
            const like = { [`kw${i}`]: containsPattern(kw) };
            const exact = { [`topic${i}`]: `%${escapeLike(JSON.stringify(kw.toLowerCase()))}%` };
            if (f.topicOnly) {
              w.orWhere(`LOWER(r.topics) LIKE :topic${i} ESCAPE '\\'`, exact);
              return;
            }
            // Outside topic-only searches a topic matches in part, as a name does (Gitea's LIKE on topic.name);
            // a keyword no topic can hold (topics are [a-z0-9.-]) is not looked for in their JSON text.
            const topicPart = /^[a-z0-9.-]+$/.test(kw) ? { [`topic${i}`]: containsPattern(kw) } : exact;
            w.orWhere(`r.lower_name LIKE :kw${i} ESCAPE '\\'`, like).orWhere(`LOWER(r.topics) LIKE :topic${i} ESCAPE '\\'`, topicPart);
            if (f.ownerAndName) {
              w.orWhere(`(LOWER(r.owner_name) LIKE :ownerPart ESCAPE '\\' AND r.lower_name LIKE :namePart ESCAPE '\\')`, {
                ownerPart: containsPattern(f.ownerAndName.owner),
                namePart: containsPattern(f.ownerAndName.name),
              });
            }
            if (f.includeDescription) w.orWhere(`LOWER(r.description) LIKE :kw${i} ESCAPE '\\'`, like);
          });
        }),
      );
    }
    if (!f.unrestricted) {
      qb.andWhere(
        new Brackets((w) => {
          // Public repositories of owners the actor may see …
          w.where(
            new Brackets((pub) => {
              pub.where('r.is_private = :no', { no: false });
              if ('hidden' in f.owners && f.owners.hidden.length > 0) pub.andWhere('r.owner_id NOT IN (:...hiddenOwners)', { hiddenOwners: f.owners.hidden });
              if ('only' in f.owners) pub.andWhere(f.owners.only.length > 0 ? 'r.owner_id IN (:...onlyOwners)' : '1 = 0', { onlyOwners: f.owners.only });
            }),
          );
          // … and, when asked for, the private ones it reaches.
          if (f.includePrivate && f.fullOwnerIds.length > 0) w.orWhere('r.owner_id IN (:...fullOwners)', { fullOwners: f.fullOwnerIds });
          if (f.reachableIds.length > 0) {
            w.orWhere(f.includePrivate ? 'r.id IN (:...reachable)' : '(r.id IN (:...reachable) AND r.is_private = :no)', {
              reachable: f.reachableIds,
              no: false,
            });
          }
        }),
      );
    } else if (!f.includePrivate) {
      qb.andWhere('r.is_private = :no', { no: false });
    }
    if (f.ownerId !== undefined && f.collaboration) {
      const c = f.collaboration;
      qb.andWhere(
        new Brackets((w) => {
          w.where('1 = 0');
          if (c.owned) w.orWhere('r.owner_id = :uid', { uid: f.ownerId });
          w.orWhere(
            new Brackets((other) => {
              other.where('r.owner_id <> :uid', { uid: f.ownerId });
              other.andWhere(
                new Brackets((reach) => {
                  reach.where('1 = 0');
                  if (c.repoIds.length > 0) reach.orWhere('r.id IN (:...collabRepos)', { collabRepos: c.repoIds });
                  if (c.orgIds.length > 0) reach.orWhere('r.owner_id IN (:...collabOrgs)', { collabOrgs: c.orgIds });
                  if (c.publicOfOrgIds.length > 0) reach.orWhere('(r.is_private = :pub AND r.owner_id IN (:...memberOrgs))', { pub: false, memberOrgs: c.publicOfOrgIds });
                }),
              );
              if (c.exceptOrgIds.length > 0) other.andWhere('r.owner_id NOT IN (:...concealedOrgs)', { concealedOrgs: c.exceptOrgIds });
            }),
          );
        }),
      );
    } else if (f.ownerId !== undefined) {
      qb.andWhere('r.owner_id = :uid', { uid: f.ownerId });
    }
    if (f.forkOf !== undefined) qb.andWhere('r.fork_id = :forkOf', { forkOf: f.forkOf });
    if (f.starredBy !== undefined) qb.andWhere('r.id IN (SELECT s.repo_id FROM star s WHERE s.user_id = :starredBy)', { starredBy: f.starredBy });
    if (f.watchedBy !== undefined) qb.andWhere('r.id IN (SELECT w.repo_id FROM watch w WHERE w.user_id = :watchedBy)', { watchedBy: f.watchedBy });
    if (f.team) {
      qb.andWhere('r.owner_id = :teamOrg', { teamOrg: f.team.orgId });
      if (f.team.ids) qb.andWhere(f.team.ids.length > 0 ? 'r.id IN (:...teamIds)' : '1 = 0', { teamIds: f.team.ids });
    }
    for (const [key, column] of [
      ['isPrivate', 'is_private'],
      ['template', 'is_template'],
      ['archived', 'is_archived'],
      ['fork', 'is_fork'],
      ['mirror', 'is_mirror'],
    ] as const) {
      if (f[key] !== undefined) qb.andWhere(`r.${column} = :${key}`, { [key]: f[key] });
    }
    // Gitea's searchRepositoryByCondition: the priority owner first and the others by owner id,
    // else with an `owner/name` keyword the repositories of that owner first; then the order asked for.
    if (f.priorityOwnerId) {
      qb.addSelect('CASE WHEN r.owner_id = :priority THEN 0 ELSE r.owner_id END', 'priority_rank').setParameter('priority', f.priorityOwnerId);
      qb.orderBy('priority_rank', 'ASC');
    } else if (f.ownerAndName) {
      qb.addSelect('CASE WHEN LOWER(r.owner_name) = :priorityOwner THEN 0 ELSE 1 END', 'priority_rank').setParameter('priorityOwner', f.ownerAndName.owner);
      qb.orderBy('priority_rank', 'ASC');
    }
    for (const column of f.orderBy.columns) {
      if (column === 'ownerName') {
        qb.addSelect('LOWER(r.owner_name)', 'owner_sort').addOrderBy('owner_sort', f.orderBy.direction);
      } else {
        qb.addOrderBy(`r.${column}`, f.orderBy.direction);
      }
    }
    return qb;
  }
}
