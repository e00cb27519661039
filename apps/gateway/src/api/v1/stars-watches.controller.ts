import { Controller, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import { StarPatterns, WatchPatterns, type Actor, type Page, type Repository, type User, type WatchInfo } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

/**
 * Stars and watches (Gitea's routers/api/v1/user/star.go and watch.go). Starring answers 204 and
 * a check 204 or 404; watching answers WatchInfo, and its check 404 when the caller does not watch.
 * Gitea sends only X-Total-Count with stargazers and subscribers, and Link too with the lists of
 * repositories.
 */
@Controller('api/v1')
@Access({ scope: 'repository' })
export class StarsWatchesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('user/starred')
  @Access({ signIn: true, scope: 'user' })
  @Paginated()
  myStars(@CurrentActor() actor: Actor, @Query() query: Record<string, string>): Promise<Page<Repository>> {
    return this.rpc.call<Page<Repository>>(StarPatterns.listForUser, { actor, params: {}, query });
  }

  @Get('user/starred/:owner/:repo')
  @Access({ signIn: true, scope: 'user' })
  @HttpCode(204)
  async isStarring(@CurrentActor() actor: Actor, @Param('owner') owner: string, @Param('repo') repo: string): Promise<void> {
    await this.rpc.call(StarPatterns.check, { actor, params: { owner, repo } });
  }

  @Put('user/starred/:owner/:repo')
  @Access({ signIn: true, scope: 'user' })
  @HttpCode(204)
  async star(@CurrentActor() actor: Actor, @Param('owner') owner: string, @Param('repo') repo: string): Promise<void> {
    await this.rpc.call(StarPatterns.star, { actor, params: { owner, repo } });
  }

  @Delete('user/starred/:owner/:repo')
  @Access({ signIn: true, scope: 'user' })
  @HttpCode(204)
  async unstar(@CurrentActor() actor: Actor, @Param('owner') owner: string, @Param('repo') repo: string): Promise<void> {
    await this.rpc.call(StarPatterns.unstar, { actor, params: { owner, repo } });
  }

  @Get('repos/:owner/:repo/stargazers')
  @Paginated({ link: false })
  stargazers(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<User>> {
    return this.rpc.call<Page<User>>(StarPatterns.stargazers, { actor, params: { owner, repo }, query });
  }

  @Get('repos/:owner/:repo/subscription')
  @Access({ signIn: true })
  isWatching(@CurrentActor() actor: Actor, @Param('owner') owner: string, @Param('repo') repo: string): Promise<WatchInfo> {
    return this.rpc.call(WatchPatterns.get, { actor, params: { owner, repo } });
  }

  @Put('repos/:owner/:repo/subscription')
  @Access({ signIn: true })
  watch(@CurrentActor() actor: Actor, @Param('owner') owner: string, @Param('repo') repo: string): Promise<WatchInfo> {
    return this.rpc.call(WatchPatterns.watch, { actor, params: { owner, repo } });
  }

  @Delete('repos/:owner/:repo/subscription')
  @Access({ signIn: true })
  @HttpCode(204)
  async unwatch(@CurrentActor() actor: Actor, @Param('owner') owner: string, @Param('repo') repo: string): Promise<void> {
    await this.rpc.call(WatchPatterns.unwatch, { actor, params: { owner, repo } });
  }

  @Get('repos/:owner/:repo/subscribers')
  @Paginated({ link: false })
  subscribers(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<User>> {
    return this.rpc.call<Page<User>>(WatchPatterns.subscribers, { actor, params: { owner, repo }, query });
  }
}

/** The lists of someone's stars and subscriptions: Gitea's route group wants a token with the user scope. */
@Controller('api/v1')
@Access({ scope: 'user' })
export class UserStarsWatchesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('users/:username/starred')
  @Access({ signIn: true })
  @Paginated()
  userStars(@CurrentActor() actor: Actor, @Param('username') username: string, @Query() query: Record<string, string>): Promise<Page<Repository>> {
    return this.rpc.call<Page<Repository>>(StarPatterns.listForUser, { actor, params: { username }, query });
  }

  @Get('user/subscriptions')
  @Access({ signIn: true })
  @Paginated()
  mySubscriptions(@CurrentActor() actor: Actor, @Query() query: Record<string, string>): Promise<Page<Repository>> {
    return this.rpc.call<Page<Repository>>(WatchPatterns.listForUser, { actor, params: {}, query });
  }

  @Get('users/:username/subscriptions')
  @Access({ signIn: true })
  @Paginated()
  userSubscriptions(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Repository>> {
    return this.rpc.call<Page<Repository>>(WatchPatterns.listForUser, { actor, params: { username }, query });
  }
}
