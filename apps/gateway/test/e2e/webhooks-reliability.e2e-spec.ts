import { readFileSync, statSync } from 'node:fs';
import { QueueNames, type CreateHookOption, type EventEnvelope, type Hook, type HookDelivery, type Repository } from '@gitforge/contracts';
import { addBullJob, expectEventually, queryDatabase } from '@gitforge/platform/testing';
import { Api, createUser, uniqueName, type TestUser } from './support/api.js';
import { HookReceiver } from './support/hook-receiver.js';
import { Layout } from './support/layout.js';
import { PrivateRedis } from './support/private-redis.js';

/**
 * Webhook delivery under failure, in the distributed layout (PostgreSQL, Redis, one process per
 * app). The queues run on a Redis of this suite's own (GITFORGE_QUEUE_REDIS_URL), which it stops
 * and starts; requests keep flowing over the shared Redis.
 */
describe('webhook delivery reliability (distributed layout)', () => {
  let queueRedis: PrivateRedis;
  let layout: Layout;
  let api: Api;
  let receiver: HookReceiver;

  const hookTo = (path: string): CreateHookOption => ({
    type: 'gitea',
    config: { url: receiver.url(path), content_type: 'json' },
    events: ['repository'],
    active: true,
  });

  async function userWithHook(path: string): Promise<{ user: TestUser; hook: Hook }> {
    const user = await createUser(api, 'rel');
    const res = await user.api.post<Hook>('/user/hooks', hookTo(path));
    expect(res.status).toBe(201);
    return { user, hook: res.body };
  }

  async function createRepo(user: TestUser, name = uniqueName('rel')): Promise<Repository> {
    const res = await user.api.post<Repository>('/user/repos', { name });
    expect(res.status).toBe(201);
    return res.body;
  }

  const deliveries = async (user: TestUser, hook: Hook): Promise<HookDelivery[]> =>
    (await user.api.get<HookDelivery[]>(`/user/hooks/${hook.id}/deliveries`)).body;

  beforeAll(async () => {
    queueRedis = await PrivateRedis.start();
    receiver = await HookReceiver.start();
    layout = await Layout.start('distributed', {
      env: {
        GITFORGE_QUEUE_REDIS_URL: queueRedis.url,
        GITFORGE_WEBHOOK_ALLOW_LOOPBACK: '1',
        GITFORGE_WEBHOOK_BACKOFF_MS: '300',
        GITFORGE_WEBHOOK_MAX_ATTEMPTS: '4',
        GITFORGE_QUEUE_LOCK_MS: '2000',
        // Fewer deliveries at once than the mid-drain case sends, so some are in flight at the
        // kill and the rest still queued (at the default 128 all 40 would be in flight).
        GITFORGE_WEBHOOK_CONCURRENCY: '8',
        // The receiver holds deliveries for as long as a test needs (the 40 repositories of the
        // mid-drain case take several seconds to create on a slow machine): none may time out and
        // be retried meanwhile, or more than the concurrency would reach the receiver.
        GITFORGE_WEBHOOK_TIMEOUT_MS: '120000',
        GITFORGE_QUEUE_SHUTDOWN_GRACE_MS: '1000',
        // The mid-drain test counts the worker's warnings about attempts it sends again.
        GITFORGE_LOG_LEVEL: 'info',
      },
    });
    api = new Api(layout);
  });

  afterAll(async () => {
    await layout?.stop();
    await receiver?.close();
    await queueRedis?.stop();
  });

  it('should deliver every event made while Redis was down once it is back (the outbox held them)', async () => {
    const { user } = await userWithHook('/outage');
    await queueRedis.stop();
    const names = [uniqueName('down'), uniqueName('down'), uniqueName('down')];
    for (const name of names) await createRepo(user, name);
    const held = await queryDatabase<{ n: string }>(
      layout.env.DATABASE_URL!,
      `SELECT COUNT(*) AS n FROM gitforge_repo.outbox_event WHERE sent_at IS NULL AND name = 'repo.created'`,
    );
    expect(Number(held[0]!.n)).toBeGreaterThanOrEqual(3);
    expect(receiver.at('/outage')).toEqual([]);

    await queueRedis.start();
    const got = await receiver.waitFor('/outage', 3, 60_000);
    const delivered = got.map((d) => (JSON.parse(d.body) as { repository: Repository }).repository.name);
    expect(delivered.sort()).toEqual([...names].sort());
    expect(new Set(got.map((d) => d.headers['x-gitea-delivery'])).size).toBe(3);
  });

  it('should deliver after the webhook worker is killed mid-delivery, recording the attempt once', async () => {
    const { user, hook } = await userWithHook('/slow');
    const release = receiver.hold('/slow');
    await createRepo(user);
    await receiver.waitFor('/slow', 1);
    layout.kill('webhook');
    release();
    layout.spawn('webhook', 0);
    await layout.waitHealthy();

    // The job's lock expires, a worker takes it as stalled, and the same attempt runs again.
    const [first, second] = await receiver.waitFor('/slow', 2, 60_000);
    expect(second!.headers['x-gitea-delivery']).toBe(first!.headers['x-gitea-delivery']);
    const list = await expectEventually(async () => {
      const d = await deliveries(user, hook);
      expect(d.map((x) => x.status_code)).toEqual([200]);
      return d;
    });
    expect(list[0]).toMatchObject({ guid: first!.headers['x-gitea-delivery'], outcome: 'success', redelivery: false });
  });

  /**
   * Kills the worker while it has `events` repository events to deliver to each of `paths.length`
   * hooks of one user, with deliveries to the `held` paths in flight (received, not yet answered),
   * those to the others answered, and the rest queued, then checks that each event reached each
   * hook, and that only those in flight came twice.
   */
  async function killMidDrain(paths: string[], events: number, held = paths): Promise<void> {
    const user = await createUser(api, 'rel');
    const hooks: Hook[] = [];
    for (const path of paths) {
      const res = await user.api.post<Hook>('/user/hooks', hookTo(path));
      expect(res.status).toBe(201);
      hooks.push(res.body);
    }
    // The receiver holds what the held paths get until the kill: the worker has a set of
    // deliveries in flight and the rest queued when it dies.
    for (const path of paths) receiver.delay(path, 50);
    const releases = held.map((path) => receiver.hold(path));
    const total = events * paths.length;
    await Promise.all(Array.from({ length: events }, () => createRepo(user, uniqueName('drain'))));
    const received = (): ReturnType<HookReceiver['at']> => paths.flatMap((path) => receiver.at(path));
    const inFlight = (): number => held.reduce((n, path) => n + receiver.at(path).length, 0);
    // GITFORGE_WEBHOOK_CONCURRENCY deliveries at once: all of them held in the end.
    await expectEventually(() => expect(inFlight()).toBe(Number(layout.env.GITFORGE_WEBHOOK_CONCURRENCY)), { timeoutMs: 60_000, intervalMs: 50 });
    // The running replica (an earlier test killed and respawned it; both write the same log file).
    const worker = layout.processes.find((p) => p.app === 'webhook' && p.index === 0 && p.child.exitCode === null && p.child.signalCode === null)!;
    const webhookLog = worker.logFile;
    const logOffset = statSync(webhookLog).size;
    const exited = new Promise((resolve) => worker.child.once('exit', resolve));
    layout.kill('webhook');
    const killedAt = Date.now();
    // Counted once the worker is gone and what it wrote before dying has been read.
    await exited;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const beforeKill = inFlight();
    for (const release of releases) release();
    layout.spawn('webhook', 0);
    await layout.waitHealthy();

    const ids = (): string[] => received().map((d) => d.headers['x-gitea-delivery']!);
    // Every delivery has arrived, and each one the receiver held at the kill has come again: the
    // restarted worker takes their jobs once their locks expire. (With every delivery in flight at
    // the kill, all ids are there at once; counting ids alone would not wait for the re-sends.)
    await expectEventually(
      () => {
        expect(new Set(ids()).size).toBe(total);
        expect(ids().length).toBeGreaterThanOrEqual(total + beforeKill);
      },
      { timeoutMs: 120_000, intervalMs: 100 },
    );
    const allAt = Date.now();
    const seen = new Map<string, number>();
    for (const id of ids()) seen.set(id, (seen.get(id) ?? 0) + 1);
    const twice = [...seen.values()].filter((n) => n > 1).length;
    const log = readFileSync(webhookLog, 'utf8').slice(logOffset);
    const resent = log.split('\n').filter((l) => l.includes('sending an attempt that its worker may have been sending when it died')).length;
    const afterKill = received().filter((d) => d.at >= killedAt).sort((a, b) => a.at - b.at);
    console.log(
      `webhook worker killed mid-drain (${events} events × ${paths.length} hooks; ${beforeKill} of ${total} deliveries in flight at the receiver, the rest answered or queued): ${total} deliveries, 0 lost, ${twice} sent twice ` +
        `(reason: the worker was killed while sending them, after the receiver had them and before their answer was recorded; ` +
        `the restarted worker logged ${resent} unrecorded attempts of the jobs it took over, which it sent (again) under the same X-Gitea-Delivery); ` +
        `delivery resumed ${afterKill.length ? afterKill[0]!.at - killedAt : -1} ms after the kill, ` +
        `the interrupted ones ${Math.max(0, ...afterKill.filter((d) => seen.get(d.headers['x-gitea-delivery']!)! > 1).map((d) => d.at - killedAt))} ms after it, ` +
        `all delivered ${allAt - killedAt} ms after it (GITFORGE_QUEUE_LOCK_MS=${layout.env.GITFORGE_QUEUE_LOCK_MS})`,
    );
    // Each hook got each event under a delivery id of its own.
    for (const path of paths) expect(new Set(receiver.at(path).map((d) => d.headers['x-gitea-delivery'])).size).toBe(events);
    // Sent twice: exactly the deliveries the receiver held unanswered when the worker died (their
    // answers were never recorded, so each is sent again); nothing it had not started.
    expect(twice).toBe(beforeKill);
    // Every extra receipt is an attempt of a job the restarted worker took over, found unrecorded, and said so.
    const extra = [...seen.values()].reduce((sum, n) => sum + n - 1, 0);
    expect(extra).toBeLessThanOrEqual(resent);
    // Every attempt ends recorded once, with its answer; none is left as sending.
    await expectEventually(async () => {
      for (const hook of hooks) {
        const list = (await user.api.get<HookDelivery[]>(`/user/hooks/${hook.id}/deliveries?limit=50`)).body;
        expect(list).toHaveLength(events);
        expect(list.filter((d) => d.outcome !== 'success')).toEqual([]);
      }
    });
  }

  it('should lose no delivery when the webhook worker is killed mid-drain, and send again only those it was sending', async () => {
    await killMidDrain(['/drain'], 40);
  });

  it('should lose no delivery of events sent to several hooks (one job each) when the worker is killed mid-drain', async () => {
    // An event's deliveries to its three hooks share a job: the kill leaves jobs with deliveries
    // answered, in flight and not started, and their next run sends only the unanswered ones.
    await killMidDrain(['/fan-a', '/fan-b', '/fan-c'], 12, ['/fan-b']);
  });

  it('should retry a receiver answering 500 with backoff and record both attempts', async () => {
    const { user, hook } = await userWithHook('/retry');
    receiver.respond('/retry', [500]);
    await createRepo(user);
    const [first, second] = await receiver.waitFor('/retry', 2);
    expect(second!.headers['x-gitea-delivery']).toBe(first!.headers['x-gitea-delivery']);
    // A lower bound only: the retry waits at least the configured backoff (300 ms), however slow the machine.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(250);
    await expectEventually(async () => {
      const d = await deliveries(user, hook);
      expect(d.map((x) => [x.status_code, x.outcome])).toEqual([
        [200, 'success'],
        [500, 'failure'],
      ]);
    });
  });

  it('should deliver an event published twice once', async () => {
    const { user, hook } = await userWithHook('/twice');
    const repo = await createRepo(user);
    await receiver.waitFor('/twice', 1);
    const [row] = await queryDatabase<{ event_id: string; envelope: string }>(
      layout.env.DATABASE_URL!,
      `SELECT event_id, envelope FROM gitforge_repo.outbox_event WHERE name = 'repo.created' AND envelope LIKE $1`,
      [`%"full_name":"${repo.full_name}"%`],
    );
    expect(row).toBeDefined();
    // A hook made after the event: the second publication below reaches it, which shows the
    // event went through the fan-out again.
    const late = await user.api.post<Hook>('/user/hooks', hookTo('/twice-late'));
    expect(late.status).toBe(201);

    // Once through the outbox again (the relay queues it under the same job id) …
    // Nothing kicks the relay for this row: its poll finds it, and an idle relay looks every 8 s.
    await queryDatabase(layout.env.DATABASE_URL!, `UPDATE gitforge_repo.outbox_event SET sent_at = NULL WHERE event_id = $1`, [row!.event_id]);
    await expectEventually(
      async () => {
        const [r] = await queryDatabase<{ sent_at: string | null }>(layout.env.DATABASE_URL!, `SELECT sent_at FROM gitforge_repo.outbox_event WHERE event_id = $1`, [
          row!.event_id,
        ]);
        expect(r!.sent_at).not.toBeNull();
      },
      { timeoutMs: 30_000 },
    );
    // … and once straight onto the queue under another job id, as a relay replica that lost its claim might.
    const envelope = JSON.parse(row!.envelope) as EventEnvelope;
    await addBullJob(queueRedis.url, `${layout.env.GITFORGE_REDIS_NAMESPACE}-bull`, QueueNames.webhooks, envelope.name, envelope, `${envelope.id}-again`);

    await receiver.waitFor('/twice-late', 1);
    expect(receiver.at('/twice')).toHaveLength(1);
    expect(await deliveries(user, hook)).toHaveLength(1);
  });
});

describe('webhook SSRF guard (distributed layout, no loopback allowance)', () => {
  let layout: Layout;
  let api: Api;
  let receiver: HookReceiver;

  beforeAll(async () => {
    receiver = await HookReceiver.start();
    layout = await Layout.start('distributed', { env: { GITFORGE_WEBHOOK_BACKOFF_MS: '200' } });
    api = new Api(layout);
  });

  afterAll(async () => {
    await layout?.stop();
    await receiver?.close();
  });

  it.each([
    ['a loopback address', () => receiver.url('/ssrf'), (url: string) => url.replace(/^http:\/\/127\.0\.0\.1:\d+\/ssrf$/, '127.0.0.1')],
    ['a name resolving to loopback', () => `http://localhost:${receiver.port}/ssrf`, () => 'localhost'],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/', () => '169.254.169.254'],
  ])('should refuse to deliver to %s and record the delivery as refused', async (_what, url, host) => {
    const user = await createUser(api, 'ssrf');
    const target = url();
    const hook = await user.api.post<Hook>('/user/hooks', { type: 'gitea', config: { url: target, content_type: 'json' }, events: ['repository'], active: true } satisfies CreateHookOption);
    expect(hook.status).toBe(201);
    const repo = await user.api.post<Repository>('/user/repos', { name: uniqueName('ssrf') });
    expect(repo.status).toBe(201);
    const [d] = await expectEventually(
      async () => {
        const list = (await user.api.get<HookDelivery[]>(`/user/hooks/${hook.body.id}/deliveries`)).body;
        expect(list).toHaveLength(1);
        expect(list[0]!.outcome).toBe('refused');
        return list;
      },
      { timeoutMs: 20_000 },
    );
    expect(d).toMatchObject({ status_code: 0, status: expect.stringContaining(`deny '${host(target)}`) });
    expect(d!.status).toMatch(/^Refused: webhook can only call allowed HTTP servers \(check your GITFORGE_WEBHOOK_ALLOWED_HOSTS setting\)/);
    expect(receiver.at('/ssrf')).toEqual([]);
  });
});
