import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HookPatterns, QueueNames, type HookTarget } from '@gitforge/contracts';
import { createLogger, Database, QueueDriver, RpcClient, type QueueJob } from '@gitforge/platform';
import { WebhookWorkerConfig } from '../worker.config.js';
import type { DeliveryJob } from './delivery-queue.js';
import { buildHookRequest } from './hook-request.js';
import { HookSender, type SendResult } from './hook-sender.js';
import { Batcher } from './batcher.js';
import { HookTargetsCache } from './hook-targets.cache.js';
import type { HookTaskEntity, HookTaskState } from './hook-task.entity.js';
import { HookTasksRepository, type AttemptRecord } from './hook-tasks.repository.js';
import { HostMatcher } from './host-matcher.js';

/** Reads or writes that concurrent delivery jobs share in one statement (at most the delivery concurrency in practice). */
const MAX_BATCH = 100;

/** A failed attempt makes the job fail, so the queue retries it with exponential backoff. */
export class DeliveryFailed extends Error {}

function payloadAction(payload: string): string | null {
  try {
    const action = (JSON.parse(payload) as { action?: unknown }).action;
    return typeof action === 'string' ? action : null;
  } catch {
    return null;
  }
}

type AttemptEnd = Pick<
  AttemptRecord,
  'responseStatus' | 'responseHeaders' | 'responseBody' | 'durationMs' | 'outcome' | 'statusText'
>;

export function attemptEnd(result: SendResult): AttemptEnd {
  if (result.kind === 'response') {
    const ok = result.status >= 200 && result.status < 300;
    return {
      responseStatus: result.status,
      responseHeaders: JSON.stringify(result.headers),
      responseBody: result.body,
      durationMs: result.durationMs,
      outcome: ok ? 'success' : 'failure',
      statusText: ok ? 'OK' : `Invalid HTTP Response: ${result.status}`,
    };
  }
  const statusText =
    result.kind === 'refused'
      ? `Refused: ${result.message}`
      : result.kind === 'timeout'
        ? `Timed out: ${result.message}`
        : `Delivery: ${result.message}`;
  return {
    responseStatus: 0,
    responseHeaders: '{}',
    // Gitea records the transport error as the response body.
    responseBody: `Delivery: ${result.message}`,
    durationMs: result.durationMs,
    outcome: result.kind === 'refused' ? 'refused' : 'failure',
    statusText,
  };
}

/**
 * Second stage: delivers one hook task (recorded at fan-out, before anything is sent). Each
 * attempt is recorded as `sending` before the request goes out and completed with the answer,
 * keyed by job and attempt number, so a job that runs again after its worker died finds the
 * attempt: already answered with success, it is not sent again; still `sending`, the worker died
 * mid-send and it is sent again with the same delivery id (at least once: receivers dedupe by
 * `X-Gitea-Delivery`). Non-2xx answers, timeouts and connection errors are
 * retried by the queue with backoff up to the configured attempts; addresses refused by the
 * SSRF guard are recorded as refused and not retried. A hook failing continuously is deactivated.
 */
@Injectable()
export class HookDeliveryProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = createLogger('hook-delivery');
  private readonly sender: HookSender;
  /** Task reads of concurrent jobs, one query per batch. */
  private readonly loads: Batcher<number, HookTaskEntity | null>;
  /** Outcomes already recorded for the attempts concurrent jobs are about to make, one query per batch. */
  private readonly previous: Batcher<{ taskId: number; attemptKey: string }, AttemptRecord['outcome'] | null>;
  /** Attempt records of concurrent jobs, one commit per batch; null or the error that kept the record out. */
  private readonly records: Batcher<{ attempt: AttemptRecord; taskState: HookTaskState | null }, unknown>;

  constructor(
    private readonly queue: QueueDriver,
    private readonly db: Database,
    private readonly tasks: HookTasksRepository,
    private readonly targets: HookTargetsCache,
    private readonly rpc: RpcClient,
    private readonly config: WebhookWorkerConfig,
  ) {
    const list = [
      config.GITFORGE_WEBHOOK_ALLOWED_HOSTS || 'external',
      config.GITFORGE_WEBHOOK_ALLOW_LOOPBACK ? 'loopback' : '',
    ]
      .filter(Boolean)
      .join(',');
    this.sender = new HookSender(
      new HostMatcher(list),
      'GITFORGE_WEBHOOK_ALLOWED_HOSTS',
      config.GITFORGE_WEBHOOK_TIMEOUT_MS,
    );
    this.loads = new Batcher(async (ids) => {
      const found = new Map((await this.tasks.findTasks([...new Set(ids)])).map((t) => [t.id, t]));
      return ids.map((id) => found.get(id) ?? null);
    }, MAX_BATCH);
    this.previous = new Batcher(async (keys) => {
      const found = await this.tasks.findOutcomes(keys);
      return keys.map((k) => found.get(`${k.taskId}#${k.attemptKey}`) ?? null);
    }, MAX_BATCH);
    this.records = new Batcher(async (entries) => {
      try {
        await this.tasks.recordAttempts(entries);
        return entries.map(() => null);
      } catch (err) {
        if (entries.length === 1) return [err];
        // One record the database refuses must not fail its neighbours' jobs: write them one by one.
        return Promise.all(entries.map((e) => this.tasks.recordAttempts([e]).then(() => null, (one: unknown) => one)));
      }
    }, MAX_BATCH);
  }

  onApplicationBootstrap(): void {
    this.queue.process<DeliveryJob>(QueueNames.webhookDeliveries, (job) => this.handle(job), {
      concurrency: this.config.GITFORGE_WEBHOOK_CONCURRENCY,
    });
  }

  onApplicationShutdown(): void {
    this.sender.close();
  }

  async handle(job: QueueJob<DeliveryJob>): Promise<void> {
    const { taskId, maxAttempts, redelivery } = job.data;
    const task = await this.loads.submit(taskId);
    if (!task) {
      this.log.info({ taskId }, 'hook task is gone; nothing to deliver');
      return;
    }
    if (task.state !== 'pending' && !redelivery) return;
    const hook = await this.targets.get(task.hookId);
    // Like Gitea: a task whose hook was removed or deactivated meanwhile is closed without sending.
    if (!hook || (!hook.isActive && !redelivery)) {
      await this.db.transaction((m) => this.tasks.setTaskState(m, task.id, 'failed'));
      return;
    }
    const request = buildHookRequest(hook, task, this.config.rootUrl);
    if (!request) {
      await this.db.transaction((m) => this.tasks.setTaskState(m, task.id, 'failed'));
      return;
    }
    // A job run again after its worker died has the same attempt key as the run that died.
    const attemptKey = `${job.id}#${job.attemptsMade}`;
    const previous = await this.previous.submit({ taskId: task.id, attemptKey });
    if (previous === 'success') {
      // The worker died after recording the answer but before the queue heard of it: done already.
      this.log.info({ taskId: task.id, delivery: task.uuid }, 'attempt already delivered; not sending it again');
      return;
    }
    if (previous === 'sending') {
      // At least once: the receiver may have had it, or not. It gets the same X-Gitea-Delivery.
      this.log.warn({ taskId: task.id, delivery: task.uuid }, 'sending again an attempt whose worker died mid-send; the receiver may get it twice');
    }
    const startedAt = new Date();
    const base = {
      taskId: task.id,
      hookId: hook.id,
      attemptKey,
      guid: task.uuid,
      eventType: task.eventType,
      action: payloadAction(task.payload),
      repoId: task.repoId,
      redelivery,
      url: request.url,
      requestHeaders: JSON.stringify(request.recordedHeaders),
      requestBody: request.recordedBody,
      deliveredAt: startedAt,
    };
    // Recorded before sending, so a run that follows a crash knows this attempt was under way.
    const unrecorded = await this.records.submit({
      attempt: { ...base, responseStatus: 0, responseHeaders: '{}', responseBody: null, durationMs: 0, outcome: 'sending', statusText: 'Sending' },
      taskState: null,
    });
    if (unrecorded) throw unrecorded;
    const end = attemptEnd(await this.sender.send(request));
    const lastAttempt = job.attemptsMade + 1 >= maxAttempts || end.outcome === 'refused';
    const state = end.outcome === 'success' ? 'delivered' : lastAttempt ? 'failed' : null;
    const refused = await this.records.submit({
      attempt: { ...base, ...end },
      taskState: redelivery ? null : state,
    });
    if (refused) throw refused;
    if (end.outcome !== 'success') await this.disableIfFailing(hook);
    if (end.outcome === 'failure' && !lastAttempt) throw new DeliveryFailed(`${hook.url}: ${end.statusText}`);
  }

  /**
   * Deactivates a hook whose latest attempts since its last change all failed (GitLab's rule);
   * editing the hook, e.g. to activate it again, starts the count afresh.
   */
  private async disableIfFailing(hook: HookTarget): Promise<void> {
    const limit = this.config.GITFORGE_WEBHOOK_DISABLE_AFTER_FAILURES;
    if (limit === 0 || !hook.isActive) return;
    const outcomes = await this.tasks.recentOutcomes(hook.id, hook.updatedAtMs, limit);
    if (outcomes.length < limit || outcomes.includes('success')) return;
    this.log.warn({ hookId: hook.id, failures: limit }, 'hook keeps failing; deactivating it');
    await this.rpc.call(HookPatterns.autoDisable, { actor: null, body: { hookId: hook.id } });
    this.targets.forget(hook.id);
  }
}
