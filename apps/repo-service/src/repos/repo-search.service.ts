import { Injectable } from '@nestjs/common';
import {
  formBool,
  invalid,
  isPublicOnly,
  pageOf,
  TeamPatterns,
  unprocessable,
  type Actor,
  type ListOptions,
  type Page,
  type Repository,
  type TeamRepoScope,
  formInt64,
  idFrom,
  isRowIdRange,
  MAX_SEARCH_KEYWORDS,
  searchKeyword,
} from '@gitforge/contracts';
import { DirectoryClient, RpcClient } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import { ReposRepository, type RepoSearchFilter } from '../records/repos.repository.js';
import { ReposService } from './repos.service.js';

/** Raw query of `GET /repos/search`. */
export type RepoSearchQuery = Partial<
  Record<
    | 'q'
    | 'topic'
    | 'includeDesc'
    | 'uid'
    | 'priority_owner_id'
    | 'team_id'
    | 'starredBy'
    | 'private'
    | 'is_private'
    | 'template'
    | 'archived'
    | 'mode'
    | 'exclusive'
    | 'sort'
    | 'order',
    string
  >
>;

/** Gitea's repo_model.OrderByMap: sort names to columns (`alpha` is the owner's name, then the repository's). */
const SORT_COLUMNS: Record<string, string[]> = {
  alpha: ['ownerName', 'lowerName'],
  created: ['createdAt'],
  updated: ['updatedAt'],
  size: ['sizeKib'],
  git_size: ['sizeKib'],
  lfs_size: ['sizeKib'],
  id: ['id'],
  stars: ['numStars'],
  forks: ['numForks'],
};
/** Gitea's order without `sort`: by name (SearchOrderByAlphabetically). */
const BY_NAME = ['lowerName'];

/** Gitea's `owner/name` keyword: the whole keyword with exactly one slash, split there. */
function ownerAndName(q: string | undefined): { owner: string; name: string } | undefined {
  const keyword = searchKeyword(q).trim().toLowerCase();
  const parts = keyword.split('/');
  return parts.length === 2 ? { owner: parts[0]!, name: parts[1]! } : undefined;
}

/** Gitea's comma-separated keywords of a repository search, lower-cased; 422 past the length and count limits. */
function searchKeywords(q: string | undefined): string[] {
  const keywords = searchKeyword(q)
    .trim()
    .toLowerCase()
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (keywords.length > MAX_SEARCH_KEYWORDS) throw unprocessable(`a search takes at most ${MAX_SEARCH_KEYWORDS} keywords`);
  return keywords;
}

/** Gitea's FormOptionalBool: an absent or empty value is no filter. */
const optionalBool = (v: string | undefined): boolean | undefined => (v === undefined || v === '' ? undefined : formBool(v));

/**
 * `GET /repos/search` as Gitea's SearchRepository: what the actor may see (public repositories of
 * visible owners, and with `private` the private ones it reaches), narrowed by the query.
 */
@Injectable()
export class RepoSearchService {
  constructor(
    private readonly repos: ReposRepository,
    private readonly reposService: ReposService,
    private readonly access: RepoAccessService,
    private readonly rpc: RpcClient,
    private readonly directory: DirectoryClient,
  ) {}

  async search(actor: Actor | null, q: RepoSearchQuery, options: ListOptions): Promise<Page<Repository>> {
    const sort = q.sort ?? '';
    const order = q.order || 'asc';
    if (sort && order !== 'asc' && order !== 'desc') throw unprocessable(`Invalid sort order: "${order}"`);
    if (sort && !SORT_COLUMNS[sort]) throw unprocessable(`Invalid sort mode: "${sort}"`);
    const mode = q.mode ?? '';
    if (!['', 'source', 'fork', 'mirror', 'collaborative'].includes(mode)) throw unprocessable('invalid search mode');

    // Public-only tokens search public repositories only (Gitea's SearchRepoOptions.ApplyPublicOnly).
    const includePrivate =
      actor !== null && !isPublicOnly(actor.scopes) && (q.private === undefined || q.private === '' || formBool(q.private));
    const filter: RepoSearchFilter = {
      ...(await this.reachFilter(actor, includePrivate)),
      keywords: searchKeywords(q.q),
      topicOnly: formBool(q.topic),
      includeDescription: formBool(q.includeDesc),
      isPrivate: optionalBool(q.is_private),
      template: optionalBool(q.template),
      archived: optionalBool(q.archived),
      priorityOwnerId: idFrom(q.priority_owner_id) || undefined,
      orderBy: { columns: sort ? SORT_COLUMNS[sort]! : BY_NAME, direction: sort && order === 'desc' ? 'DESC' : 'ASC' },
    };
    const uid = formInt64(q.uid);
    const teamId = formInt64(q.team_id);
    const starredBy = formInt64(q.starredBy);
    // An owner, a team or a stargazer no row can be (beyond the id columns) has no repositories.
    if (!isRowIdRange(uid) || !isRowIdRange(teamId) || !isRowIdRange(starredBy)) return pageOf([], 0, options);
    if (starredBy > 0) filter.starredBy = starredBy;
    if (teamId === 0 && !filter.topicOnly) filter.ownerAndName = ownerAndName(q.q);
    if (mode === 'source') Object.assign(filter, { fork: false, mirror: false });
    if (mode === 'fork') filter.fork = true;
    if (mode === 'mirror') filter.mirror = true;
    if (mode === 'collaborative') filter.mirror = false;
    // Gitea's Collaborate: with `uid`, its own repositories and its collaborations; `exclusive` its
    // own only; the `collaborative` mode its collaborations only (without `uid` it narrows nothing).
    if (uid > 0) {
      filter.ownerId = uid;
      const collaborate = mode === 'collaborative' ? true : formBool(q.exclusive) ? false : undefined;
      if (collaborate !== false) filter.collaboration = await this.collaborationsOf(uid, collaborate === undefined, includePrivate);
    }
    if (teamId > 0) {
      // Gitea narrows by the team's repository links without asking about the team (visibility
      // still applies to the repositories); no such team, no repositories.
      const links = await this.rpc.call<TeamRepoScope | null>(TeamPatterns.repoLinks, { actor, params: { id: String(teamId) } });
      if (!links) return pageOf([], 0, options);
      filter.team = { orgId: links.orgId, ids: links.includesAllRepositories ? null : links.repoIds };
    }
    const [rows, total] = await this.repos.search(filter, options);
    return pageOf(await this.reposService.toApiMany(actor, rows), total, options);
  }

  /**
   * Where `uid` collaborates, as Gitea's SearchRepositoryCondition counts it: direct collaborations,
   * its teams' repositories, public repositories of private organizations it belongs to; without
   * private results, none of organizations whose membership it keeps private.
   */
  private async collaborationsOf(uid: number, owned: boolean, includePrivate: boolean): Promise<NonNullable<RepoSearchFilter['collaboration']>> {
    const [direct, teams] = await Promise.all([this.access.collaborationsOf(uid), this.directory.reachableReposOf(uid)]);
    return {
      owned,
      repoIds: [...new Set([...direct.map((c) => c.repoId), ...teams.repoIds])],
      orgIds: teams.orgIds,
      publicOfOrgIds: teams.privateOrgIds ?? [],
      exceptOrgIds: includePrivate ? [] : (teams.concealedOrgIds ?? []),
    };
  }

  /**
   * `GET /repos/{owner}/{repo}/forks` (Gitea's FindForks): the forks of a repository the actor can
   * see, site administrators all of them; oldest first.
   */
  async forks(actor: Actor | null, ownerName: string, repoName: string, options: ListOptions): Promise<Page<Repository>> {
    const ctx = await this.access.assign(actor, ownerName, repoName);
    const includePrivate = actor !== null && !isPublicOnly(actor.scopes);
    const filter: RepoSearchFilter = {
      ...(await this.reachFilter(actor, includePrivate)),
      keywords: [],
      topicOnly: false,
      includeDescription: false,
      forkOf: ctx.repo.id,
      orderBy: { columns: ['id'], direction: 'ASC' },
    };
    const [rows, total] = await this.repos.search(filter, options);
    return pageOf(await this.reposService.toApiMany(actor, rows), total, options);
  }

  /**
   * The repositories a user starred or watches, among those the actor may see; private ones only
   * when the actor asks about itself (Gitea's getStarredRepos and getWatchedRepos), by name.
   */
  async ofUser(actor: Actor | null, userId: number, relation: 'starredBy' | 'watchedBy', options: ListOptions): Promise<Page<Repository>> {
    const includePrivate = actor !== null && actor.id === userId && !isPublicOnly(actor.scopes);
    const filter: RepoSearchFilter = {
      ...(await this.reachFilter(actor, includePrivate)),
      keywords: [],
      topicOnly: false,
      includeDescription: false,
      [relation]: userId,
      orderBy: { columns: BY_NAME, direction: 'ASC' },
    };
    const [rows, total] = await this.repos.search(filter, options);
    return pageOf(await this.reposService.toApiMany(actor, rows), total, options);
  }

  /**
   * Ids of every repository the actor reaches (public ones of visible owners, and the private
   * ones it may read), optionally of one owner or one team of that owner: Gitea's repository
   * condition of `GET /repos/issues/search`. Unknown owners and teams are Gitea's 400.
   */
  async reachableIds(actor: Actor | null, scope: { owner?: string; team?: string }): Promise<number[]> {
    const includePrivate = actor !== null && !isPublicOnly(actor.scopes);
    const filter: RepoSearchFilter = {
      ...(await this.reachFilter(actor, includePrivate)),
      keywords: [],
      topicOnly: false,
      includeDescription: false,
      orderBy: { columns: ['id'], direction: 'ASC' },
    };
    if (scope.team && !scope.owner) throw invalid('Owner organisation is required for filtering on team');
    if (scope.owner) {
      const [owner] = await this.directory.accountsByNames(actor, [scope.owner]);
      if (!owner) throw invalid('Owner not found');
      filter.ownerId = owner.id;
      if (scope.team) {
        const [team] = await this.directory.teams(owner.id, { names: [scope.team] });
        if (!team) throw invalid('Team not found');
        const teamScope = await this.rpc.call<TeamRepoScope>(TeamPatterns.repoScope, { actor, params: { id: String(team.id) } });
        filter.team = { orgId: teamScope.orgId, ids: teamScope.includesAllRepositories ? null : teamScope.repoIds };
      }
    }
    return this.repos.searchIds(filter);
  }

  /** The part of a search filter that says what the actor reaches. */
  private async reachFilter(
    actor: Actor | null,
    includePrivate: boolean,
  ): Promise<Pick<RepoSearchFilter, 'unrestricted' | 'includePrivate' | 'owners' | 'fullOwnerIds' | 'reachableIds'>> {
    // Gitea's SearchRepositoryCondition without `private`: the public repositories of public owners,
    // whoever asks (not those of limited or private owners the actor could see).
    if (!includePrivate) return { unrestricted: false, includePrivate, owners: await this.directory.ownerFilter(null), fullOwnerIds: [], reachableIds: [] };
    const [owners, reach, collaborations] = await Promise.all([
      this.directory.ownerFilter(actor),
      actor ? this.directory.reachableRepos(actor) : Promise.resolve({ orgIds: [], repoIds: [] }),
      actor ? this.access.collaborationsOf(actor.id) : Promise.resolve([]),
    ]);
    return {
      unrestricted: actor?.isAdmin === true && includePrivate,
      includePrivate,
      owners,
      fullOwnerIds: actor ? [actor.id, ...reach.orgIds] : [],
      reachableIds: [...reach.repoIds, ...collaborations.map((c) => c.repoId)],
    };
  }
}
