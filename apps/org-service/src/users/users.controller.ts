import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { UserPatterns, type CreateUserOption, type RpcRequest, type User } from '@gitforge/contracts';
import { UsersService } from './users.service.js';

@Controller()
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @MessagePattern(UserPatterns.getSelf)
  getSelf(@Payload() req: RpcRequest): Promise<User> {
    return this.users.getSelf(req.actor);
  }

  @MessagePattern(UserPatterns.get)
  get(@Payload() req: RpcRequest<{ username: string }>): Promise<User> {
    return this.users.get(req.actor, req.params.username);
  }

  @MessagePattern(UserPatterns.getMany)
  getMany(@Payload() req: RpcRequest<Record<string, string>, { ids: number[] }>): Promise<User[]> {
    return this.users.getMany(req.actor, req.body.ids);
  }

  @MessagePattern(UserPatterns.getManyByEmail)
  getManyByEmail(@Payload() req: RpcRequest<Record<string, string>, { emails: string[] }>): Promise<Record<string, User>> {
    return this.users.getManyByEmail(req.actor, req.body.emails);
  }

  @MessagePattern(UserPatterns.adminCreate)
  adminCreate(@Payload() req: RpcRequest<Record<string, string>, CreateUserOption>): Promise<User> {
    return this.users.adminCreate(req.actor, req.body);
  }
}
