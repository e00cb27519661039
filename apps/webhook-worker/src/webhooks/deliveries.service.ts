import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  ContractError,
  HookPatterns,
  notFound,
  pageOf,
  RepoFactPatterns,
  UserPatterns,
  type Actor,
  type Hook,
  type HookCommit,
  type HookDelivery,
  type HookDeliveryDetail,
  type HookParams,
  type ListOptions,
  type Page,
  type User,
  idFrom,
} from '@gitforge/contracts';
import { PlatformConfig, RpcClient } from '@gitforge/platform';
import { DeliveryQueue } from './delivery-queue.js';
import { toDelivery, toDeliveryDetail } from './delivery.mapper.js';
import { HookTasksRepository } from './hook-tasks.repository.js';
import type { PushPayload } from '@gitforge/contracts';

/**
 * GitHub's deliveries API under every hook kind, and Gitea's test delivery. Access is the hook's:
 * admin-service answers `hooks.get` for the caller only if the caller may manage the hook.
 */
@Injectable()
export class DeliveriesService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly tasks: HookTasksRepository,
    private readonly queue: DeliveryQueue,
    private readonly config: PlatformConfig,
  ) {}

  private hook(actor: Actor | null, params: HookParams): Promise<Hook> {
    return this.rpc.call<Hook, HookParams>(HookPatterns.get, { actor, params });
  }

  async list(actor: Actor | null, params: HookParams, options: ListOptions): Promise<Page<HookDelivery>> {
    const hook = await this.hook(actor, params);
    const [rows, total] = await this.tasks.listDeliveries(hook.id, options);
    return pageOf(rows.map(toDelivery), total, options);
  }

  private async delivery(actor: Actor | null, params: HookParams & { deliveryId: string }) {
    const hook = await this.hook(actor, params);
    const id = idFrom(params.deliveryId);
    const row = id ? await this.tasks.findDelivery(hook.id, id) : null;
    if (!row) throw notFound();
    return row;
  }

  async get(actor: Actor | null, params: HookParams & { deliveryId: string }): Promise<HookDeliveryDetail> {
    const row = await this.delivery(actor, params);
    return toDeliveryDetail(row, row.requestBody ?? (await this.tasks.findPayload(row.taskId)) ?? '');
  }

  /** Sends the delivery's event again under the same delivery id (`X-Gitea-Delivery`). */
  async redeliver(actor: Actor | null, params: HookParams & { deliveryId: string }): Promise<void> {
    const row = await this.delivery(actor, params);
    await this.queue.redeliver(row.taskId, row.eventType);
  }

  /**
   * Gitea's test delivery (TestHook, PrepareTestWebhook): a push of the commit at `ref` (default:
   * the default branch head), sent whatever the hook's events and branch filter say. An empty
   * repository answers 404 'repository is empty' before the hook is looked up (its ref is resolved
   * first), an unknown ref 404. The repository, pusher and sender are shown as to anyone
   * (ToRepo and ToUserWithAccessMode with no access).
   */
  async test(actor: Actor | null, params: { owner: string; repo: string; id: string }, ref: string | undefined): Promise<void> {
    if (!actor) throw new ContractError('unauthenticated', 'token is required');
    const at = () =>
      this.rpc.call<HookCommit, { owner: string; repo: string }, { ref?: string }>(RepoFactPatterns.hookCommit, {
        actor,
        params: { owner: params.owner, repo: params.repo },
        query: ref ? { ref } : {},
      });
    const empty = notFound('repository is empty');
    const hook = await this.hook(actor, { kind: 'repo', ...params }).catch(async (err: unknown) => {
      if (err instanceof ContractError && err.code === 'not_found' && (await at()).commit === null) throw empty;
      throw err;
    });
    const target = await at();
    if (!target.commit) throw empty;
    const [sender] = await this.rpc.call<User[], Record<string, string>, { ids: number[] }>(UserPatterns.getMany, { actor: null, body: { ids: [actor.id] } });
    if (!sender) throw new ContractError('unauthenticated', 'token is required');
    const sha = target.commit.id;
    const payload: PushPayload = {
      ref: target.ref,
      before: sha,
      after: sha,
      compare_url: `${this.config.rootUrl}${target.repository.full_name}/compare/${sha}...${sha}`,
      commits: [target.commit],
      total_commits: 1,
      head_commit: target.commit,
      repository: target.repository,
      pusher: sender,
      sender,
    };
    const [task] = await this.tasks.insertTasks([
      { hookId: hook.id, eventId: `test-${randomUUID()}`, uuid: randomUUID(), eventType: 'push', payload: JSON.stringify(payload, null, 2), repoId: target.repository.id, batch: randomUUID() },
    ]);
    await this.queue.enqueue([task!]);
  }
}
