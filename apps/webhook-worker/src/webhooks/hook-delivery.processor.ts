import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import pLimit, { type LimitFunction } from 'p-limit';
import { HookPatterns, QueueNames, type HookTarget } from '@gitforge/contracts';
import { createLogger, Database, QueueDriver, RpcClient, webhookDeliveries, webhookDeliveryDuration, type QueueJob } from '@gitforge/platform';
import { WebhookWorkerConfig } from '../worker.config.js';
import { deliveryTaskIds, type DeliveryJob } from './delivery-queue.js';
import { buildHookRequest } from './hook-request.js';
import { HookSender, type SendResult } from './hook-sender.js';
import { Batcher, oneByOneOnFailure } from './batcher.js';
import { HookTargetsCache } from './hook-targets.cache.js';
import type { HookTaskState } from './hook-task.entity.js';
import { HookTasksRepository, type AttemptRecord, type TaskAttempt } from './hook-tasks.repository.js';
import { HostMatcher } from './host-matcher.js';

/** Reads or writes that concurrent delivery jobs share in one statement (at most the delivery concurrency in practice). */
const MAX_BATCH = 128;

/** One attempt of a job's tasks. */
export interface AttemptRun {
  /** The job's id and attempt number: a job run again after its worker died has the key of the run that died. */
  key: string;
  lastAttempt: boolean;
  redelivery: boolean;
  /** This attempt of the job ran before, in a worker that died (see {@link QueueJob.recovered}). */
  recovered: boolean;
}

/** The run of `job`'s current attempt. */
export function attemptRun(job: QueueJob<unknown>, lastAttempt: boolean, redelivery: boolean): AttemptRun {
  return { key: `${job.id}#${job.attemptsMade}`, lastAttempt, redelivery, recovered: job.recovered };
}

/** Failed attempts, to be made again after a backoff: the job fails, so the queue retries it. */
export class DeliveryFailed extends Error {
  constructor(
    message: string,
    /** The tasks whose attempt failed. */
    readonly taskIds: number[],
  ) {
    super(message);
  }
}

function payloadAction(payload: string): string | null {
  try {
    const action = (JSON.parse(payload) as { action?: unknown }).action;
    return typeof action === 'string' ? action : null;
  } catch {
    return null;
  }
}

/** Payload bytes {@link EventPayloads} holds at most, a small payload counted as the pool block it may keep alive. */
const PAYLOAD_BYTES_HELD = 32 * 1024 * 1024;
const POOL_BLOCK = 8 * 1024;

/**
 * What the deliveries of one event share, worked out once per event rather than once per
 * delivery: its payload's `action` (by event), and its payload as bytes, sent as is to gitea and
 * gogs hooks (by batch, whose tasks share one stored payload; undici would encode a text body
 * again for every request). Bytes are reused only for the very text they were made of. Bounded:
 * cleared when full.
 */
class EventPayloads {
  private readonly actions = new Map<string, string | null>();
  private readonly encoded = new Map<string, { payload: string; bytes: Buffer }>();
  private bytesHeld = 0;

  action(eventId: string, payload: string): string | null {
    let action = this.actions.get(eventId);
    if (action === undefined) {
      if (this.actions.size >= 10_000) this.actions.clear();
      action = payloadAction(payload);
      this.actions.set(eventId, action);
    }
    return action;
  }

  bytes(batch: string, payload: string): Buffer {
    const held = this.encoded.get(batch);
    if (held?.payload === payload) return held.bytes;
    const bytes = Buffer.from(payload);
    const cost = Math.max(bytes.length, POOL_BLOCK);
    if (this.bytesHeld + cost > PAYLOAD_BYTES_HELD || this.encoded.size >= 10_000) {
      this.encoded.clear();
      this.bytesHeld = 0;
    }
    if (held) this.bytesHeld -= Math.max(held.bytes.length, POOL_BLOCK);
    this.encoded.set(batch, { payload, bytes });
    this.bytesHeld += cost;
    return bytes;
  }
}

type AttemptEnd = Pick<
  AttemptRecord,
  'responseStatus' | 'responseHeaders' | 'responseBody' | 'durationMs' | 'outcome' | 'statusText'
>;

/**
 * A received body as it can be recorded: PostgreSQL text holds no NUL character, and a record it
 * refuses would fail the job after the receiver had the request (sent again on every retry).
 */
function recordable(body: string): string {
  return body.includes('\u0000') ? body.replaceAll('\u0000', '\ufffd') : body;
}

export function attemptEnd(result: SendResult): AttemptEnd {
  if (result.kind === 'response') {
    const ok = result.status >= 200 && result.status < 300;
    return {
      responseStatus: result.status,
      responseHeaders: JSON.stringify(result.headers),
      responseBody: recordable(result.body),
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
 * Delivers hook tasks (recorded at fan-out, before anything is sent): their first attempt for
 * the fan-out (see HookFanoutProcessor), later ones as the jobs of the delivery queue (an
 * event's tasks for every hook it reaches, see DeliveryQueue, or one task redelivered), each on
 * its own and at most GITFORGE_WEBHOOK_CONCURRENCY at once across jobs. Each
 * attempt is recorded once its answer is in (one row, written once), keyed by job and attempt
 * number, so a job that runs again after its worker died finds the attempt: answered, it is not
 * sent again (a failure waits for the queue's next attempt); not recorded, the worker may have
 * died mid-send, and it is sent (again) with the same delivery id (at least once: receivers
 * dedupe by `X-Gitea-Delivery`). Recording an attempt as under way before sending it too cost
 * a second write per delivery (two fifths of a backlog's drain time) and would change nothing of
 * this: an attempt found under way is sent again all the same. Non-2xx answers, timeouts and
 * connection errors are retried by the queue with backoff up to the configured attempts (the job
 * runs again for the tasks it has not settled); addresses refused by the SSRF guard are recorded
 * as refused and not retried. A hook failing continuously is deactivated.
 */
@Injectable()
export class HookDeliveryProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = createLogger('hook-delivery');
  private readonly sender: HookSender;
  private readonly payloads = new EventPayloads();
  /** The tasks concurrent jobs deliver, with what is recorded of the attempts they are about to make: one query per batch. */
  private readonly loads: Batcher<{ taskId: number; attemptKey: string }, TaskAttempt | null>;
  /** The attempts concurrent jobs made, with their answers and the tasks they settle: one commit per batch. */
  private readonly records: Batcher<{ attempt: AttemptRecord; taskState: HookTaskState | null }, undefined>;
  /**
   * Requests under way at once, across jobs: GITFORGE_WEBHOOK_CONCURRENCY, as when a job was one
   * delivery. A slot is held from reading the task until the answer is in: an answered attempt
   * waits for its record (a batch's commit) without keeping the next request from going out.
   */
  private readonly slots: LimitFunction;

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
      config.GITFORGE_WEBHOOK_CONCURRENCY,
    );
    this.slots = pLimit(config.GITFORGE_WEBHOOK_CONCURRENCY);
    this.loads = new Batcher(async (keys) => {
      const found = await this.tasks.findTaskAttempts(keys);
      return keys.map((k) => found.get(`${k.taskId}#${k.attemptKey}`) ?? null);
    }, MAX_BATCH);
    this.records = new Batcher(
      oneByOneOnFailure(async (batch: Array<{ attempt: AttemptRecord; taskState: HookTaskState | null }>) => {
        await this.tasks.recordAttempts(batch);
        return batch.map(() => undefined);
      }),
      MAX_BATCH,
    );
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
    const { maxAttempts, redelivery } = job.data;
    const { failed, crash } = await this.attempt(deliveryTaskIds(job.data), attemptRun(job, job.attemptsMade + 1 >= maxAttempts, redelivery));
    if (crash !== undefined) throw crash;
    if (failed) throw failed;
  }

  /**
   * One attempt of each task in `run`. A task is given by id, or as its caller holds it with what
   * is recorded of this attempt (none: its caller has just made it). Every task is seen through before
   * this answers, so an attempt after the backoff never overlaps a send of this one. Answers the
   * tasks to attempt again (those delivered or closed are done) as one {@link DeliveryFailed},
   * and the first other error any task met (its task is left as it was, for a later run).
   */
  async attempt(tasks: Array<number | TaskAttempt>, run: AttemptRun): Promise<{ failed?: DeliveryFailed; crash?: unknown }> {
    const outcomes = await Promise.allSettled(tasks.map((t) => this.deliver(t, run)));
    const errors = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    const failures = errors.filter((e): e is DeliveryFailed => e instanceof DeliveryFailed);
    const crash = errors.find((e) => !(e instanceof DeliveryFailed));
    return {
      ...(failures.length > 0 ? { failed: new DeliveryFailed(failures.map((e) => e.message).join('; '), failures.flatMap((e) => e.taskIds)) } : {}),
      ...(crash !== undefined ? { crash } : {}),
    };
  }

  /** One attempt of one task; throws {@link DeliveryFailed} when the task is to be attempted again. */
  private async deliver(given: number | TaskAttempt, run: AttemptRun): Promise<void> {
    // The task, its hook as it is now and the request are made ready in the slot, right before
    // the request goes out (a hook deactivated or edited while the task waited for a slot is seen
    // so); the answer is recorded out of it, so the next request need not wait for the commit.
    const made = await this.slots(() => this.send(given, run));
    if (!made) return;
    const { hook, attempt, final } = made;
    await this.records.submit({ attempt, taskState: run.redelivery ? null : attempt.outcome === 'success' ? 'delivered' : final ? 'failed' : null });
    if (attempt.outcome !== 'success') await this.disableIfFailing(hook);
    if (attempt.outcome === 'failure' && !final) throw new DeliveryFailed(`${hook.url}: ${attempt.statusText}`, [attempt.taskId]);
  }

  /** The request of one attempt, sent: what to record of it, or null when there is nothing to send (or record). */
  private async send(given: number | TaskAttempt, run: AttemptRun): Promise<{ hook: HookTarget; attempt: AttemptRecord; final: boolean } | null> {
    const { key: attemptKey, lastAttempt, redelivery } = run;
    const loaded = typeof given === 'number' ? await this.loads.submit({ taskId: given, attemptKey }) : given;
    if (!loaded) {
      this.log.info({ taskId: given }, 'hook task is gone; nothing to deliver');
      return null;
    }
    const { task, previous } = loaded;
    if (task.state !== 'pending' && !redelivery) return null;
    const hook = await this.targets.get(task.hookId);
    // Like Gitea: a task whose hook was removed or deactivated meanwhile is closed without sending.
    if (!hook || (!hook.isActive && !redelivery)) {
      await this.db.transaction((m) => this.tasks.setTaskState(m, task.id, 'failed'));
      return null;
    }
    const request = buildHookRequest(hook, task, this.config.rootUrl);
    if (!request) {
      await this.db.transaction((m) => this.tasks.setTaskState(m, task.id, 'failed'));
      return null;
    }
    if (previous === 'success') {
      // The worker died after recording the answer but before the queue heard of it: done already.
      this.log.info({ taskId: task.id, delivery: task.uuid }, 'attempt already delivered; not sending it again');
      return null;
    }
    if (previous === 'failure') {
      // The worker died after recording a failed answer but before the queue heard of it: the
      // attempt was made, and the next one is the queue's, after the backoff (see DeliveryQueue.retry
      // for a fan-out's first attempt: a job queued for it already is found, not added twice).
      throw new DeliveryFailed(`${hook.url}: this attempt failed already`, [task.id]);
    }
    // An attempt recorded as under way (by a worker from before attempts were recorded only once
    // answered), or not recorded in a run its worker died in: at least once, the receiver may have
    // had it, or not. It gets the same X-Gitea-Delivery.
    if (previous === 'sending' || (previous === null && run.recovered && typeof given === 'number')) {
      this.log.warn({ taskId: task.id, delivery: task.uuid }, 'sending an attempt that its worker may have been sending when it died; the receiver may get it twice');
    }
    const startedAt = new Date();
    // A task of a batch sends the batch's payload: the same bytes for every hook that gets it as is.
    const sent = task.batch && request.body === task.payload ? { ...request, body: this.payloads.bytes(task.batch, task.payload) } : request;
    const end = attemptEnd(await this.sender.send(sent));
    const attempt: AttemptRecord = {
      taskId: task.id,
      hookId: hook.id,
      attemptKey,
      guid: task.uuid,
      eventType: task.eventType,
      action: loaded.action !== undefined ? loaded.action : this.payloads.action(task.eventId, task.payload),
      repoId: task.repoId,
      redelivery,
      url: request.url,
      requestHeaders: JSON.stringify(request.recordedHeaders),
      // Gitea and gogs hooks are sent the stored payload itself: the record points at it, but for a
      // redelivery's, recorded only once answered, by when the daily cleanup may have taken an old task.
      requestBody: request.recordedBody === task.payload && !redelivery ? null : request.recordedBody,
      deliveredAt: startedAt,
      responseStatus: end.responseStatus,
      responseHeaders: end.responseHeaders,
      responseBody: end.responseBody,
      durationMs: end.durationMs,
      outcome: end.outcome,
      statusText: end.statusText,
    };
    webhookDeliveries.inc({ outcome: end.outcome });
    webhookDeliveryDuration.observe({ outcome: end.outcome }, end.durationMs / 1000);
    return { hook, attempt, final: lastAttempt || end.outcome === 'refused' };
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
