import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  HookPatterns,
  normalizeListOptions,
  type CreateHookOption,
  type EditHookOption,
  type Hook,
  type HookMatchQuery,
  type HookParams,
  type HookTarget,
  type Page,
  type RpcRequest,
} from '@gitforge/contracts';
import { HooksService } from './hooks.service.js';

@Controller()
export class HooksController {
  constructor(private readonly hooks: HooksService) {}

  @MessagePattern(HookPatterns.list)
  list(@Payload() req: RpcRequest<HookParams, undefined, Record<string, unknown>>): Promise<Page<Hook>> {
    return this.hooks.list(req.actor, req.params, normalizeListOptions(req.query));
  }

  @MessagePattern(HookPatterns.listAdmin)
  listAdmin(@Payload() req: RpcRequest<Record<string, string>, undefined, Record<string, unknown>>): Promise<Page<Hook>> {
    return this.hooks.listAdmin(req.actor, typeof req.query.type === 'string' ? req.query.type : undefined, normalizeListOptions(req.query));
  }

  @MessagePattern(HookPatterns.create)
  create(@Payload() req: RpcRequest<HookParams, CreateHookOption>): Promise<Hook> {
    return this.hooks.create(req.actor, req.params, req.body);
  }

  @MessagePattern(HookPatterns.get)
  get(@Payload() req: RpcRequest<HookParams>): Promise<Hook> {
    return this.hooks.get(req.actor, req.params);
  }

  @MessagePattern(HookPatterns.edit)
  edit(@Payload() req: RpcRequest<HookParams, EditHookOption>): Promise<Hook> {
    return this.hooks.edit(req.actor, req.params, req.body);
  }

  @MessagePattern(HookPatterns.delete)
  delete(@Payload() req: RpcRequest<HookParams>): Promise<void> {
    return this.hooks.delete(req.actor, req.params);
  }

  @MessagePattern(HookPatterns.gitHooks)
  gitHooks(@Payload() req: RpcRequest<{ owner: string; repo: string }>): Promise<never> {
    return this.hooks.gitHooks(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(HookPatterns.matching)
  matching(@Payload() req: RpcRequest<Record<string, string>, { queries: HookMatchQuery[] }>): Promise<HookTarget[][]> {
    return this.hooks.matching(req.body.queries);
  }

  @MessagePattern(HookPatterns.target)
  target(@Payload() req: RpcRequest<Record<string, string>, { hookId: number }>): Promise<HookTarget | null> {
    return this.hooks.target(req.body.hookId);
  }

  @MessagePattern(HookPatterns.copyDefaults)
  copyDefaults(@Payload() req: RpcRequest<Record<string, string>, { repoId: number }>): Promise<number> {
    return this.hooks.copyDefaults(req.body.repoId);
  }

  @MessagePattern(HookPatterns.autoDisable)
  autoDisable(@Payload() req: RpcRequest<Record<string, string>, { hookId: number }>): Promise<void> {
    return this.hooks.autoDisable(req.body.hookId);
  }
}
