import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { OrgPatterns, type CreateOrgOption, type Organization, type OwnerAccess, type ReachableRepos, type RpcRequest } from '@gitforge/contracts';
import { OrgsService } from './orgs.service.js';

@Controller()
export class OrgsController {
  constructor(private readonly orgs: OrgsService) {}

  @MessagePattern(OrgPatterns.create)
  create(@Payload() req: RpcRequest<Record<string, string>, CreateOrgOption>): Promise<Organization> {
    return this.orgs.create(req.actor, req.body);
  }

  @MessagePattern(OrgPatterns.get)
  get(@Payload() req: RpcRequest<{ org: string }>): Promise<Organization> {
    return this.orgs.get(req.actor, req.params.org);
  }

  @MessagePattern(OrgPatterns.access)
  access(@Payload() req: RpcRequest<Record<string, string>, { owner?: string; ownerId?: number }>): Promise<OwnerAccess> {
    return this.orgs.access(req.actor, req.body);
  }

  @MessagePattern(OrgPatterns.accessMany)
  accessMany(@Payload() req: RpcRequest<Record<string, string>, { ownerIds: number[] }>): Promise<OwnerAccess[]> {
    return Promise.all([...new Set(req.body.ownerIds)].map((ownerId) => this.orgs.access(req.actor, { ownerId })));
  }

  @MessagePattern(OrgPatterns.reachableRepos)
  reachableRepos(@Payload() req: RpcRequest): Promise<ReachableRepos> {
    return this.orgs.reachableRepos(req.actor);
  }
}
