import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  RepoLanguagePatterns,
  RepoLicensePatterns,
  TopicSearchPatterns,
  type Actor,
  type LanguageStatistics,
  type Page,
  type TopicResponse,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paged } from '../../http/paged.js';

/** `GET /repos/{owner}/{repo}/languages`: bytes per language of the default branch. */
@Controller('api/v1/repos/:owner/:repo/languages')
@Access({ scope: 'repository' })
export class RepoLanguagesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  get(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
  ): Promise<LanguageStatistics> {
    return this.rpc.call(RepoLanguagePatterns.languages, { actor, params: { owner, repo } });
  }
}

/** `GET /repos/{owner}/{repo}/licenses`: the SPDX ids of the default branch's license file. */
@Controller('api/v1/repos/:owner/:repo/licenses')
@Access({ scope: 'repository' })
export class RepoLicensesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  get(@CurrentActor() actor: Actor | null, @Param('owner') owner: string, @Param('repo') repo: string): Promise<string[]> {
    return this.rpc.call(RepoLicensePatterns.get, { actor, params: { owner, repo } });
  }
}

/** `GET /topics/search?q=`: Gitea answers `{topics: [...]}` with X-Total-Count and no Link. */
@Controller('api/v1/topics/search')
@Access({ scope: 'repository' })
export class TopicSearchController {
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
  ): Promise<{ topics: TopicResponse[] }> {
    const page = await this.rpc.call<Page<TopicResponse>>(TopicSearchPatterns.search, {
      actor,
      params: {},
      query,
    });
    return { topics: this.paged.send(req, reply, page, { link: false }) };
  }
}
