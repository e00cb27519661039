import { Body, Controller, Delete, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { CreateUserOption, EditUserOption, UserPatterns, type Actor, type User } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';

/** `/admin/users`: site administrators only. */
@Controller('api/v1/admin/users')
@Access({ admin: true, scope: 'admin' })
export class AdminUsersController {
  constructor(private readonly rpc: RpcClient) {}

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

  @Delete(':username')
  @HttpCode(204)
  async delete(@CurrentActor() actor: Actor, @Param('username') username: string): Promise<void> {
    await this.rpc.call(UserPatterns.adminDelete, { actor, params: { username } });
  }
}
