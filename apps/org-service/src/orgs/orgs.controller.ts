import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  normalizeListOptions,
  OrgPatterns,
  type CreateOrgOption,
  type EditOrgOption,
  type Organization,
  type OrganizationPermissions,
  type RenameOrgOption,
  type OwnerAccess,
  type Page,
  type ReachableRepos,
  type RpcRequest,
  type UserOwnerAccess,
} from '@gitforge/contracts';
import { OrgsService } from './orgs.service.js';

@Controller()
export class OrgsController {
  constructor(private readonly orgs: OrgsService) {}

  @MessagePattern(OrgPatterns.create)
  create(@Payload() req: RpcRequest<Record<string, string>, CreateOrgOption>): Promise<Organization> {
    return this.orgs.create(req.actor, req.body);
  }

  @MessagePattern(OrgPatterns.createForUser)
  createForUser(@Payload() req: RpcRequest<{ username: string }, CreateOrgOption>): Promise<Organization> {
    return this.orgs.createForUser(req.actor, req.params.username, req.body);
  }

  @MessagePattern(OrgPatterns.adminList)
  adminList(@Payload() req: RpcRequest): Promise<Page<Organization>> {
    return this.orgs.adminList(req.actor, normalizeListOptions(req.query));
  }

  @MessagePattern(OrgPatterns.rename)
  rename(@Payload() req: RpcRequest<{ org: string }, RenameOrgOption>): Promise<void> {
    return this.orgs.rename(req.actor, req.params.org, req.body.new_name);
  }

  @MessagePattern(OrgPatterns.userPermissions)
  userPermissions(@Payload() req: RpcRequest<{ username: string; org: string }>): Promise<OrganizationPermissions> {
    return this.orgs.userPermissions(req.actor, req.params.username, req.params.org);
  }

  @MessagePattern(OrgPatterns.get)
  get(@Payload() req: RpcRequest<{ org: string }>): Promise<Organization> {
    return this.orgs.get(req.actor, req.params.org);
  }

  @MessagePattern(OrgPatterns.list)
  list(@Payload() req: RpcRequest): Promise<Page<Organization>> {
    return this.orgs.list(req.actor, normalizeListOptions(req.query));
  }

  @MessagePattern(OrgPatterns.listForUser)
  listForUser(@Payload() req: RpcRequest<{ username?: string }>): Promise<Page<Organization>> {
    return this.orgs.listForUser(req.actor, req.params.username, normalizeListOptions(req.query));
  }

  @MessagePattern(OrgPatterns.edit)
  edit(@Payload() req: RpcRequest<{ org: string }, EditOrgOption>): Promise<Organization> {
    return this.orgs.edit(req.actor, req.params.org, req.body ?? {});
  }

  @MessagePattern(OrgPatterns.delete)
  delete(@Payload() req: RpcRequest<{ org: string }>): Promise<void> {
    return this.orgs.delete(req.actor, req.params.org);
  }

  @MessagePattern(OrgPatterns.access)
  access(@Payload() req: RpcRequest<Record<string, string>, { owner?: string; ownerId?: number }>): Promise<OwnerAccess> {
    return this.orgs.access(req.actor, req.body);
  }

  @MessagePattern(OrgPatterns.accessMany)
  accessMany(@Payload() req: RpcRequest<Record<string, string>, { ownerIds: number[] }>): Promise<OwnerAccess[]> {
    return Promise.all([...new Set(req.body.ownerIds)].map((ownerId) => this.orgs.access(req.actor, { ownerId })));
  }

  @MessagePattern(OrgPatterns.accessForUsers)
  accessForUsers(@Payload() req: RpcRequest<Record<string, string>, { ownerId: number; userIds: number[] }>): Promise<UserOwnerAccess[]> {
    return this.orgs.accessForUsers(req.body.ownerId, req.body.userIds);
  }

  @MessagePattern(OrgPatterns.reachableRepos)
  reachableRepos(@Payload() req: RpcRequest<Record<string, string>, { userId?: number } | undefined>): Promise<ReachableRepos> {
    return this.orgs.reachableRepos(req.actor, req.body?.userId);
  }
}
