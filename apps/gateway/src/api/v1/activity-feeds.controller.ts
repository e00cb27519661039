import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FeedPatterns, type Activity, type Actor, type Page } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paged } from '../../http/paged.js';

/**
 * Activity feeds: `date` (YYYY-MM-DD), `page`, `limit`. Gitea answers them with X-Total-Count
 * and no Link header.
 */
@Controller('api/v1')
export class ActivityFeedsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly paged: Paged,
  ) {}

  private async send(pattern: string, actor: Actor | null, params: Record<string, string>, query: Record<string, string>, req: FastifyRequest, reply: FastifyReply): Promise<Activity[]> {
    return this.paged.send(req, reply, await this.rpc.call<Page<Activity>>(pattern, { actor, params, query }), { link: false });
  }

  @Get('orgs/:org/activities/feeds')
  @Access({ scope: 'organization' })
  org(
    @CurrentActor() actor: Actor | null,
    @Param('org') org: string,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Activity[]> {
    return this.send(FeedPatterns.org, actor, { org }, query, req, reply);
  }

  @Get('users/:username/activities/feeds')
  @Access({ scope: 'user' })
  user(
    @CurrentActor() actor: Actor | null,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Activity[]> {
    return this.send(FeedPatterns.user, actor, { username }, query, req, reply);
  }

  @Get('repos/:owner/:repo/activities/feeds')
  @Access({ scope: 'repository' })
  repo(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Activity[]> {
    return this.send(FeedPatterns.repo, actor, { owner, repo }, query, req, reply);
  }

  /** Gitea's route for team feeds. */
  @Get('teams/:id/activities/feeds')
  @Access({ signIn: true, scope: 'organization' })
  team(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Activity[]> {
    return this.send(FeedPatterns.team, actor, { id }, query, req, reply);
  }

  /** The same under the organization (the team must belong to it). */
  @Get('orgs/:org/teams/:id/activities/feeds')
  @Access({ signIn: true, scope: 'organization' })
  orgTeam(
    @CurrentActor() actor: Actor,
    @Param('org') org: string,
    @Param('id') id: string,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Activity[]> {
    return this.send(FeedPatterns.team, actor, { id, org }, query, req, reply);
  }
}
