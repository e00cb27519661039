import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import {
  AddCollaboratorOption,
  CollaboratorPatterns,
  type Actor,
  type Page,
  type RepoCollaboratorPermission,
  type User,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

/** `/repos/{owner}/{repo}/collaborators` (Gitea: reqToken on the whole group). */
@Controller('api/v1/repos/:owner/:repo/collaborators')
@Access({ scope: 'repository', signIn: true })
export class RepoCollaboratorsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @Paginated({ link: false })
  list(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<User>> {
    return this.rpc.call<Page<User>>(CollaboratorPatterns.list, { actor, params: { owner, repo }, query });
  }

  @Get(':collaborator')
  @HttpCode(204)
  async check(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('collaborator') collaborator: string,
  ): Promise<void> {
    await this.rpc.call(CollaboratorPatterns.check, { actor, params: { owner, repo, collaborator } });
  }

  @Put(':collaborator')
  @Access({ repoRight: 'admin' })
  @HttpCode(204)
  async add(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('collaborator') collaborator: string,
    @Body() body: AddCollaboratorOption,
  ): Promise<void> {
    await this.rpc.call(CollaboratorPatterns.add, {
      actor,
      params: { owner, repo, collaborator },
      body: body ?? {},
    });
  }

  @Delete(':collaborator')
  @HttpCode(204)
  async remove(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('collaborator') collaborator: string,
  ): Promise<void> {
    await this.rpc.call(CollaboratorPatterns.remove, { actor, params: { owner, repo, collaborator } });
  }

  @Get(':collaborator/permission')
  permission(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('collaborator') collaborator: string,
  ): Promise<RepoCollaboratorPermission> {
    return this.rpc.call(CollaboratorPatterns.permission, { actor, params: { owner, repo, collaborator } });
  }
}
