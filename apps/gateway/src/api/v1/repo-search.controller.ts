import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RepoPatterns, type Actor, type Page, type Repository, type SearchResults } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paged } from '../../http/paged.js';

/** `GET /repos/search` (a sibling of `/repos/{owner}/{repo}` in Gitea's route tree). */
@Controller('api/v1/repos/search')
@Access({ scope: 'repository' })
export class RepoSearchController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly paged: Paged,
  ) {}

  @Get()
  async search(
    @CurrentActor() actor: Actor | null,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SearchResults<Repository>> {
    const page = await this.rpc.call<Page<Repository>>(RepoPatterns.search, { actor, query });
    return { ok: true, data: this.paged.send(req, reply, page) };
  }
}
