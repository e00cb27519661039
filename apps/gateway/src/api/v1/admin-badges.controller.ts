import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import {
  BadgePatterns,
  CreateBadgeOption,
  EditBadgeOption,
  type Actor,
  type Badge,
  type Page,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';
import { Badge as BadgeSchema } from '../../openapi/response-schemas.js';

/**
 * `/admin/badges`: the badge catalogue, a gitforge extension (Gitea edits it in its admin web UI
 * only); badges are given to users on Gitea's `/admin/users/{username}/badges`.
 */
@Controller('api/v1/admin/badges')
@Access({ admin: true, scope: 'admin' })
export class AdminBadgesController {
  constructor(private readonly rpc: RpcClient) {}

  /** Oldest first. */
  @Get()
  @Paginated()
  @ApiOkResponse({ type: BadgeSchema, isArray: true })
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, string>): Promise<Page<Badge>> {
    return this.rpc.call<Page<Badge>>(BadgePatterns.list, {
      actor,
      query: { page: query.page, limit: query.limit },
    });
  }

  /** 409 when the slug is in use. */
  @Post()
  @ApiCreatedResponse({ type: BadgeSchema })
  create(@CurrentActor() actor: Actor, @Body() body: CreateBadgeOption): Promise<Badge> {
    return this.rpc.call(BadgePatterns.create, { actor, body });
  }

  @Patch(':slug')
  @ApiOkResponse({ type: BadgeSchema })
  edit(
    @CurrentActor() actor: Actor,
    @Param('slug') slug: string,
    @Body() body: EditBadgeOption,
  ): Promise<Badge> {
    return this.rpc.call(BadgePatterns.edit, { actor, params: { slug }, body });
  }

  /** Users who have the badge lose it. */
  @Delete(':slug')
  @HttpCode(204)
  async delete(@CurrentActor() actor: Actor, @Param('slug') slug: string): Promise<void> {
    await this.rpc.call(BadgePatterns.delete, { actor, params: { slug } });
  }
}
