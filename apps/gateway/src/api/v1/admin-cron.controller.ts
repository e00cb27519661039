import { Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CronPatterns, type Actor, type Cron, type Page } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';

/** A task runs inside the request (Gitea's POST is synchronous); a pass over every repository can take long. */
const RUN_TIMEOUT_MS = 6 * 60 * 60 * 1000;

/** `/admin/cron`: the scheduled tasks (admin-service). */
@Controller('api/v1/admin/cron')
@Access({ admin: true, scope: 'admin' })
export class AdminCronController {
  constructor(private readonly rpc: RpcClient) {}

  /** Paged in memory, with `X-Total-Count` and no `Link`, as Gitea answers it. */
  @Get()
  async list(
    @CurrentActor() actor: Actor,
    @Query() query: Record<string, string>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Cron[]> {
    const page = await this.rpc.call<Page<Cron>>(CronPatterns.list, {
      actor,
      query: { page: query.page, limit: query.limit },
    });
    void reply.header('X-Total-Count', String(page.total));
    return page.items;
  }

  /** 204 once the task has run (at once if it was running already); 404 for an unknown task. */
  @Post(':task')
  @HttpCode(204)
  async run(@CurrentActor() actor: Actor, @Param('task') task: string): Promise<void> {
    await this.rpc.call<void, { task: string }>(
      CronPatterns.run,
      { actor, params: { task } },
      { timeoutMs: RUN_TIMEOUT_MS },
    );
  }
}
