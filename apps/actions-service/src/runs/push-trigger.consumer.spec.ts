import { EventNames, type EventEnvelope } from '@gitforge/contracts';
import type { QueueDriver, QueueJob } from '@gitforge/platform';
import { PushTriggerConsumer } from './push-trigger.consumer.js';
import type { RunEngine } from './run-engine.service.js';
import type { SchedulesService } from './schedules.service.js';

const repository = { id: 5, owner: { id: 3 }, has_actions: true, archived: false, default_branch: 'main' };
const push = (actor: { id: number; login: string }, ref = 'refs/heads/feature', extra: Record<string, unknown> = {}): QueueJob<EventEnvelope> =>
  ({
    data: {
      id: `event-${actor.id}`,
      name: EventNames.repoPushed,
      version: 1,
      occurredAt: new Date(0).toISOString(),
      actor,
      repoId: 5,
      payload: { ref, before: '1'.repeat(40), after: '2'.repeat(40), pusher: actor, repository, head_commit: { message: 'x' }, ...extra },
    },
  }) as unknown as QueueJob<EventEnvelope>;

describe(PushTriggerConsumer.name, () => {
  let triggered: string[];
  let payloads: Record<string, unknown>[];
  let scheduled: string[];
  let sut: PushTriggerConsumer;

  beforeEach(() => {
    triggered = [];
    payloads = [];
    scheduled = [];
    const engine = {
      workflowFiles: async () => ({ sha: '2'.repeat(40), ref: null, files: [], changedPaths: null }),
      trigger: async (t: { key: string; payload: Record<string, unknown> }) => {
        triggered.push(t.key);
        payloads.push(t.payload);
        return [];
      },
    } as unknown as RunEngine;
    const schedules = {
      replace: async (_repo: unknown, at: { ref: string; sha: string }) => {
        scheduled.push(`${at.ref}@${at.sha}`);
      },
    } as unknown as SchedulesService;
    sut = new PushTriggerConsumer({} as QueueDriver, engine, schedules);
  });

  it("should start runs for a user's push", async () => {
    await sut.handle(push({ id: 7, login: 'alice' }));
    expect(triggered).toEqual(['event-7']);
  });

  it("should start nothing for a push made with a task's token (the Actions user)", async () => {
    await sut.handle(push({ id: -2, login: 'gitea-actions' }));
    expect(triggered).toEqual([]);
  });

  it("should still take the schedules from a push to the default branch made with a task's token, starting no run", async () => {
    await sut.handle(push({ id: -2, login: 'gitea-actions' }, 'refs/heads/main'));
    expect(triggered).toEqual([]);
    expect(scheduled).toEqual([`refs/heads/main@${'2'.repeat(40)}`]);
  });

  it("should give a merge's push to the workflow as Gitea's push payload, without the merged pull only the forge reads", async () => {
    await sut.handle(push({ id: 7, login: 'alice' }, 'refs/heads/main', { merged_pull: 4 }));
    expect(triggered).toEqual(['event-7']);
    expect(payloads[0]).toMatchObject({ ref: 'refs/heads/main', pusher: { login: 'alice' } });
    expect(payloads[0]).not.toHaveProperty('merged_pull');
  });
});
