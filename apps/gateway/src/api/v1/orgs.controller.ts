import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CreateOrgOption,
  CreateRepoOption,
  OrgPatterns,
  RepoPatterns,
  type Actor,
  type Organization,
  type Page,
  type Repository,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paged } from '../../http/paged.js';

/** `/orgs`: organizations and their repositories. */
@Controller('api/v1/orgs')
@Access({ scope: 'organization' })
export class OrgsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly paged: Paged,
  ) {}

  @Post()
  @Access({ signIn: true })
  create(@CurrentActor() actor: Actor, @Body() body: CreateOrgOption): Promise<Organization> {
    return this.rpc.call(OrgPatterns.create, { actor, body });
  }

  @Get(':org')
  get(@CurrentActor() actor: Actor | null, @Param('org') org: string): Promise<Organization> {
    return this.rpc.call(OrgPatterns.get, { actor, params: { org } });
  }

  @Get(':org/repos')
  async repos(
    @CurrentActor() actor: Actor | null,
    @Param('org') org: string,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Repository[]> {
    return this.paged.send(req, reply, await this.rpc.call<Page<Repository>>(RepoPatterns.listForOrg, { actor, params: { org }, query }));
  }

  @Post(':org/repos')
  @Access({ signIn: true })
  createRepo(@CurrentActor() actor: Actor, @Param('org') org: string, @Body() body: CreateRepoOption): Promise<Repository> {
    return this.rpc.call(RepoPatterns.createForOrg, { actor, params: { org }, body });
  }
}
