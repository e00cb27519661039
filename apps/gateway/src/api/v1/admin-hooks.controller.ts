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

/**
 * `/admin/hooks`: system hooks (every repository's events) and default hooks (copied into new
 * repositories). As in Gitea, creating makes a default hook unless `config.is_system_webhook`
 * is true, while listing shows system hooks unless `type` is `default` or `all`.
 */
@Controller('api/v1/admin/hooks')
@Access({ admin: true, scope: 'admin' })
export class AdminHooksController {
  constructor(private readonly hooks: HookRoutes) {}

  /** Gitea's admin ListHooks: a page of the hooks of the kind asked for, with Link and X-Total-Count. */
  @Get()
  @Paginated()
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, string>): Promise<Page<Hook>> {
    return this.hooks.listAdmin(actor, query);
  }

  @Post()
  create(@CurrentActor() actor: Actor, @Body() body: CreateHookOption): Promise<Hook> {
    return this.hooks.create(actor, { kind: 'admin' }, body);
  }

  @Get(':id')
  get(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<Hook> {
    return this.hooks.get(actor, { kind: 'admin', id });
  }

  @Patch(':id')
  edit(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: EditHookOption): Promise<Hook> {
    return this.hooks.edit(actor, { kind: 'admin', id }, body);
  }

  @Delete(':id')
  @HttpCode(204)
  delete(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    return this.hooks.delete(actor, { kind: 'admin', id });
  }

  @Get(':id/deliveries')
  @Paginated()
  deliveries(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<HookDelivery>> {
    return this.hooks.deliveries(actor, { kind: 'admin', id }, query);
  }

  @Get(':id/deliveries/:deliveryId')
  delivery(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<HookDeliveryDetail> {
    return this.hooks.delivery(actor, { kind: 'admin', id }, deliveryId);
  }

  @Post(':id/deliveries/:deliveryId/attempts')
  @HttpCode(202)
  redeliver(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<void> {
    return this.hooks.redeliver(actor, { kind: 'admin', id }, deliveryId);
  }
}
