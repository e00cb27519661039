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
  type OrganizationPermissions,
  type Page,
  type Repository,
  type TokenParams,
  type User,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, BasicAuth, CurrentActor } from '../../auth/access-policy.js';
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
  @Paginated()
  followers(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<User>> {
    return this.rpc.call<Page<User>>(UserPatterns.listFollowers, { actor, params: { username }, query });
  }

  @Get(':username/following')
  @Access({ signIn: true })
  @Paginated()
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

  /** Gitea looks both accounts up before asking for a token, so sign-in is left to the service. */
  @Get(':username/orgs/:org/permissions')
  @Access({ scope: ['user', 'organization'] })
  orgPermissions(
    @CurrentActor() actor: Actor | null,
    @Param('username') username: string,
    @Param('org') org: string,
  ): Promise<OrganizationPermissions> {
    return this.rpc.call(OrgPatterns.userPermissions, { actor, params: { username, org } });
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

  /*
   * Tokens: Gitea looks the user up (404), then checks self-or-admin (403), then asks for Basic
   * authentication (401), so the service decides all three; the gateway only says whether the
   * caller used Basic.
   */
  @Post(':username/tokens')
  @Access({ selfOrAdmin: true })
  createToken(
    @CurrentActor() actor: Actor | null,
    @BasicAuth() basicAuth: boolean,
    @Param('username') username: string,
    @Body() body: CreateAccessTokenOption,
  ): Promise<AccessToken> {
    return this.rpc.call<AccessToken, TokenParams, CreateAccessTokenOption>(TokenPatterns.create, { actor, params: { username, basicAuth }, body });
  }

  /** Gitea sets X-Total-Count only (no Link) on this list. */
  @Get(':username/tokens')
  @Paginated({ link: false })
  listTokens(
    @CurrentActor() actor: Actor | null,
    @BasicAuth() basicAuth: boolean,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<AccessToken>> {
    return this.rpc.call<Page<AccessToken>, TokenParams>(TokenPatterns.list, { actor, params: { username, basicAuth }, query });
  }

  @Delete(':username/tokens/:token')
  @HttpCode(204)
  async deleteToken(
    @CurrentActor() actor: Actor | null,
    @BasicAuth() basicAuth: boolean,
    @Param('username') username: string,
    @Param('token') token: string,
  ): Promise<void> {
    await this.rpc.call<void, TokenParams & { token: string }>(TokenPatterns.delete, { actor, params: { username, basicAuth, token } });
  }
}
