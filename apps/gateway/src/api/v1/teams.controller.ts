import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Put, Query } from '@nestjs/common';
import {
  EditTeamOption,
  TeamPatterns,
  type Actor,
  type Page,
  type Repository,
  type Team,
  type User,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

/**
 * `/teams/{id}`. Gitea looks the team up (404) before asking for a token, so sign-in is left to
 * the service. `{org}` in the repository routes is not used: Gitea looks the repository up in
 * the team's organization.
 */
@Controller('api/v1/teams/:id')
@Access({ scope: 'organization' })
export class TeamsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  get(@CurrentActor() actor: Actor | null, @Param('id') id: string): Promise<Team> {
    return this.rpc.call(TeamPatterns.get, { actor, params: { id } });
  }

  @Patch()
  edit(
    @CurrentActor() actor: Actor | null,
    @Param('id') id: string,
    @Body() body: EditTeamOption,
  ): Promise<Team> {
    return this.rpc.call(TeamPatterns.edit, { actor, params: { id }, body });
  }

  @Delete()
  @HttpCode(204)
  async delete(@CurrentActor() actor: Actor | null, @Param('id') id: string): Promise<void> {
    await this.rpc.call(TeamPatterns.delete, { actor, params: { id } });
  }

  @Get('members')
  @Paginated({ link: false })
  members(
    @CurrentActor() actor: Actor | null,
    @Param('id') id: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<User>> {
    return this.rpc.call<Page<User>>(TeamPatterns.listMembers, { actor, params: { id }, query });
  }

  @Get('members/:username')
  member(
    @CurrentActor() actor: Actor | null,
    @Param('id') id: string,
    @Param('username') username: string,
  ): Promise<User> {
    return this.rpc.call(TeamPatterns.getMember, { actor, params: { id, username } });
  }

  @Put('members/:username')
  @HttpCode(204)
  async addMember(
    @CurrentActor() actor: Actor | null,
    @Param('id') id: string,
    @Param('username') username: string,
  ): Promise<void> {
    await this.rpc.call(TeamPatterns.addMember, { actor, params: { id, username } });
  }

  @Delete('members/:username')
  @HttpCode(204)
  async removeMember(
    @CurrentActor() actor: Actor | null,
    @Param('id') id: string,
    @Param('username') username: string,
  ): Promise<void> {
    await this.rpc.call(TeamPatterns.removeMember, { actor, params: { id, username } });
  }

  @Get('repos')
  @Paginated({ link: false })
  repos(
    @CurrentActor() actor: Actor | null,
    @Param('id') id: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Repository>> {
    return this.rpc.call<Page<Repository>>(TeamPatterns.listRepos, { actor, params: { id }, query });
  }

  @Get('repos/:org/:repo')
  repo(
    @CurrentActor() actor: Actor | null,
    @Param('id') id: string,
    @Param('repo') repo: string,
  ): Promise<Repository> {
    return this.rpc.call(TeamPatterns.getRepo, { actor, params: { id, repo } });
  }

  @Put('repos/:org/:repo')
  @HttpCode(204)
  async addRepo(
    @CurrentActor() actor: Actor | null,
    @Param('id') id: string,
    @Param('repo') repo: string,
  ): Promise<void> {
    await this.rpc.call(TeamPatterns.addRepo, { actor, params: { id, repo } });
  }

  @Delete('repos/:org/:repo')
  @HttpCode(204)
  async removeRepo(
    @CurrentActor() actor: Actor | null,
    @Param('id') id: string,
    @Param('repo') repo: string,
  ): Promise<void> {
    await this.rpc.call(TeamPatterns.removeRepo, { actor, params: { id, repo } });
  }
}
