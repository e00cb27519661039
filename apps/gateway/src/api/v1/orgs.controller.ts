import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  CreateOrgOption,
  CreateRepoOption,
  CreateTeamOption,
  EditOrgOption,
  RenameOrgOption,
  OrgPatterns,
  RepoPatterns,
  TeamPatterns,
  type Actor,
  type MemberCheck,
  type Organization,
  type Page,
  type Repository,
  type Team,
  type User,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

/**
 * `/orgs`: organizations, their members, teams and repositories. Routes where Gitea looks up the
 * organization (404) before asking for a token leave sign-in to the service.
 */
@Controller('api/v1/orgs')
@Access({ scope: 'organization' })
export class OrgsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @Paginated()
  list(
    @CurrentActor() actor: Actor | null,
    @Query() query: Record<string, string>,
  ): Promise<Page<Organization>> {
    return this.rpc.call<Page<Organization>>(OrgPatterns.list, { actor, query });
  }

  @Post()
  @Access({ signIn: true })
  create(@CurrentActor() actor: Actor, @Body() body: CreateOrgOption): Promise<Organization> {
    return this.rpc.call(OrgPatterns.create, { actor, body });
  }

  @Get(':org')
  get(@CurrentActor() actor: Actor | null, @Param('org') org: string): Promise<Organization> {
    return this.rpc.call(OrgPatterns.get, { actor, params: { org } });
  }

  @Patch(':org')
  @Access({ orgOwner: true })
  edit(
    @CurrentActor() actor: Actor | null,
    @Param('org') org: string,
    @Body() body: EditOrgOption,
  ): Promise<Organization> {
    return this.rpc.call(OrgPatterns.edit, { actor, params: { org }, body });
  }

  @Delete(':org')
  @HttpCode(204)
  async delete(@CurrentActor() actor: Actor | null, @Param('org') org: string): Promise<void> {
    await this.rpc.call(OrgPatterns.delete, { actor, params: { org } });
  }

  /** Owners only; 204, or 422 when the new name is taken or not allowed. */
  @Post(':org/rename')
  @Access({ orgOwner: true })
  @HttpCode(204)
  async rename(
    @CurrentActor() actor: Actor | null,
    @Param('org') org: string,
    @Body() body: RenameOrgOption,
  ): Promise<void> {
    await this.rpc.call(OrgPatterns.rename, { actor, params: { org }, body });
  }

  @Get(':org/members')
  @Paginated()
  members(
    @CurrentActor() actor: Actor | null,
    @Param('org') org: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<User>> {
    return this.rpc.call<Page<User>>(OrgPatterns.listMembers, { actor, params: { org }, query });
  }

  /** 204 for a member, 404 otherwise, or 303 to the public member check for callers outside the organization. */
  @Get(':org/members/:username')
  async isMember(
    @CurrentActor() actor: Actor | null,
    @Param('org') org: string,
    @Param('username') username: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const check = await this.rpc.call<MemberCheck>(OrgPatterns.checkMember, {
      actor,
      params: { org, username },
    });
    if (check.redirect) await reply.code(303).header('Location', check.redirect).send();
    else await reply.code(204).send();
  }

  @Delete(':org/members/:username')
  @HttpCode(204)
  async removeMember(
    @CurrentActor() actor: Actor | null,
    @Param('org') org: string,
    @Param('username') username: string,
  ): Promise<void> {
    await this.rpc.call(OrgPatterns.removeMember, { actor, params: { org, username } });
  }

  @Get(':org/public_members')
  @Paginated()
  publicMembers(
    @CurrentActor() actor: Actor | null,
    @Param('org') org: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<User>> {
    return this.rpc.call<Page<User>>(OrgPatterns.listPublicMembers, { actor, params: { org }, query });
  }

  @Get(':org/public_members/:username')
  @HttpCode(204)
  async isPublicMember(
    @CurrentActor() actor: Actor | null,
    @Param('org') org: string,
    @Param('username') username: string,
  ): Promise<void> {
    await this.rpc.call(OrgPatterns.checkPublicMember, { actor, params: { org, username } });
  }

  @Put(':org/public_members/:username')
  @HttpCode(204)
  async publicize(
    @CurrentActor() actor: Actor | null,
    @Param('org') org: string,
    @Param('username') username: string,
  ): Promise<void> {
    await this.rpc.call(OrgPatterns.publicizeMember, { actor, params: { org, username } });
  }

  @Delete(':org/public_members/:username')
  @HttpCode(204)
  async conceal(
    @CurrentActor() actor: Actor | null,
    @Param('org') org: string,
    @Param('username') username: string,
  ): Promise<void> {
    await this.rpc.call(OrgPatterns.concealMember, { actor, params: { org, username } });
  }

  @Get(':org/teams')
  @Paginated()
  teams(
    @CurrentActor() actor: Actor | null,
    @Param('org') org: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Team>> {
    return this.rpc.call<Page<Team>>(TeamPatterns.listForOrg, { actor, params: { org }, query });
  }

  @Post(':org/teams')
  @Access({ orgOwner: 'members' })
  createTeam(
    @CurrentActor() actor: Actor | null,
    @Param('org') org: string,
    @Body() body: CreateTeamOption,
  ): Promise<Team> {
    return this.rpc.call(TeamPatterns.create, { actor, params: { org }, body });
  }

  /** Gitea's search envelope `{data, ok}`, with its paging headers. */
  @Get(':org/teams/search')
  @Paginated({ search: true })
  searchTeams(
    @CurrentActor() actor: Actor | null,
    @Param('org') org: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Team>> {
    return this.rpc.call<Page<Team>>(TeamPatterns.search, { actor, params: { org }, query });
  }

  @Get(':org/repos')
  @Paginated()
  repos(
    @CurrentActor() actor: Actor | null,
    @Param('org') org: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Repository>> {
    return this.rpc.call<Page<Repository>>(RepoPatterns.listForOrg, { actor, params: { org }, query });
  }

  @Post(':org/repos')
  @Access({ signIn: true })
  createRepo(
    @CurrentActor() actor: Actor,
    @Param('org') org: string,
    @Body() body: CreateRepoOption,
  ): Promise<Repository> {
    return this.rpc.call(RepoPatterns.createForOrg, { actor, params: { org }, body });
  }
}
