import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  CreateHookOption,
  EditHookOption,
  HookDeliveryPatterns,
  HookPatterns,
  type Actor,
  type Hook,
  type Page,
  type HookDelivery,
  type HookDeliveryDetail,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { HookRoutes } from '../../http/hook-routes.js';
import { Paginated } from '../../http/paginated.js';

/** `/repos/{owner}/{repo}/hooks`: repository hooks (repository admins), their deliveries and test delivery. */
@Controller('api/v1/repos/:owner/:repo/hooks')
@Access({ signIn: true, scope: 'repository', repoRight: 'admin' })
export class RepoHooksController {
  constructor(
    private readonly hooks: HookRoutes,
    private readonly rpc: RpcClient,
  ) {}

  @Get()
  // Gitea's ListHooks sets X-Total-Count only.
  @Paginated({ link: false })
  list(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Hook>> {
    return this.hooks.list(actor, { kind: 'repo', owner, repo }, query);
  }

  @Post()
  create(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Body() body: CreateHookOption,
  ): Promise<Hook> {
    return this.hooks.create(actor, { kind: 'repo', owner, repo }, body);
  }

  /**
   * Git hooks (`/hooks/git`, `/hooks/git/{id}`): the answer of Gitea's reqGitHook with git hooks
   * disabled. No body is read: Gitea refuses before binding EditGitHookOption.
   */
  @Get('git')
  listGitHooks(@CurrentActor() actor: Actor, @Param('owner') owner: string, @Param('repo') repo: string): Promise<never> {
    return this.rpc.call(HookPatterns.gitHooks, { actor, params: { owner, repo } });
  }

  @Get('git/:name')
  getGitHook(@CurrentActor() actor: Actor, @Param('owner') owner: string, @Param('repo') repo: string): Promise<never> {
    return this.rpc.call(HookPatterns.gitHooks, { actor, params: { owner, repo } });
  }

  @Patch('git/:name')
  editGitHook(@CurrentActor() actor: Actor, @Param('owner') owner: string, @Param('repo') repo: string): Promise<never> {
    return this.rpc.call(HookPatterns.gitHooks, { actor, params: { owner, repo } });
  }

  @Delete('git/:name')
  deleteGitHook(@CurrentActor() actor: Actor, @Param('owner') owner: string, @Param('repo') repo: string): Promise<never> {
    return this.rpc.call(HookPatterns.gitHooks, { actor, params: { owner, repo } });
  }

  @Get(':id')
  get(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('id') id: string,
  ): Promise<Hook> {
    return this.hooks.get(actor, { kind: 'repo', owner, repo, id });
  }

  @Patch(':id')
  edit(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('id') id: string,
    @Body() body: EditHookOption,
  ): Promise<Hook> {
    return this.hooks.edit(actor, { kind: 'repo', owner, repo, id }, body);
  }

  @Delete(':id')
  @HttpCode(204)
  delete(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('id') id: string,
  ): Promise<void> {
    return this.hooks.delete(actor, { kind: 'repo', owner, repo, id });
  }

  /** Gitea's test delivery: a push of the default branch's head commit (or `ref`'s). */
  @Post(':id/tests')
  @HttpCode(204)
  async test(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('id') id: string,
    @Query('ref') ref?: string,
  ): Promise<void> {
    await this.rpc.call(HookDeliveryPatterns.test, {
      actor,
      params: { owner, repo, id },
      query: ref ? { ref } : {},
    });
  }

  @Get(':id/deliveries')
  @Paginated()
  deliveries(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('id') id: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<HookDelivery>> {
    return this.hooks.deliveries(actor, { kind: 'repo', owner, repo, id }, query);
  }

  @Get(':id/deliveries/:deliveryId')
  delivery(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<HookDeliveryDetail> {
    return this.hooks.delivery(actor, { kind: 'repo', owner, repo, id }, deliveryId);
  }

  @Post(':id/deliveries/:deliveryId/attempts')
  @HttpCode(202)
  redeliver(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<void> {
    return this.hooks.redeliver(actor, { kind: 'repo', owner, repo, id }, deliveryId);
  }
}
