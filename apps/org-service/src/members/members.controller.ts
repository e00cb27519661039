import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { normalizeListOptions, OrgPatterns, type MemberCheck, type Page, type RpcRequest, type User } from '@gitforge/contracts';
import { MembersService } from './members.service.js';

type Params = { org: string; username: string };

@Controller()
export class MembersController {
  constructor(private readonly members: MembersService) {}

  @MessagePattern(OrgPatterns.listMembers)
  list(@Payload() req: RpcRequest<{ org: string }>): Promise<Page<User>> {
    return this.members.list(req.actor, req.params.org, normalizeListOptions(req.query));
  }

  @MessagePattern(OrgPatterns.checkMember)
  check(@Payload() req: RpcRequest<Params>): Promise<MemberCheck> {
    return this.members.check(req.actor, req.params.org, req.params.username);
  }

  @MessagePattern(OrgPatterns.removeMember)
  remove(@Payload() req: RpcRequest<Params>): Promise<void> {
    return this.members.remove(req.actor, req.params.org, req.params.username);
  }

  @MessagePattern(OrgPatterns.listPublicMembers)
  listPublic(@Payload() req: RpcRequest<{ org: string }>): Promise<Page<User>> {
    return this.members.listPublic(req.actor, req.params.org, normalizeListOptions(req.query));
  }

  @MessagePattern(OrgPatterns.checkPublicMember)
  checkPublic(@Payload() req: RpcRequest<Params>): Promise<void> {
    return this.members.checkPublic(req.actor, req.params.org, req.params.username);
  }

  @MessagePattern(OrgPatterns.publicizeMember)
  publicize(@Payload() req: RpcRequest<Params>): Promise<void> {
    return this.members.setPublic(req.actor, req.params.org, req.params.username, true);
  }

  @MessagePattern(OrgPatterns.concealMember)
  conceal(@Payload() req: RpcRequest<Params>): Promise<void> {
    return this.members.setPublic(req.actor, req.params.org, req.params.username, false);
  }
}
