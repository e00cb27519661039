import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expectEventually } from '@gitforge/platform/testing';
import { Api, createUser } from './support/api.js';
import { Layout } from './support/layout.js';

const TASK = 'repo_health_check';

/**
 * The embedded layout killed while a scheduled tick runs: at the next start the SQLite queue takes
 * the tick again, and the run must happen then, not be refused as "running already" by the record
 * of the run that died with the process.
 */
describe('a scheduled task killed mid-run (embedded layout)', () => {
  let layout: Layout;
  let api: Api;

  beforeAll(async () => {
    layout = await Layout.start('embedded', {
      env: {
        GITFORGE_CRON: `${TASK}=@every 3s`,
        // A longer queue lock (and with it the task's lease) than the restart takes.
        GITFORGE_QUEUE_LOCK_MS: '60000',
        GITFORGE_LOG_LEVEL: 'info',
      },
    });
    api = new Api(layout);
  });

  afterAll(async () => {
    await layout?.stop();
  });

  type Entry = { msg?: string; task?: string; tick?: string };
  const entries = (): Entry[] =>
    readFileSync(join(layout.dataDir, 'embedded-0.log'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Entry)
      .filter((e) => e.task === TASK && e.tick);

  /** Whether the task's record says a run holds it (read from the side, as the process writes it). */
  const held = (): boolean => {
    try {
      const db = new Database(join(layout.dataDir, 'admin.sqlite'), { readonly: true, timeout: 50 });
      try {
        const row = db.prepare('SELECT running_token FROM cron_task WHERE name = ?').get(TASK) as
          { running_token: string | null } | undefined;
        return row?.running_token != null;
      } finally {
        db.close();
      }
    } catch {
      return false;
    }
  };

  it('should run the killed tick again after the restart', async () => {
    // Enough repositories for the health check to take a while.
    const owner = await createUser(api, 'fsck');
    for (let i = 0; i < 30; i++)
      expect((await owner.api.post('/user/repos', { name: `r${i}`, auto_init: true })).status).toBe(201);

    await expectEventually(() => expect(held()).toBe(true), { timeoutMs: 30_000, intervalMs: 10 });
    layout.kill('embedded');
    await expectEventually(() => expect(layout.processes[0]!.child.signalCode).toBe('SIGKILL'));
    // The tick that was running: its job is still active in the queue file (another task's tick of
    // the same minute, such as start_schedule_tasks, may be active beside it).
    const queue = new Database(join(layout.dataDir, 'queue.sqlite'), { readonly: true });
    const active = queue
      .prepare(`SELECT job_id FROM queue_job WHERE queue = 'gitforge-admin-cron' AND state = 'active' AND job_id LIKE ?`)
      .all(`repeat:${TASK}:%`) as Array<{ job_id: string }>;
    queue.close();
    expect(active).toHaveLength(1);
    const killedTick = active[0]!.job_id;
    const seen = entries().length;

    layout.spawn('embedded', 0);
    await layout.waitHealthy();

    const after = await expectEventually(
      () => {
        const e = entries()
          .slice(seen)
          .filter((x) => x.tick === killedTick);
        expect(e.length).toBeGreaterThan(0);
        return e;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expect(after[0]!.msg).toBe('task started');
  });
});
