import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import {
  CreateEmailOption,
  CreateRepoOption,
  DeleteEmailOption,
  OrgPatterns,
  RepoPatterns,
  TeamPatterns,
  UserPatterns,
  UserSettingsOptions,
  type Actor,
  type Email,
  type Organization,
  type Page,
  type Repository,
  type Team,
  type User,
  type UserSettings,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

/** `/user`: the authenticated user. */
@Controller('api/v1/user')
@Access({ signIn: true, scope: 'user' })
export class UserController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  get(@CurrentActor() actor: Actor): Promise<User> {
    return this.rpc.call(UserPatterns.getSelf, { actor });
  }

  @Get('settings')
  settings(@CurrentActor() actor: Actor): Promise<UserSettings> {
    return this.rpc.call(UserPatterns.getSettings, { actor });
  }

  @Patch('settings')
  updateSettings(@CurrentActor() actor: Actor, @Body() body: UserSettingsOptions): Promise<UserSettings> {
    return this.rpc.call(UserPatterns.updateSettings, { actor, body });
  }

  /** Unpaginated, as Gitea. */
  @Get('emails')
  emails(@CurrentActor() actor: Actor): Promise<Email[]> {
    return this.rpc.call(UserPatterns.listEmails, { actor });
  }

  @Post('emails')
  addEmails(@CurrentActor() actor: Actor, @Body() body: CreateEmailOption): Promise<Email[]> {
    return this.rpc.call(UserPatterns.addEmails, { actor, body });
  }

  @Delete('emails')
  @HttpCode(204)
  async deleteEmails(@CurrentActor() actor: Actor, @Body() body: DeleteEmailOption): Promise<void> {
    await this.rpc.call(UserPatterns.deleteEmails, { actor, body: body ?? {} });
  }

  @Get('followers')
  @Paginated()
  followers(@CurrentActor() actor: Actor, @Query() query: Record<string, string>): Promise<Page<User>> {
    return this.rpc.call<Page<User>>(UserPatterns.listFollowers, { actor, query });
  }

  @Get('following')
  @Paginated()
  following(@CurrentActor() actor: Actor, @Query() query: Record<string, string>): Promise<Page<User>> {
    return this.rpc.call<Page<User>>(UserPatterns.listFollowing, { actor, query });
  }

  @Get('following/:username')
  @HttpCode(204)
  async checkFollowing(@CurrentActor() actor: Actor, @Param('username') username: string): Promise<void> {
    await this.rpc.call(UserPatterns.checkFollowing, { actor, params: { target: username } });
  }

  @Put('following/:username')
  @HttpCode(204)
  async follow(@CurrentActor() actor: Actor, @Param('username') username: string): Promise<void> {
    await this.rpc.call(UserPatterns.follow, { actor, params: { username } });
  }

  @Delete('following/:username')
  @HttpCode(204)
  async unfollow(@CurrentActor() actor: Actor, @Param('username') username: string): Promise<void> {
    await this.rpc.call(UserPatterns.unfollow, { actor, params: { username } });
  }

  @Get('orgs')
  @Access({ scope: ['user', 'organization'] })
  @Paginated()
  orgs(@CurrentActor() actor: Actor, @Query() query: Record<string, string>): Promise<Page<Organization>> {
    return this.rpc.call<Page<Organization>>(OrgPatterns.listForUser, { actor, query });
  }

  @Get('teams')
  @Paginated()
  teams(@CurrentActor() actor: Actor, @Query() query: Record<string, string>): Promise<Page<Team>> {
    return this.rpc.call<Page<Team>>(TeamPatterns.listForActor, { actor, query });
  }

  @Get('repos')
  @Access({ scope: 'repository' })
  @Paginated()
  repos(@CurrentActor() actor: Actor, @Query() query: Record<string, string>): Promise<Page<Repository>> {
    return this.rpc.call<Page<Repository>>(RepoPatterns.listForActor, { actor, query });
  }

  @Post('repos')
  @Access({ scope: 'repository' })
  createRepo(@CurrentActor() actor: Actor, @Body() body: CreateRepoOption): Promise<Repository> {
    return this.rpc.call(RepoPatterns.createForActor, { actor, body });
  }
}
