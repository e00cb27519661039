import { Controller, Get, HttpCode, Param, Patch, Put, Query } from '@nestjs/common';
import { NotificationPatterns, type Actor, type NotificationCount, type NotificationThread, type Page } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

type NotificationQuery = Record<string, string | string[]>;

/**
 * Gitea's notification routes (routers/api/v1/notify): the signed-in user's threads. Marking
 * answers 205 Reset Content with the threads changed, as Gitea does; lists carry X-Total-Count
 * and no Link header, as Gitea's.
 */
@Controller('api/v1')
@Access({ signIn: true, scope: 'notification', rejectPublicOnly: true })
export class NotificationsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('notifications')
  @Paginated()
  list(@CurrentActor() actor: Actor, @Query() query: NotificationQuery): Promise<Page<NotificationThread>> {
    return this.rpc.call<Page<NotificationThread>>(NotificationPatterns.list, { actor, params: {}, query });
  }

  @Put('notifications')
  @HttpCode(205)
  markAll(@CurrentActor() actor: Actor, @Query() query: NotificationQuery): Promise<NotificationThread[]> {
    return this.rpc.call(NotificationPatterns.markMany, { actor, params: {}, query });
  }

  @Get('notifications/new')
  countNew(@CurrentActor() actor: Actor): Promise<NotificationCount> {
    return this.rpc.call(NotificationPatterns.countNew, { actor });
  }

  @Get('notifications/threads/:id')
  getThread(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<NotificationThread> {
    return this.rpc.call(NotificationPatterns.getThread, { actor, params: { id } });
  }

  @Patch('notifications/threads/:id')
  @HttpCode(205)
  markThread(@CurrentActor() actor: Actor, @Param('id') id: string, @Query() query: NotificationQuery): Promise<NotificationThread> {
    return this.rpc.call(NotificationPatterns.markThread, { actor, params: { id }, query });
  }
}

/** `/repos/{owner}/{repo}/notifications`: the same threads of one repository the caller may see (404 otherwise). */
@Controller('api/v1/repos/:owner/:repo/notifications')
@Access({ signIn: true, scope: 'notification' })
export class RepoNotificationsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @Paginated()
  listForRepo(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: NotificationQuery,
  ): Promise<Page<NotificationThread>> {
    return this.rpc.call<Page<NotificationThread>>(NotificationPatterns.list, { actor, params: { owner, repo }, query });
  }

  @Put()
  @HttpCode(205)
  markRepo(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: NotificationQuery,
  ): Promise<NotificationThread[]> {
    return this.rpc.call(NotificationPatterns.markMany, { actor, params: { owner, repo }, query });
  }
}
