import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { Repository } from '@gitforge/contracts';
import { Api, createUser, type TestUser } from './support/api.js';
import { Layout } from './support/layout.js';

/**
 * The distributed layout with two replicas of org-service and repo-service: every request is
 * handled exactly once (counted by its side effects), and killing a replica mid-load loses none.
 */
describe('two replicas per service (distributed layout)', () => {
  let layout: Layout;
  let api: Api;
  let owner: TestUser;

  beforeAll(async () => {
    layout = await Layout.start('distributed', {
      replicas: { org: 2, repo: 2 },
      // A dead replica's requests are claimed after 1.5 s; callers wait up to 30 s.
      env: { GITFORGE_RPC_CLAIM_IDLE_MS: '1500', GITFORGE_RPC_TIMEOUT_MS: '30000' },
    });
    api = new Api(layout);
    owner = await createUser(api, 'load');
  });

  afterAll(async () => {
    await layout?.stop();
  });

  async function countEvents(name: string): Promise<number> {
    const client = new pg.Client({ connectionString: layout.env.DATABASE_URL });
    await client.connect();
    try {
      const res = await client.query('SELECT COUNT(*)::int AS n FROM gitforge_repo.outbox_event WHERE name = $1', [name]);
      return (res.rows[0] as { n: number }).n;
    } finally {
      await client.end();
    }
  }

  async function createRepos(names: string[], concurrency: number, onStarted?: (n: number) => void): Promise<number[]> {
    const statuses: number[] = [];
    let next = 0;
    let started = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < names.length) {
          const name = names[next++]!;
          onStarted?.(++started);
          const res = await owner.api.post<Repository>('/user/repos', { name, auto_init: true });
          statuses.push(res.status);
        }
      }),
    );
    return statuses;
  }

  it('should handle each request exactly once across replicas', async () => {
    const names = Array.from({ length: 40 }, (_, i) => `steady-${i}`);
    const statuses = await createRepos(names, 8);
    expect(statuses.filter((s) => s === 201)).toHaveLength(names.length);
    expect(await countEvents('repo.created')).toBe(names.length);
  });

  it('should survive killing a repo-service replica mid-load, applying every request once', async () => {
    const before = await countEvents('repo.created');
    const names = Array.from({ length: 40 }, (_, i) => `killed-${i}`);
    const statuses = await createRepos(names, 8, (n) => {
      if (n === 12) layout.kill('repo', 0);
    });
    expect(statuses.filter((s) => s === 201)).toHaveLength(names.length);
    expect(await countEvents('repo.created')).toBe(before + names.length);

    const listed: string[] = [];
    for (let page = 1; ; page++) {
      const res = await owner.api.get<Repository[]>(`/user/repos?limit=50&page=${page}`);
      listed.push(...res.body.map((r) => r.name));
      if (res.body.length < 50) break;
    }
    for (const name of names) expect(listed.filter((n) => n === name)).toHaveLength(1);
    // The survivor took over what the dead replica had in flight.
    const survivorLog = readFileSync(layout.processes.find((p) => p.app === 'repo' && p.index === 1)!.logFile, 'utf8');
    expect(survivorLog).toContain('claimed a request abandoned by another replica');
    for (const name of names.slice(0, 5)) {
      const repo = await owner.api.get<Repository>(`/repos/${owner.username}/${name}`);
      expect(repo.body).toMatchObject({ empty: false, branch_count: 1 });
    }
  });
});
