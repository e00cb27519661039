import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CreateForkOption, EditRepoOption, notFound, RepoPatterns, type Actor, type Page, type Repository } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

/** `/repos/{owner}/{repo}`. */
@Controller('api/v1/repos/:owner/:repo')
@Access({ scope: 'repository' })
export class ReposController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  get(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
  ): Promise<Repository> {
    return this.rpc.call(RepoPatterns.get, { actor, params: { owner, repo } });
  }

  /** A repository's signing key: none, as for the instance (see MiscController), once the repository is visible. */
  @Get(['signing-key.gpg', 'signing-key.pub'])
  async signingKey(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
  ): Promise<never> {
    await this.rpc.call(RepoPatterns.get, { actor, params: { owner, repo } });
    throw notFound('no signing key');
  }

  @Patch()
  @Access({ signIn: true, repoRight: 'admin' })
  edit(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Body() body: EditRepoOption,
  ): Promise<Repository> {
    return this.rpc.call(RepoPatterns.edit, { actor, params: { owner, repo }, body });
  }

  @Delete()
  @Access({ signIn: true })
  @HttpCode(204)
  async delete(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
  ): Promise<void> {
    await this.rpc.call(RepoPatterns.delete, { actor, params: { owner, repo } });
  }

  /** The forks the caller may see, oldest first (Gitea's FindForks), with Link and X-Total-Count. */
  @Get('forks')
  @Paginated()
  listForks(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Repository>> {
    return this.rpc.call<Page<Repository>>(RepoPatterns.listForks, { actor, params: { owner, repo }, query });
  }

  /** Gitea answers a fork with 202 (its "TODO change back to 201"). */
  @Post('forks')
  @Access({ signIn: true })
  @HttpCode(202)
  fork(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Body() body: CreateForkOption,
  ): Promise<Repository> {
    return this.rpc.call(RepoPatterns.fork, { actor, params: { owner, repo }, body });
  }
}
