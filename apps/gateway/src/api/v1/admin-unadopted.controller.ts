import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { UnadoptedPatterns, type Actor, type Page } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

type UnadoptedParams = { owner: string; repo: string };

/** `/admin/unadopted`: repositories dropped into the repositories volume in Gitea's layout (repo-service). */
@Controller('api/v1/admin/unadopted')
@Access({ admin: true, scope: 'admin' })
export class AdminUnadoptedController {
  constructor(private readonly rpc: RpcClient) {}

  /** `owner/name` strings; `query` (or `pattern`) is `<owner glob>[/<name glob>]`. `X-Total-Count` and no `Link`, as Gitea answers. */
  @Get()
  @Paginated({ link: false })
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, string>): Promise<Page<string>> {
    return this.rpc.call<Page<string>>(UnadoptedPatterns.list, {
      actor,
      query: { page: query.page, limit: query.limit, query: query.query, pattern: query.pattern },
    });
  }

  /** 204 once the directory is a private repository of the owner. */
  @Post(':owner/:repo')
  @HttpCode(204)
  async adopt(@CurrentActor() actor: Actor, @Param() params: UnadoptedParams): Promise<void> {
    await this.rpc.call<void, UnadoptedParams>(UnadoptedPatterns.adopt, { actor, params: { owner: params.owner, repo: params.repo } });
  }

  /** 204 once the directory is gone. */
  @Delete(':owner/:repo')
  @HttpCode(204)
  async remove(@CurrentActor() actor: Actor, @Param() params: UnadoptedParams): Promise<void> {
    await this.rpc.call<void, UnadoptedParams>(UnadoptedPatterns.delete, { actor, params: { owner: params.owner, repo: params.repo } });
  }
}
