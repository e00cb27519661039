import { Body, Controller, Delete, Get, HttpCode, Param, Patch } from '@nestjs/common';
import { EditRepoOption, RepoPatterns, type Actor, type Repository } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';

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

  @Patch()
  @Access({ signIn: true })
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
}
