import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  CreateHookOption,
  EditHookOption,
  type Actor,
  type Hook,
  type Page,
  type HookDelivery,
  type HookDeliveryDetail,
} from '@gitforge/contracts';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { HookRoutes } from '../../http/hook-routes.js';
import { Paginated } from '../../http/paginated.js';

/** `/orgs/{org}/hooks`: organization hooks (organization owners) and their deliveries. */
@Controller('api/v1/orgs/:org/hooks')
@Access({ signIn: true, scope: 'organization', orgOwner: true })
export class OrgHooksController {
  constructor(private readonly hooks: HookRoutes) {}

  @Get()
  // Gitea's ListOwnerHooks links the pages; a repository's list (ListHooks) does not.
  @Paginated()
  list(
    @CurrentActor() actor: Actor,
    @Param('org') org: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Hook>> {
    return this.hooks.list(actor, { kind: 'org', org }, query);
  }

  @Post()
  create(
    @CurrentActor() actor: Actor,
    @Param('org') org: string,
    @Body() body: CreateHookOption,
  ): Promise<Hook> {
    return this.hooks.create(actor, { kind: 'org', org }, body);
  }

  @Get(':id')
  get(@CurrentActor() actor: Actor, @Param('org') org: string, @Param('id') id: string): Promise<Hook> {
    return this.hooks.get(actor, { kind: 'org', org, id });
  }

  @Patch(':id')
  edit(
    @CurrentActor() actor: Actor,
    @Param('org') org: string,
    @Param('id') id: string,
    @Body() body: EditHookOption,
  ): Promise<Hook> {
    return this.hooks.edit(actor, { kind: 'org', org, id }, body);
  }

  @Delete(':id')
  @HttpCode(204)
  delete(@CurrentActor() actor: Actor, @Param('org') org: string, @Param('id') id: string): Promise<void> {
    return this.hooks.delete(actor, { kind: 'org', org, id });
  }

  @Get(':id/deliveries')
  @Paginated()
  deliveries(
    @CurrentActor() actor: Actor,
    @Param('org') org: string,
    @Param('id') id: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<HookDelivery>> {
    return this.hooks.deliveries(actor, { kind: 'org', org, id }, query);
  }

  @Get(':id/deliveries/:deliveryId')
  delivery(
    @CurrentActor() actor: Actor,
    @Param('org') org: string,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<HookDeliveryDetail> {
    return this.hooks.delivery(actor, { kind: 'org', org, id }, deliveryId);
  }

  @Post(':id/deliveries/:deliveryId/attempts')
  @HttpCode(202)
  redeliver(
    @CurrentActor() actor: Actor,
    @Param('org') org: string,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<void> {
    return this.hooks.redeliver(actor, { kind: 'org', org, id }, deliveryId);
  }
}
