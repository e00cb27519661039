import { Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { RepoTeamPatterns, type Actor, type Team } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';

/**
 * `/repos/{owner}/{repo}/teams`. Gitea looks the repository up (404) before asking for a token,
 * so sign-in is left to the service.
 */
@Controller('api/v1/repos/:owner/:repo/teams')
@Access({ scope: 'repository' })
export class RepoTeamsController {
  constructor(private readonly rpc: RpcClient) {}

  /** Unpaginated, as Gitea. */
  @Get()
  list(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
  ): Promise<Team[]> {
    return this.rpc.call(RepoTeamPatterns.list, { actor, params: { owner, repo } });
  }

  /** The team (200) when it reaches the repository, 404 otherwise. */
  @Get(':team')
  get(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('team') team: string,
  ): Promise<Team> {
    return this.rpc.call(RepoTeamPatterns.get, { actor, params: { owner, repo, team } });
  }

  @Put(':team')
  @HttpCode(204)
  async add(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('team') team: string,
  ): Promise<void> {
    await this.rpc.call(RepoTeamPatterns.add, { actor, params: { owner, repo, team } });
  }

  @Delete(':team')
  @HttpCode(204)
  async remove(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('team') team: string,
  ): Promise<void> {
    await this.rpc.call(RepoTeamPatterns.remove, { actor, params: { owner, repo, team } });
  }
}
