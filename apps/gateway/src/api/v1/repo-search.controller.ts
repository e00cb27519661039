import { Controller, Get, Query } from '@nestjs/common';
import { RepoPatterns, type Actor, type Page, type Repository } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

/** `GET /repos/search` (a sibling of `/repos/{owner}/{repo}` in Gitea's route tree). */
@Controller('api/v1/repos/search')
@Access({ scope: 'repository' })
export class RepoSearchController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @Paginated({ search: true })
  search(
    @CurrentActor() actor: Actor | null,
    @Query() query: Record<string, string>,
  ): Promise<Page<Repository>> {
    return this.rpc.call<Page<Repository>>(RepoPatterns.search, { actor, query });
  }
}
