import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type UserStarCount,
  AccountMaintenancePatterns,
  invalid,
  type RetentionRequest,
  type RetentionResult,
  OrgPatterns,
  normalizeListOptions,
  UserPatterns,
  type ActivityActor,
  type CreateUserOption,
  type EditUserOption,
  type Page,
  type RenameUserOption,
  type RpcRequest,
  type User,
  type UserSettings,
  type UserSettingsOptions,
  type OwnerFilter,
  formInt64,
} from '@gitforge/contracts';
import { optionalBool } from './admin-user-filter.js';
import { UsersService } from './users.service.js';

/** Gitea's FormInt64: a malformed number reads as 0 (no filter). */
const formInt = (value: unknown): number | undefined => (value === undefined || value === '' ? undefined : formInt64(value));

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

  @MessagePattern(UserPatterns.setStarCounts)
  setStarCounts(@Payload() req: RpcRequest<Record<string, string>, UserStarCount[]>): Promise<void> {
    return this.users.setStarCounts(req.body);
  }

  @MessagePattern(UserPatterns.activityActors)
  activityActors(@Payload() req: RpcRequest<Record<string, string>, { ids: number[] }>): Promise<ActivityActor[]> {
    return this.users.activityActors(req.actor, req.body.ids);
  }

  @MessagePattern(UserPatterns.search)
  search(@Payload() req: RpcRequest<Record<string, string>, undefined, { q?: string; uid?: string; page?: string; limit?: string }>): Promise<Page<User>> {
    return this.users.search(
      req.actor,
      { q: typeof req.query.q === 'string' ? req.query.q : undefined, uid: formInt(req.query.uid) },
      normalizeListOptions(req.query),
    );
  }

  @MessagePattern(UserPatterns.getSettings)
  getSettings(@Payload() req: RpcRequest): Promise<UserSettings> {
    return this.users.getSettings(req.actor);
  }

  @MessagePattern(UserPatterns.updateSettings)
  updateSettings(@Payload() req: RpcRequest<Record<string, string>, UserSettingsOptions>): Promise<UserSettings> {
    return this.users.updateSettings(req.actor, req.body ?? {});
  }

  @MessagePattern(UserPatterns.adminSearch)
  adminSearch(@Payload() req: RpcRequest): Promise<Page<User>> {
    return this.users.adminSearch(req.actor, req.query, normalizeListOptions(req.query));
  }

  @MessagePattern(UserPatterns.adminCreate)
  adminCreate(@Payload() req: RpcRequest<Record<string, string>, CreateUserOption>): Promise<User> {
    return this.users.adminCreate(req.actor, req.body);
  }

  @MessagePattern(UserPatterns.adminEdit)
  adminEdit(@Payload() req: RpcRequest<{ username: string }, EditUserOption>): Promise<User> {
    return this.users.adminEdit(req.actor, req.params.username, req.body);
  }

  @MessagePattern(UserPatterns.adminRename)
  adminRename(@Payload() req: RpcRequest<{ username: string }, RenameUserOption>): Promise<void> {
    return this.users.adminRename(req.actor, req.params.username, req.body.new_username);
  }

  @MessagePattern(UserPatterns.adminDelete)
  adminDelete(@Payload() req: RpcRequest<{ username: string }, undefined, { purge?: string }>): Promise<void> {
    return this.users.adminDelete(req.actor, req.params.username, optionalBool(req.query.purge) === true);
  }

  /** For the admin cron's delete_inactive_accounts (the gateway routes no request here). */
  @MessagePattern(AccountMaintenancePatterns.deleteInactive)
  deleteInactive(@Payload() req: RpcRequest<Record<string, string>, RetentionRequest>): Promise<RetentionResult> {
    const olderThanMs = req.body?.olderThanMs;
    if (!Number.isFinite(olderThanMs) || olderThanMs < 0) throw invalid('bad retention request');
    return this.users.deleteInactive(olderThanMs);
  }

  @MessagePattern(OrgPatterns.ownerFilter)
  ownerFilter(@Payload() req: RpcRequest): Promise<OwnerFilter> {
    return this.users.ownerFilter(req.actor);
  }
}
