import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  CreateKeyOption,
  DeployKeyPatterns,
  UserKeyPatterns,
  type Actor,
  type DeployKey,
  type Page,
  type PublicKey,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

/** `/repos/{owner}/{repo}/keys`: deploy keys (issue 13: writers read, repository admins manage). Gitea sends X-Total-Count only. */
@Controller('api/v1/repos/:owner/:repo/keys')
@Access({ scope: 'repository', repoRight: 'admin' })
export class RepoKeysController {
  constructor(private readonly rpc: RpcClient) {}

  /** Filters: `key_id`, `fingerprint`. */
  @Get()
  @Paginated({ link: false })
  list(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<DeployKey>> {
    return this.rpc.call(DeployKeyPatterns.list, { actor, params: { owner, repo }, query });
  }

  @Post()
  create(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Body() body: CreateKeyOption,
  ): Promise<DeployKey> {
    return this.rpc.call(DeployKeyPatterns.create, { actor, params: { owner, repo }, body });
  }

  @Get(':id')
  get(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('id') id: string,
  ): Promise<DeployKey> {
    return this.rpc.call(DeployKeyPatterns.get, { actor, params: { owner, repo, id } });
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('id') id: string,
  ): Promise<void> {
    await this.rpc.call(DeployKeyPatterns.delete, { actor, params: { owner, repo, id } });
  }
}

/** `/user/keys`: the authenticated user's SSH keys. */
@Controller('api/v1/user/keys')
@Access({ signIn: true, scope: 'user', rejectPublicOnly: true })
export class UserKeysController {
  constructor(private readonly rpc: RpcClient) {}

  /** `fingerprint` looks through every user's keys, as Gitea does. */
  @Get()
  @Paginated()
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, string>): Promise<Page<PublicKey>> {
    return this.rpc.call(UserKeyPatterns.list, { actor, params: {}, query });
  }

  @Post()
  create(@CurrentActor() actor: Actor, @Body() body: CreateKeyOption): Promise<PublicKey> {
    return this.rpc.call(UserKeyPatterns.create, { actor, params: {}, body });
  }

  @Get(':id')
  get(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<PublicKey> {
    return this.rpc.call(UserKeyPatterns.get, { actor, params: { id } });
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.rpc.call(UserKeyPatterns.delete, { actor, params: { id } });
  }
}

/**
 * `GET /users/{username}/keys`: any signed-in caller may list a user's public keys (Gitea's route
 * group wants a token and looks the user up without a visibility check).
 */
@Controller('api/v1/users/:username/keys')
@Access({ signIn: true, scope: 'user' })
export class UsersKeysController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @Paginated()
  list(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<PublicKey>> {
    return this.rpc.call(UserKeyPatterns.list, { actor, params: { username }, query });
  }
}

/** `/admin/users/{username}/keys`: site administrators add and remove a user's keys. */
@Controller('api/v1/admin/users/:username/keys')
@Access({ admin: true, scope: 'admin' })
export class AdminUserKeysController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  create(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Body() body: CreateKeyOption,
  ): Promise<PublicKey> {
    return this.rpc.call(UserKeyPatterns.create, { actor, params: { username }, body });
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(
    @CurrentActor() actor: Actor,
    @Param('username') username: string,
    @Param('id') id: string,
  ): Promise<void> {
    await this.rpc.call(UserKeyPatterns.delete, { actor, params: { username, id } });
  }
}
