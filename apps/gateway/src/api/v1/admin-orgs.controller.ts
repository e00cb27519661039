import { Controller, Get, Query } from '@nestjs/common';
import { OrgPatterns, type Actor, type Organization, type Page } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

/** `/admin/orgs`: site administrators only. */
@Controller('api/v1/admin/orgs')
@Access({ admin: true, scope: 'admin' })
export class AdminOrgsController {
  constructor(private readonly rpc: RpcClient) {}

  /** Every organization, whatever its visibility, by name. */
  @Get()
  @Paginated()
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, string>): Promise<Page<Organization>> {
    return this.rpc.call<Page<Organization>>(OrgPatterns.adminList, { actor, query });
  }
}
