import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import {
  BadgePatterns,
  CreateOrgOption,
  CreateRepoOption,
  CreateUserOption,
  EditUserOption,
  OrgPatterns,
  RenameUserOption,
  RepoPatterns,
  UserBadgeOption,
  UserPatterns,
  type Actor,
  type Badge,
  type Organization,
  type Page,
  type Repository,
  type User,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';
import { Badge as BadgeSchema } from '../../openapi/response-schemas.js';

/** `/admin/users`: site administrators only. */
@Controller('api/v1/admin/users')
@Access({ admin: true, scope: 'admin' })
export class AdminUsersController {
  constructor(private readonly rpc: RpcClient) {}

  /** Gitea's admin SearchUsers: `q`, `login_name`, `source_id`, `visibility`, flag filters, `sort`/`order`. */
  @Get()
  @Paginated()
  search(@CurrentActor() actor: Actor, @Query() query: Record<string, string>): Promise<Page<User>> {
    return this.rpc.call<Page<User>>(UserPatterns.adminSearch, { actor, query });
  }

  @Post()
  create(@CurrentActor() actor: Actor, @Body() body: CreateUserOption): Promise<User> {
    return this.rpc.call(UserPatterns.adminCreate, { actor, body });
  }

  @Patch(':username')
  edit(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Body() body: EditUserOption,
  ): Promise<User> {
    return this.rpc.call(UserPatterns.adminEdit, { actor, params: { username }, body });
  }

  /** `?purge=true` also deletes the user's repositories and leaves its organizations. */
  @Delete(':username')
  @HttpCode(204)
  async delete(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
  ): Promise<void> {
    await this.rpc.call(UserPatterns.adminDelete, { actor, params: { username }, query });
  }

  /** Every organization of the user, whatever their visibility or the membership's. */
  @Get(':username/orgs')
  @Paginated()
  orgs(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Organization>> {
    return this.rpc.call<Page<Organization>>(OrgPatterns.listForUser, { actor, params: { username }, query });
  }

  @Post(':username/orgs')
  createOrg(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Body() body: CreateOrgOption,
  ): Promise<Organization> {
    return this.rpc.call(OrgPatterns.createForUser, { actor, params: { username }, body });
  }

  @Post(':username/repos')
  createRepo(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Body() body: CreateRepoOption,
  ): Promise<Repository> {
    return this.rpc.call(RepoPatterns.createForUser, { actor, params: { username }, body });
  }

  @Post(':username/rename')
  @HttpCode(204)
  async rename(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Body() body: RenameUserOption,
  ): Promise<void> {
    await this.rpc.call(UserPatterns.adminRename, { actor, params: { username }, body });
  }

  /** Every badge of the user, whole: `X-Total-Count` and no `Link`, as Gitea answers it. */
  @Get(':username/badges')
  @Paginated({ link: false })
  @ApiOkResponse({ type: BadgeSchema, isArray: true })
  badges(@CurrentActor() actor: Actor, @Param('username') username: string): Promise<Page<Badge>> {
    return this.rpc.call<Page<Badge>>(BadgePatterns.listForUser, { actor, params: { username } });
  }

  /** All or nothing: an unknown slug is 404, a badge the user has already 409, and none is given. */
  @Post(':username/badges')
  @HttpCode(204)
  async addBadges(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Body() body: UserBadgeOption,
  ): Promise<void> {
    await this.rpc.call(BadgePatterns.addToUser, { actor, params: { username }, body });
  }

  /** Slugs the user has no badge of are ignored. */
  @Delete(':username/badges')
  @HttpCode(204)
  async deleteBadges(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Body() body: UserBadgeOption,
  ): Promise<void> {
    await this.rpc.call(BadgePatterns.removeFromUser, { actor, params: { username }, body });
  }
}
