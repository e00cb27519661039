import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Repository } from '@gitforge/contracts';
import { expectEventually, queryDatabase } from '@gitforge/platform/testing';
import { Api, createUser, type TestUser } from './support/api.js';
import { Layout } from './support/layout.js';

/**
 * Issue 21, item 3: a repo-service replica killed (SIGKILL) in the middle of many repository
 * creations. Every request is answered, none is applied twice, and once the killed replica is back
 * no directory is left under the data directory's repositories folder without its row.
 */
describe('a repo-service replica killed mid-create (distributed layout, 2 replicas)', () => {
  let layout: Layout;
  let owner: TestUser;

  beforeAll(async () => {
    layout = await Layout.start('distributed', {
      replicas: { repo: 2 },
      // A dead replica's requests are claimed after 1.5 s; callers wait up to 30 s.
      env: { GITFORGE_RPC_CLAIM_IDLE_MS: '1500', GITFORGE_RPC_TIMEOUT_MS: '30000' },
    });
    owner = await createUser(new Api(layout), 'fault');
  });

  afterAll(async () => {
    await layout?.stop();
  });

  const repositories = (): string => join(layout.dataDir, 'repositories');

  async function rowIds(): Promise<number[]> {
    const rows = await queryDatabase<{ id: number }>(
      layout.env.DATABASE_URL!,
      'SELECT id FROM gitforge_repo.repository ORDER BY id',
    );
    return rows.map((r) => Number(r.id));
  }

  /** Every entry under repositories/: repositories in place, and anything in the staging area. */
  function onDisk(): { inPlace: number[]; other: string[] } {
    const inPlace: number[] = [];
    const other: string[] = [];
    for (const name of readdirSync(repositories())) {
      const id = /^(\d+)\.git$/.exec(name)?.[1];
      if (id) inPlace.push(Number(id));
      else if (name === '.staging')
        other.push(...readdirSync(join(repositories(), name)).map((n) => `.staging/${n}`));
      else other.push(name);
    }
    return { inPlace: inPlace.sort((a, b) => a - b), other };
  }

  it('should answer every request once and leave no orphan directory', async () => {
    const names = Array.from({ length: 48 }, (_, i) => `crash-${i}`);
    const answers = new Map<string, number>();
    const latencies: number[] = [];
    let next = 0;
    let started = 0;
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        while (next < names.length) {
          const name = names[next++]!;
          // Killed while the first dozen are in flight: some are mid-transaction, mid-git, or committed but unanswered.
          if (++started === 16) layout.kill('repo', 0);
          const t0 = performance.now();
          const res = await owner.api.post<Repository>('/user/repos', { name, auto_init: true });
          latencies.push(performance.now() - t0);
          answers.set(name, res.status);
        }
      }),
    );
    console.log(
      `fault-create: ${names.length} creations, statuses ${JSON.stringify(Object.fromEntries([...new Set(answers.values())].map((s) => [s, [...answers.values()].filter((x) => x === s).length])))}, max in-flight latency ${Math.round(Math.max(...latencies))} ms`,
    );

    // Answered: a repository, or a clean refusal; never a server error, never silence.
    expect(answers.size).toBe(names.length);
    for (const status of answers.values())
      expect(status === 201 || (status >= 400 && status < 500)).toBe(true);

    // The killed replica comes back; its start settles what it left behind.
    layout.spawn('repo', 0);
    await layout.waitHealthy();

    // Applied once: each name is one repository, created by one event.
    const listed: string[] = [];
    for (let page = 1; ; page++) {
      const res = await owner.api.get<Repository[]>(`/user/repos?limit=50&page=${page}`);
      listed.push(...res.body.map((r) => r.name));
      if (res.body.length < 50) break;
    }
    for (const name of names) expect(listed.filter((n) => n === name).length).toBeLessThanOrEqual(1);
    for (const [name, status] of answers) if (status === 201) expect(listed).toContain(name);
    const events = await queryDatabase<{ n: number }>(
      layout.env.DATABASE_URL!,
      "SELECT COUNT(*)::int AS n FROM gitforge_repo.outbox_event WHERE name = 'repo.created'",
    );
    expect(events[0]!.n).toBe(listed.length);

    // No orphan: exactly one repository in place per row, nothing else under repositories/.
    await expectEventually(
      async () => {
        const disk = onDisk();
        expect(disk.other).toEqual([]);
        expect(disk.inPlace).toEqual(await rowIds());
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );

    const settled = layout.processes
      .filter((p) => p.app === 'repo')
      .flatMap((p) => readFileSync(p.logFile, 'utf8').split('\n'))
      .filter((line) => line.includes('settled a repository left in staging'));
    console.log(
      `fault-create: ${settled.length} staged repositories settled after the kill (${settled.filter((l) => l.includes('"promoted"')).length} moved into place)`,
    );

    // A name whose create was refused, or any new one, can be created now.
    for (const name of [...names.filter((n) => answers.get(n) !== 201), 'crash-after']) {
      const res = await owner.api.post<Repository>('/user/repos', { name, auto_init: true });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name, empty: false });
    }
  });
});
