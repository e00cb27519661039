import { readFileSync } from 'node:fs';
import type { Cron } from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { Api } from './support/api.js';
import { Layout } from './support/layout.js';

const TASK = 'delete_old_system_notices';
const EVERY_MS = 2000;

/**
 * Two admin-service replicas both declare every scheduled task: each tick runs on one of them,
 * once, and no tick between the first and the last is skipped; both list the same record.
 */
describe('scheduled tasks with two admin-service replicas (distributed layout)', () => {
  let layout: Layout;
  let api: Api;

  beforeAll(async () => {
    layout = await Layout.start('distributed', {
      replicas: { admin: 2 },
      env: { GITFORGE_CRON: `${TASK}=@every 2s`, GITFORGE_LOG_LEVEL: 'info' },
    });
    api = new Api(layout);
  });

  afterAll(async () => {
    await layout?.stop();
  });

  /** The ticks each run was started for, from both replicas' logs (pino lines with `tick`). */
  function ticksRun(): Array<{ replica: string; tick: number }> {
    const runs: Array<{ replica: string; tick: number }> = [];
    for (const p of layout.processes.filter((x) => x.app === 'admin')) {
      for (const line of readFileSync(p.logFile, 'utf8').split('\n')) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { msg?: string; task?: string; tick?: string };
        if (entry.msg === 'task started' && entry.task === TASK && entry.tick)
          runs.push({ replica: `admin-${p.index}`, tick: Number(entry.tick.split(':').pop()) });
      }
    }
    return runs.sort((a, b) => a.tick - b.tick);
  }

  it('should run each tick once across the replicas, skipping none', async () => {
    const runs = await expectEventually(
      () => {
        const r = ticksRun();
        expect(r.length).toBeGreaterThanOrEqual(5);
        return r;
      },
      { timeoutMs: 40_000, intervalMs: 250 },
    );
    const ticks = runs.map((r) => r.tick);
    // Each tick once (no replica ran a tick another ran) ...
    expect(new Set(ticks).size).toBe(ticks.length);
    // ... and every tick from the first to the last, on the interval's aligned boundaries.
    for (let i = 1; i < ticks.length; i++) expect(ticks[i]! - ticks[i - 1]!).toBe(EVERY_MS);
    expect(ticks[0]! % EVERY_MS).toBe(0);

    // The record both replicas serve counts every run (each listing may be answered by either).
    await expectEventually(async () => {
      const res = await api.admin.get<Cron[]>('/admin/cron?limit=50');
      const task = res.body.find((c) => c.name === TASK)!;
      const counted = ticksRun().length;
      expect(task.exec_times).toBeGreaterThanOrEqual(counted - 1);
      expect(task.exec_times).toBeLessThanOrEqual(counted);
      expect(task.schedule).toBe('@every 2s');
      expect(Date.parse(task.next) % EVERY_MS).toBe(0);
    });
  });
});
