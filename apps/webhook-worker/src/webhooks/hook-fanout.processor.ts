import { randomUUID } from 'node:crypto';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HookPatterns, QueueNames, type EventEnvelope, type HookMatchQuery, type HookTarget } from '@gitforge/contracts';
import { createLogger, QueueDriver, RpcClient, type QueueJob } from '@gitforge/platform';
import { DeliveryQueue, type QueuedTask } from './delivery-queue.js';
import { isRawHookType } from './hook-types/hook-types.js';
import { HookTargetsCache } from './hook-targets.cache.js';
import { Batcher, oneByOneOnFailure } from './batcher.js';
import { HookTasksRepository, type NewTask, type StoredTask } from './hook-tasks.repository.js';
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
 * First stage: one domain event becomes one hook task per hook it reaches, written before
 * anything is sent (unique on hook and event, so a replayed event creates nothing new), then
 * each task is queued for delivery. A failure anywhere makes the queue run the event again.
 * Concurrent events share their calls (see {@link Batcher}): a call that fails fails the events
 * that shared it, which run again; an insert the database refuses is retried event by event.
 */
@Injectable()
export class HookFanoutProcessor implements OnApplicationBootstrap {
  private readonly log = createLogger('hook-fanout');
  private readonly matching: Batcher<HookMatchQuery, HookTarget[]>;
  private readonly inserts: Batcher<NewTask[], StoredTask[]>;
  private readonly enqueues: Batcher<QueuedTask[], undefined>;

  constructor(
    private readonly queue: QueueDriver,
    private readonly rpc: RpcClient,
    private readonly tasks: HookTasksRepository,
    private readonly targets: HookTargetsCache,
    private readonly deliveries: DeliveryQueue,
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
    this.enqueues = new Batcher(async (events) => {
      await this.deliveries.enqueue(events.flat());
      return events.map(() => undefined);
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
    if (targets.length === 0) return;
    this.targets.prime(targets);
    const payload = JSON.stringify(built.payload, null, built.indent ?? 2);
    const batch = randomUUID();
    const tasks = await this.inserts.submit(
      targets.map((t) => ({ hookId: t.id, eventId: envelope.id, uuid: randomUUID(), eventType: built.event, payload, repoId: built.repoId, batch })),
    );
    // One delivery job for the event's tasks (see DeliveryQueue).
    const pending = tasks.filter((t) => t.state === 'pending');
    if (pending.length > 0) await this.enqueues.submit(pending);
  }

  /**
   * Gitea re-queues undelivered tasks at start; a task whose job is still known to the queue
   * finds it (see DeliveryQueue). Read in full before queuing, so a job gets its whole group.
   */
  private async requeuePending(): Promise<void> {
    const pending: QueuedTask[] = [];
    for (let after = 0; ; ) {
      const page = await this.tasks.findPendingTasks(after, SWEEP_PAGE);
      pending.push(...page);
      if (page.length < SWEEP_PAGE) break;
      after = page[page.length - 1]!.id;
    }
    await this.deliveries.enqueue(pending);
  }
}
