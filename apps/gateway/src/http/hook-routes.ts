import { Injectable } from '@nestjs/common';
import {
  HookDeliveryPatterns,
  HookPatterns,
  type Actor,
  type CreateHookOption,
  type EditHookOption,
  type Hook,
  type HookDelivery,
  type HookDeliveryDetail,
  type HookParams,
  type Page,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';

/**
 * The hook operations every hook route tree shares (repository, organization, user, admin);
 * the route only decides the HookParams (and, with @Paginated, whether lists carry a Link header).
 */
@Injectable()
export class HookRoutes {
  constructor(private readonly rpc: RpcClient) {}

  list(actor: Actor, params: HookParams, query: Record<string, string>): Promise<Page<Hook>> {
    return this.rpc.call<Page<Hook>, HookParams>(HookPatterns.list, { actor, params, query });
  }

  listAdmin(actor: Actor, query: Record<string, string>): Promise<Page<Hook>> {
    return this.rpc.call<Page<Hook>>(HookPatterns.listAdmin, { actor, query });
  }

  create(actor: Actor, params: HookParams, body: CreateHookOption): Promise<Hook> {
    return this.rpc.call(HookPatterns.create, { actor, params, body });
  }

  get(actor: Actor, params: HookParams): Promise<Hook> {
    return this.rpc.call(HookPatterns.get, { actor, params });
  }

  edit(actor: Actor, params: HookParams, body: EditHookOption): Promise<Hook> {
    return this.rpc.call(HookPatterns.edit, { actor, params, body });
  }

  async delete(actor: Actor, params: HookParams): Promise<void> {
    await this.rpc.call(HookPatterns.delete, { actor, params });
  }

  deliveries(actor: Actor, params: HookParams, query: Record<string, string>): Promise<Page<HookDelivery>> {
    return this.rpc.call<Page<HookDelivery>, HookParams>(HookDeliveryPatterns.list, { actor, params, query });
  }

  delivery(actor: Actor, params: HookParams, deliveryId: string): Promise<HookDeliveryDetail> {
    return this.rpc.call(HookDeliveryPatterns.get, { actor, params: { ...params, deliveryId } });
  }

  async redeliver(actor: Actor, params: HookParams, deliveryId: string): Promise<void> {
    await this.rpc.call(HookDeliveryPatterns.redeliver, { actor, params: { ...params, deliveryId } });
  }
}
