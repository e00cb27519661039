import { randomUUID } from 'node:crypto';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HookPatterns, QueueNames, type EventEnvelope, type HookMatchQuery, type HookTarget } from '@gitforge/contracts';
import { createLogger, QueueDriver, RpcClient, type QueueJob } from '@gitforge/platform';
import { WebhookWorkerConfig } from '../worker.config.js';
import { DeliveryQueue, deliveryJobId, retryJobId } from './delivery-queue.js';
import { attemptRun, HookDeliveryProcessor } from './hook-delivery.processor.js';
import { isRawHookType } from './hook-types/hook-types.js';
import { HookTargetsCache } from './hook-targets.cache.js';
import { Batcher, oneByOneOnFailure } from './batcher.js';
import { HookTasksRepository, type InsertedTask, type NewTask, type PendingTask, type StoredTask } from './hook-tasks.repository.js';
import { buildHookPayload } from './payloads/webhook-payloads.js';

/**
 * Events fanned out at once. Each mostly waits (on admin-service, on the commit of its tasks, on
 * Redis), and what concurrent fan-outs wait for goes out together: one hook query, one insert and
 * one queue call per batch of events.
 */
const FANOUT_CONCURRENCY = 128;
/** Events whose hook queries, task inserts or delivery jobs share one call. */
const MAX_BATCH = 64;
/** Tasks left pending by a crash or an unreachable queue are queued again at start, in pages of this. */
const SWEEP_PAGE = 500;

/**
 * One domain event becomes one hook task per hook it reaches, written before anything is sent
 * (unique on hook and event, so a replayed event creates nothing new), and its tasks' first
 * attempt is made by the event's own job, as {@link HookDeliveryProcessor} makes any attempt
 * (recorded once answered, keyed by this job's id and attempt number, so a run after the worker
 * died finds it and does not send it again). Tasks whose first attempt failed go to the delivery
 * queue for the attempts left, a backoff later; a failure anywhere else makes the queue run the
 * event again, which attempts every task of the event still pending (those of hooks it reaches no
 * more too), but for those whose retry is queued already. Going straight from the insert to the first send
 * spares each event a second job, and each task the reading back of what its fan-out held.
 * Concurrent events share their calls (see {@link Batcher}): a call that fails fails the events
 * that shared it, which run again; an insert the database refuses is retried event by event.
 */
@Injectable()
export class HookFanoutProcessor implements OnApplicationBootstrap {
  private readonly log = createLogger('hook-fanout');
  private readonly matching: Batcher<HookMatchQuery, HookTarget[]>;
  private readonly inserts: Batcher<NewTask[], InsertedTask[]>;
  private readonly pendingOf: Batcher<string, StoredTask[]>;

  constructor(
    private readonly queue: QueueDriver,
    private readonly rpc: RpcClient,
    private readonly tasks: HookTasksRepository,
    private readonly targets: HookTargetsCache,
    private readonly deliveries: DeliveryQueue,
    private readonly delivery: HookDeliveryProcessor,
    private readonly config: WebhookWorkerConfig,
  ) {
    this.matching = new Batcher(
      (queries) => this.rpc.call<HookTarget[][], Record<string, string>, { queries: HookMatchQuery[] }>(HookPatterns.matching, { actor: null, body: { queries } }),
      MAX_BATCH,
    );
    this.inserts = new Batcher(
      oneByOneOnFailure(async (events: NewTask[][]) => {
        const stored = new Map((await this.tasks.insertTasks(events.flat())).map((t) => [`${t.hookId}#${t.eventId}`, t]));
        return events.map((asked) => asked.flatMap((t) => stored.get(`${t.hookId}#${t.eventId}`) ?? []));
      }),
      MAX_BATCH,
    );
    this.pendingOf = new Batcher(async (eventIds) => {
      const found = await this.tasks.findPendingOfEvents([...new Set(eventIds)]);
      return eventIds.map((id) => found.filter((t) => t.eventId === id));
    }, MAX_BATCH);
  }

  onApplicationBootstrap(): void {
    this.queue.process<EventEnvelope>(QueueNames.webhooks, (job) => this.handle(job), { concurrency: FANOUT_CONCURRENCY });
    void this.requeuePending().catch((err: unknown) => this.log.warn({ err }, 'could not re-queue pending hook tasks'));
  }

  async handle(job: QueueJob<EventEnvelope>): Promise<void> {
    const envelope = job.data;
    // Gitea copies the default hooks into a repository when it is created, before announcing it
    // (also into a user's fork, whose creation reaches no repository hook).
    if (envelope.name === 'repo.created' && envelope.repoId) {
      await this.rpc.call(HookPatterns.copyDefaults, { actor: null, body: { repoId: envelope.repoId } });
    }
    const built = buildHookPayload(envelope);
    if (!built) return;
    const query: HookMatchQuery = { event: built.event, repoId: built.repoId, ownerId: built.ownerId, ref: built.ref };
    let targets = await this.matching.submit(query);
    // Gitea sends no "0 new commits" message to chat services; integrations still get the push.
    if (built.chatTypesSkip) targets = targets.filter((t) => isRawHookType(t.type));
    let fresh: InsertedTask[] = [];
    let payload = '';
    if (targets.length > 0) {
      this.targets.prime(targets);
      payload = JSON.stringify(built.payload, null, built.indent ?? 2);
      const batch = randomUUID();
      const tasks = await this.inserts.submit(
        targets.map((t) => ({ hookId: t.id, eventId: envelope.id, uuid: randomUUID(), eventType: built.event, payload, repoId: built.repoId, batch })),
      );
      fresh = tasks.filter((t) => t.fresh);
    }
    // What an earlier run of this event left pending, also for hooks it reaches no more (the
    // delivery closes those of a hook deactivated or removed since). Only a run after one that
    // failed or was cut short can find any: a run that finished attempted every task it made, and
    // queued the retry of each that failed (the event published again runs as a first run).
    const made = new Set(fresh.map((t) => t.id));
    const earlier = job.attemptsMade > 0 || job.recovered ? (await this.pendingOf.submit(envelope.id)).filter((t) => !made.has(t.id)) : [];
    if (fresh.length === 0 && earlier.length === 0) return;
    // An earlier run's task whose retry is queued already (or that a delivery job of its batch
    // holds: queued by the sweep at start) is that job's to send.
    const jobsOf = (t: StoredTask): string[] => [retryJobId(t), deliveryJobId(t)];
    const queued = earlier.length > 0 ? await this.queue.unfinished(QueueNames.webhookDeliveries, [...new Set(earlier.flatMap(jobsOf))]) : new Set<string>();
    // A task this run made has the payload held here and no attempt yet; one an earlier run made
    // is read with what was recorded of this attempt (the same key when the job runs again after
    // its worker died).
    const action = 'action' in built.payload && typeof built.payload.action === 'string' ? built.payload.action : null;
    const given = [...fresh.map((t) => ({ task: { ...t, payload }, previous: null, action })), ...earlier.filter((t) => !jobsOf(t).some((id) => queued.has(id))).map((t) => t.id)];
    if (given.length === 0) return;
    const { failed, crash } = await this.delivery.attempt(given, attemptRun(job, this.config.GITFORGE_WEBHOOK_MAX_ATTEMPTS <= 1, false));
    // The failed ones are queued for their next attempt before anything else can fail the job.
    if (failed) {
      const again = new Set(failed.taskIds);
      await this.deliveries.retry([...fresh, ...earlier].filter((t) => again.has(t.id)));
    }
    if (crash !== undefined) throw crash;
  }

  /**
   * Gitea re-queues undelivered tasks at start; a task whose job is still known to the queue
   * finds it (see DeliveryQueue). Tasks whose event is still to run (or running, here or on
   * another replica, or to be recovered from a worker that died) are left to that run, which
   * attempts them, and those with a retry queued to it. Read in full before queuing, so a job
   * gets its whole group.
   */
  private async requeuePending(): Promise<void> {
    const pending: PendingTask[] = [];
    for (let after = 0; ; ) {
      const page = await this.tasks.findPendingTasks(after, SWEEP_PAGE);
      pending.push(...page);
      if (page.length < SWEEP_PAGE) break;
      after = page[page.length - 1]!.id;
    }
    const running = await this.queue.unfinished(QueueNames.webhooks, [...new Set(pending.map((t) => t.eventId))]);
    const retrying = await this.queue.unfinished(QueueNames.webhookDeliveries, pending.map(retryJobId));
    await this.deliveries.enqueue(pending.filter((t) => !running.has(t.eventId) && !retrying.has(retryJobId(t))));
  }
}
