import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CreateAccessTokenOption,
  OrgPatterns,
  RepoPatterns,
  TokenPatterns,
  UserPatterns,
  type AccessToken,
  type Actor,
  type Organization,
  type Page,
  type Repository,
  type SearchResults,
  type User,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paged } from '../../http/paged.js';

/** `/users/{username}`: any account, as the caller may see it. */
@Controller('api/v1/users')
@Access({ scope: 'user' })
export class UsersController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly paged: Paged,
  ) {}

  /** Gitea's search envelope `{data, ok}`, with its paging headers. */
  @Get('search')
  async search(
    @CurrentActor() actor: Actor | null,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SearchResults<User>> {
    const page = await this.rpc.call<Page<User>>(UserPatterns.search, { actor, query });
    return { ok: true, data: this.paged.send(req, reply, page) };
  }

  @Get(':username')
  get(@CurrentActor() actor: Actor | null, @Param('username') username: string): Promise<User> {
    return this.rpc.call(UserPatterns.get, { actor, params: { username } });
  }

  @Get(':username/followers')
  @Access({ signIn: true })
  async followers(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<User[]> {
    const page = await this.rpc.call<Page<User>>(UserPatterns.listFollowers, { actor, params: { username }, query });
    return this.paged.send(req, reply, page, { link: false });
  }

  @Get(':username/following')
  @Access({ signIn: true })
  async following(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<User[]> {
    const page = await this.rpc.call<Page<User>>(UserPatterns.listFollowing, { actor, params: { username }, query });
    return this.paged.send(req, reply, page, { link: false });
  }

  @Get(':username/following/:target')
  @Access({ signIn: true })
  @HttpCode(204)
  async checkFollowing(@CurrentActor() actor: Actor, @Param('username') username: string, @Param('target') target: string): Promise<void> {
    await this.rpc.call(UserPatterns.checkFollowing, { actor, params: { username, target } });
  }

  @Get(':username/orgs')
  @Access({ signIn: true, scope: ['user', 'organization'] })
  async orgs(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Organization[]> {
    return this.paged.send(req, reply, await this.rpc.call<Page<Organization>>(OrgPatterns.listForUser, { actor, params: { username }, query }));
  }

  @Get(':username/repos')
  @Access({ scope: 'repository' })
  async repos(
    @CurrentActor() actor: Actor | null,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Repository[]> {
    return this.paged.send(req, reply, await this.rpc.call<Page<Repository>>(RepoPatterns.listForUser, { actor, params: { username }, query }));
  }

  @Post(':username/tokens')
  @Access({ basic: true })
  createToken(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Body() body: CreateAccessTokenOption,
  ): Promise<AccessToken> {
    return this.rpc.call(TokenPatterns.create, { actor, params: { username }, body });
  }

  @Get(':username/tokens')
  @Access({ basic: true })
  async listTokens(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AccessToken[]> {
    return this.paged.send(req, reply, await this.rpc.call<Page<AccessToken>>(TokenPatterns.list, { actor, params: { username }, query }));
  }

  @Delete(':username/tokens/:token')
  @Access({ basic: true })
  @HttpCode(204)
  async deleteToken(@CurrentActor() actor: Actor, @Param('username') username: string, @Param('token') token: string): Promise<void> {
    await this.rpc.call(TokenPatterns.delete, { actor, params: { username, token } });
  }
}
