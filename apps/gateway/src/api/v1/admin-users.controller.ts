import { Body, Controller, Post } from '@nestjs/common';
import { CreateUserOption, UserPatterns, type Actor, type User } from '@gitforge/contracts';
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
}
