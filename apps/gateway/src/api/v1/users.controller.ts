import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
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
  type User,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

/** `/users/{username}`: any account, as the caller may see it. */
@Controller('api/v1/users')
@Access({ scope: 'user' })
export class UsersController {
  constructor(private readonly rpc: RpcClient) {}

  /** Gitea's search envelope `{data, ok}`, with its paging headers. */
  @Get('search')
  @Paginated({ search: true })
  search(@CurrentActor() actor: Actor | null, @Query() query: Record<string, string>): Promise<Page<User>> {
    return this.rpc.call<Page<User>>(UserPatterns.search, { actor, query });
  }

  @Get(':username')
  get(@CurrentActor() actor: Actor | null, @Param('username') username: string): Promise<User> {
    return this.rpc.call(UserPatterns.get, { actor, params: { username } });
  }

  @Get(':username/followers')
  @Access({ signIn: true })
  @Paginated({ link: false })
  followers(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<User>> {
    return this.rpc.call<Page<User>>(UserPatterns.listFollowers, { actor, params: { username }, query });
  }

  @Get(':username/following')
  @Access({ signIn: true })
  @Paginated({ link: false })
  following(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<User>> {
    return this.rpc.call<Page<User>>(UserPatterns.listFollowing, { actor, params: { username }, query });
  }

  @Get(':username/following/:target')
  @Access({ signIn: true })
  @HttpCode(204)
  async checkFollowing(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Param('target') target: string,
  ): Promise<void> {
    await this.rpc.call(UserPatterns.checkFollowing, { actor, params: { username, target } });
  }

  @Get(':username/orgs')
  @Access({ signIn: true, scope: ['user', 'organization'] })
  @Paginated()
  orgs(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Organization>> {
    return this.rpc.call<Page<Organization>>(OrgPatterns.listForUser, { actor, params: { username }, query });
  }

  @Get(':username/repos')
  @Access({ scope: 'repository' })
  @Paginated()
  repos(
    @CurrentActor() actor: Actor | null,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Repository>> {
    return this.rpc.call<Page<Repository>>(RepoPatterns.listForUser, { actor, params: { username }, query });
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
  @Paginated()
  listTokens(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<AccessToken>> {
    return this.rpc.call<Page<AccessToken>>(TokenPatterns.list, { actor, params: { username }, query });
  }

  @Delete(':username/tokens/:token')
  @Access({ basic: true })
  @HttpCode(204)
  async deleteToken(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Param('token') token: string,
  ): Promise<void> {
    await this.rpc.call(TokenPatterns.delete, { actor, params: { username, token } });
  }
}
