import { Injectable } from '@nestjs/common';
import {
  ContractError,
  forbidden,
  notFound,
  pageOf,
  RepoFactPatterns,
  TeamFactPatterns,
  UserPatterns,
  type Activity,
  type ActivityActor,
  type Actor,
  type ListOptions,
  type Page,
  type RepoAccess,
  type TeamFeedScope,
  type Repository,
  type User,
  type UserHeatmapData,
  idFrom,
} from '@gitforge/contracts';
import { DirectoryClient, RpcClient } from '@gitforge/platform';
import { toActivity } from './activity.mapper.js';
import { FeedsRepository, type FeedFilter } from './feeds.repository.js';

/** Gitea counts a year of actions. */
const HEATMAP_SPAN_MS = 365 * 86_400_000;

export interface FeedQuery {
  options: ListOptions;
  /** Gitea's `date` filter (YYYY-MM-DD, server time); anything unparsable is ignored. */
  date?: string;
}

/** The day `date` names, in the server's time zone, as [from, to) epoch ms; undefined when it does not parse. */
export function dayRange(date: string | undefined): [number, number] | undefined {
  const m = date ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
  if (!m) return undefined;
  const from = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (from.getFullYear() !== Number(m[1]) || from.getMonth() !== Number(m[2]) - 1 || from.getDate() !== Number(m[3])) return undefined;
  return [from.getTime(), from.getTime() + 86_400_000];
}

/**
 * Whose actions a viewer sees (Gitea's activityQueryCondition): users who do not hide their
 * activity, public ones to anyone and limited ones to signed-in viewers; everyone to site
 * admins; oneself always, hidden or not.
 */
export function actorVisible(viewer: Actor | null, actor: ActivityActor): boolean {
  const { user, hideActivity } = actor;
  if (!viewer) return !hideActivity && user.visibility === 'public';
  if (viewer.isAdmin || viewer.id === user.id) return true;
  return !hideActivity && (user.visibility === 'public' || user.visibility === 'limited');
}

/**
 * Gitea's activity feeds (models/activities GetFeeds): entries of repositories the viewer can
 * read, by actors the viewer can see (public users for anonymous viewers, also limited ones
 * for signed-in viewers; everyone for site admins); private repositories' entries only where
 * the feed includes them (members, the user themself, readers of the repository).
 */
@Injectable()
export class FeedsService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly feeds: FeedsRepository,
    private readonly directory: DirectoryClient,
  ) {}

  async orgFeed(actor: Actor | null, org: string, query: FeedQuery): Promise<Page<Activity>> {
    // An old name of a renamed organization: Gitea's orgAssignment redirects (307).
    const owner = await this.directory.ownerInPath(actor, org, notFound());
    if (owner.owner.kind !== 'organization' || !owner.visible) throw notFound();
    return this.feed(actor, { userId: owner.owner.id, includePrivate: !!actor && (actor.isAdmin || owner.isOrgMember) }, query);
  }

  async userFeed(actor: Actor | null, username: string, onlyPerformedBy: boolean, query: FeedQuery): Promise<Page<Activity>> {
    const user = await this.rpc.call<User, { username: string }>(UserPatterns.get, { actor, params: { username } });
    const self = !!actor && (actor.isAdmin || actor.id === user.id);
    return this.feed(actor, { userId: user.id, actUserId: onlyPerformedBy ? user.id : undefined, includePrivate: self }, query);
  }

  /**
   * Gitea's GetUserHeatmapDataByUser: the last year of the feed, counted per quarter hour, of
   * what the user did (for an organization, what happened in its feed), in repositories the
   * viewer can read. Nothing for a user who keeps their activity private, but to themself and
   * site admins (ActivityReadable).
   */
  async userHeatmap(actor: Actor | null, username: string): Promise<UserHeatmapData[]> {
    const user = await this.rpc.call<User, { username: string }>(UserPatterns.get, { actor, params: { username } });
    const [[account], [subject]] = await Promise.all([
      this.directory.accountsByIds(actor, [user.id]),
      this.rpc.call<ActivityActor[], Record<string, string>, { ids: number[] }>(UserPatterns.activityActors, { actor, body: { ids: [user.id] } }),
    ]);
    if (!account || !subject) throw notFound();
    if (subject.hideActivity && !(actor && (actor.isAdmin || actor.id === user.id))) return [];
    const filter: FeedFilter = {
      userId: user.id,
      actUserId: account.kind === 'organization' ? undefined : user.id,
      includePrivate: true,
      between: [Date.now() - HEATMAP_SPAN_MS, Number.MAX_SAFE_INTEGER],
    };
    const { repoIds, actUserIds } = await this.visible(actor, filter);
    return this.feeds.countByQuarterHour(filter, [...repoIds.keys()], [...actUserIds.keys()]);
  }

  async repoFeed(actor: Actor | null, owner: string, repo: string, query: FeedQuery): Promise<Page<Activity>> {
    const access = await this.rpc.call<RepoAccess, { owner: string; repo: string }>(RepoFactPatterns.access, { actor, params: { owner, repo } });
    return this.feed(actor, { repoId: access.id, actorCopyOnly: true, includePrivate: true }, query);
  }

  /** Team feeds: for site admins, organization owners and the team's members (other members get 403, outsiders 404). */
  async teamFeed(actor: Actor | null, teamId: string, org: string | undefined, query: FeedQuery): Promise<Page<Activity>> {
    if (!actor) throw new ContractError('unauthenticated', 'token is required');
    const scope = await this.rpc.call<TeamFeedScope, Record<string, string>, { teamId: number }>(TeamFactPatterns.feedScope, {
      actor,
      body: { teamId: idFrom(teamId) },
    });
    if (org !== undefined && scope.orgLogin.toLowerCase() !== org.toLowerCase()) throw notFound();
    if (!actor.isAdmin && !scope.isOrgOwner && !scope.isTeamMember) {
      if (scope.isOrgMember) throw forbidden('Must be a team member');
      throw notFound();
    }
    const filter: FeedFilter = { userId: scope.orgId, includePrivate: true };
    if (!scope.includesAllRepositories) filter.repoIds = scope.repoIds;
    return this.feed(actor, filter, query);
  }

  /** The repositories the viewer can read and the actors it can see among a filter's entries (one call each). */
  private async visible(actor: Actor | null, filter: FeedFilter): Promise<{ repoIds: Map<number, Repository>; actUserIds: Map<number, User> }> {
    const involved = await this.feeds.involved(filter);
    if (involved.repoIds.length === 0) return { repoIds: new Map(), actUserIds: new Map() };
    const [repos, users] = await Promise.all([
      this.rpc.call<RepoAccess[], Record<string, string>, { ids: number[] }>(RepoFactPatterns.accessMany, { actor, body: { ids: involved.repoIds } }),
      this.rpc.call<ActivityActor[], Record<string, string>, { ids: number[] }>(UserPatterns.activityActors, { actor, body: { ids: involved.actUserIds } }),
    ]);
    return {
      repoIds: new Map(repos.map((r) => [r.id, r.repository])),
      actUserIds: new Map(users.filter((u) => actorVisible(actor, u)).map((u) => [u.user.id, u.user])),
    };
  }

  private async feed(actor: Actor | null, filter: FeedFilter, query: FeedQuery): Promise<Page<Activity>> {
    const options = query.options;
    filter.between = dayRange(query.date);
    const { repoIds: readable, actUserIds: byId } = await this.visible(actor, filter);
    if (readable.size === 0) return pageOf([], 0, options);
    const [rows, total] = await this.feeds.page(filter, [...readable.keys()], [...byId.keys()], options);
    return pageOf(
      rows.map((a) => toActivity(a, readable.get(a.repoId) ?? null, byId.get(a.actUserId) ?? null)),
      total,
      options,
    );
  }
}
