import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { AddTimeOption, TrackedTimePatterns, type Actor, type Page, type StopWatch, type TrackedTime } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

type QueryParams = Record<string, string>;
type IssueParams = { owner: string; repo: string; index: string };

/**
 * Tracked times and stopwatches. Gitea files them under three scopes: the issue routes under
 * `issue`, `/repos/{o}/{r}/times` under `repository`, and the caller's own under `user`. Every
 * listing sets X-Total-Count only.
 */
@Controller('api/v1')
export class TimesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('repos/:owner/:repo/issues/:index/times')
  @Access({ scope: 'issue' })
  @Paginated({ link: false })
  listForIssue(@CurrentActor() actor: Actor | null, @Param() params: IssueParams, @Query() query: QueryParams): Promise<Page<TrackedTime>> {
    return this.rpc.call(TrackedTimePatterns.listForIssue, { actor, params, query });
  }

  /** Gitea answers with 200, not 201. */
  @Post('repos/:owner/:repo/issues/:index/times')
  @Access({ scope: 'issue' })
  @HttpCode(200)
  add(@CurrentActor() actor: Actor | null, @Param() params: IssueParams, @Body() body: AddTimeOption): Promise<TrackedTime> {
    return this.rpc.call(TrackedTimePatterns.add, { actor, params, body });
  }

  @Delete('repos/:owner/:repo/issues/:index/times')
  @Access({ scope: 'issue' })
  @HttpCode(204)
  async reset(@CurrentActor() actor: Actor | null, @Param() params: IssueParams): Promise<void> {
    await this.rpc.call(TrackedTimePatterns.reset, { actor, params });
  }

  @Delete('repos/:owner/:repo/issues/:index/times/:id')
  @Access({ scope: 'issue' })
  @HttpCode(204)
  async delete(@CurrentActor() actor: Actor | null, @Param() params: IssueParams & { id: string }): Promise<void> {
    await this.rpc.call(TrackedTimePatterns.delete, { actor, params });
  }

  @Post('repos/:owner/:repo/issues/:index/stopwatch/start')
  @Access({ scope: 'issue' })
  @HttpCode(201)
  async startStopwatch(@CurrentActor() actor: Actor | null, @Param() params: IssueParams): Promise<void> {
    await this.rpc.call(TrackedTimePatterns.startStopwatch, { actor, params });
  }

  @Post('repos/:owner/:repo/issues/:index/stopwatch/stop')
  @Access({ scope: 'issue' })
  @HttpCode(201)
  async stopStopwatch(@CurrentActor() actor: Actor | null, @Param() params: IssueParams): Promise<void> {
    await this.rpc.call(TrackedTimePatterns.stopStopwatch, { actor, params });
  }

  @Delete('repos/:owner/:repo/issues/:index/stopwatch/delete')
  @Access({ scope: 'issue' })
  @HttpCode(204)
  async deleteStopwatch(@CurrentActor() actor: Actor | null, @Param() params: IssueParams): Promise<void> {
    await this.rpc.call(TrackedTimePatterns.deleteStopwatch, { actor, params });
  }

  @Get('repos/:owner/:repo/times')
  @Access({ scope: 'repository' })
  @Paginated({ link: false })
  listForRepo(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string }, @Query() query: QueryParams): Promise<Page<TrackedTime>> {
    return this.rpc.call(TrackedTimePatterns.listForRepo, { actor, params, query });
  }

  /** Deprecated in Gitea for `times?user=`; unpaged, with no paging headers. */
  @Get('repos/:owner/:repo/times/:user')
  @Access({ scope: 'repository' })
  listForRepoUser(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; user: string }): Promise<TrackedTime[]> {
    return this.rpc.call(TrackedTimePatterns.listForRepoUser, { actor, params });
  }

  @Get('user/times')
  @Access({ signIn: true, scope: 'user', rejectPublicOnly: true })
  @Paginated({ link: false })
  listForActor(@CurrentActor() actor: Actor | null, @Query() query: QueryParams): Promise<Page<TrackedTime>> {
    return this.rpc.call(TrackedTimePatterns.listForActor, { actor, params: {}, query });
  }

  @Get('user/stopwatches')
  @Access({ signIn: true, scope: 'user', rejectPublicOnly: true })
  @Paginated({ link: false })
  listStopwatches(@CurrentActor() actor: Actor | null, @Query() query: QueryParams): Promise<Page<StopWatch>> {
    return this.rpc.call(TrackedTimePatterns.listStopwatches, { actor, params: {}, query });
  }
}
