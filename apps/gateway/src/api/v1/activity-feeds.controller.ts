import { Controller, Get, Param, Query } from '@nestjs/common';
import { FeedPatterns, type Activity, type Actor, type Page, type UserHeatmapData } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

/**
 * Activity feeds: `date` (YYYY-MM-DD), `page`, `limit`. Gitea answers them with X-Total-Count
 * and no Link header.
 */
@Controller('api/v1')
export class ActivityFeedsController {
  constructor(private readonly rpc: RpcClient) {}

  private feed(
    pattern: string,
    actor: Actor | null,
    params: Record<string, string>,
    query: Record<string, string>,
  ): Promise<Page<Activity>> {
    return this.rpc.call<Page<Activity>>(pattern, { actor, params, query });
  }

  @Get('orgs/:org/activities/feeds')
  @Paginated({ link: false })
  @Access({ scope: 'organization' })
  org(
    @CurrentActor() actor: Actor | null,
    @Param('org') org: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Activity>> {
    return this.feed(FeedPatterns.org, actor, { org }, query);
  }

  @Get('users/:username/activities/feeds')
  @Paginated({ link: false })
  @Access({ scope: 'user' })
  user(
    @CurrentActor() actor: Actor | null,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Activity>> {
    return this.feed(FeedPatterns.user, actor, { username }, query);
  }

  /** Gitea's heatmap of a user's (or organization's) last year, per quarter hour. */
  @Get('users/:username/heatmap')
  @Access({ scope: 'user' })
  heatmap(@CurrentActor() actor: Actor | null, @Param('username') username: string): Promise<UserHeatmapData[]> {
    return this.rpc.call<UserHeatmapData[]>(FeedPatterns.userHeatmap, { actor, params: { username } });
  }

  @Get('repos/:owner/:repo/activities/feeds')
  @Paginated({ link: false })
  @Access({ scope: 'repository' })
  repo(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Activity>> {
    return this.feed(FeedPatterns.repo, actor, { owner, repo }, query);
  }

  /** Gitea's route for team feeds. */
  @Get('teams/:id/activities/feeds')
  @Paginated({ link: false })
  @Access({ signIn: true, scope: 'organization' })
  team(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Activity>> {
    return this.feed(FeedPatterns.team, actor, { id }, query);
  }

  /** The same under the organization (the team must belong to it). */
  @Get('orgs/:org/teams/:id/activities/feeds')
  @Paginated({ link: false })
  @Access({ signIn: true, scope: 'organization' })
  orgTeam(
    @CurrentActor() actor: Actor,
    @Param('org') org: string,
    @Param('id') id: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Activity>> {
    return this.feed(FeedPatterns.team, actor, { id, org }, query);
  }
}
