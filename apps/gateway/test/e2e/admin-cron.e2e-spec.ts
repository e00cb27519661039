import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Cron, Repository } from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { Api, createUser, giteaError, type TestUser } from './support/api.js';
import { GitCli, gitUrl } from './support/git.js';
import { HookReceiver } from './support/hook-receiver.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { commitOnDisk, gitOnDisk, repoDir, serviceQuery } from './support/repo-disk.js';

const ZERO = '0001-01-01T00:00:00Z';

/** The tasks this build registers, in Gitea's order (other features add theirs in between). */
const TASKS = [
  'repo_health_check',
  'check_repo_stats',
  'archive_cleanup',
  'cleanup_hook_task_table',
  'sync_repo_licenses',
  'delete_inactive_accounts',
  'delete_repo_archives',
  'git_gc_repos',
  'reinit_missing_repos',
  'delete_old_actions',
  'delete_old_system_notices',
];

describe.each(layoutsUnderTest())('admin cron tasks (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let receiver: HookReceiver;
  let git: GitCli;

  beforeAll(async () => {
    receiver = await HookReceiver.start();
    layout = await Layout.start(kind, {
      env: {
        GITFORGE_WEBHOOK_ALLOW_LOOPBACK: '1',
        // Short retentions, so "old" is reached while the test waits; git_gc_repos scheduled as an operator would.
        GITFORGE_CRON_OLDER_THAN:
          'cleanup_hook_task_table=1s; archive_cleanup=1s; delete_old_system_notices=1s; delete_old_actions=1s',
        GITFORGE_CRON: 'git_gc_repos=@every 24h; check_repo_stats=-',
      },
    });
    api = new Api(layout);
    alice = await createUser(api, 'alice');
    git = GitCli.create();
  });

  afterAll(async () => {
    git?.cleanup();
    await layout?.stop();
    await receiver?.close();
  });

  const tasks = async (): Promise<Map<string, Cron>> => {
    const res = await api.admin.get<Cron[]>('/admin/cron?limit=50');
    expect(res.status).toBe(200);
    return new Map(res.body.map((c) => [c.name, c]));
  };

  /** Runs a task by name and answers its record before and after. */
  async function runTask(name: string): Promise<{ before: Cron; after: Cron }> {
    const before = (await tasks()).get(name)!;
    const res = await api.admin.post(`/admin/cron/${name}`);
    expect(res.status).toBe(204);
    const after = (await tasks()).get(name)!;
    expect(after.exec_times).toBe(before.exec_times + 1);
    expect(after.prev).not.toBe(ZERO);
    return { before, after };
  }

  const notices = () =>
    serviceQuery<{ description: string }>(layout, 'admin', {
      sqlite: 'SELECT description FROM system_notice',
      pg: 'SELECT description FROM gitforge_admin.system_notice',
    });

  it('should list the tasks in Gitea order with their schedules, paged in memory', async () => {
    const res = await api.admin.get<Cron[]>('/admin/cron?limit=50');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe(String(res.body.length));
    expect(res.headers.get('link')).toBeNull();
    expect(res.body.map((c) => c.name).filter((n) => TASKS.includes(n))).toEqual(TASKS);
    const byName = new Map(res.body.map((c) => [c.name, c]));
    expect(byName.get('repo_health_check')).toEqual({
      name: 'repo_health_check',
      schedule: '@midnight',
      next: expect.stringMatching(/T00:00:00Z$/),
      prev: ZERO,
      exec_times: 0,
    });
    // Turned off and on from the environment.
    expect(byName.get('check_repo_stats')).toMatchObject({ schedule: '-', next: ZERO });
    expect(byName.get('git_gc_repos')!.schedule).toBe('@every 24h');
    expect(Date.parse(byName.get('git_gc_repos')!.next) % (24 * 3600 * 1000)).toBe(0);
    // Off by default.
    for (const off of ['delete_repo_archives', 'reinit_missing_repos', 'delete_old_actions']) expect(byName.get(off)).toMatchObject({ schedule: '-', next: ZERO });

    const page = await api.admin.get<Cron[]>('/admin/cron?page=2&limit=2');
    expect(page.status).toBe(200);
    expect(page.body.map((c) => c.name)).toEqual(res.body.slice(2, 4).map((c) => c.name));
    expect(page.headers.get('x-total-count')).toBe(String(res.body.length));
  });

  it('should refuse non-admins (403), anonymous callers (401) and unknown tasks (404)', async () => {
    expect(await alice.api.get('/admin/cron')).toMatchObject({ status: 403, body: giteaError() });
    expect(await alice.api.post('/admin/cron/git_gc_repos')).toMatchObject({
      status: 403,
      body: giteaError(),
    });
    expect((await api.anonymous.get('/admin/cron')).status).toBe(401);
    expect((await api.anonymous.post('/admin/cron/git_gc_repos')).status).toBe(401);
    expect(await api.admin.post('/admin/cron/no_such_task')).toMatchObject({ status: 404, body: { message: 'not found' } });
    expect((await tasks()).get('git_gc_repos')!.exec_times).toBe(0);
  });

  it('should pack loose objects into one pack with a bitmap and a commit graph (git_gc_repos)', async () => {
    const repo = (await alice.api.post<Repository>('/user/repos', { name: 'gc-me', auto_init: true })).body;
    let head = (await gitOnDisk(layout, repo.id, ['rev-parse', 'main'])).trim();
    for (let i = 0; i < 3; i++)
      head = await commitOnDisk(
        layout,
        repo.id,
        'main',
        [{ path: `f${i}.txt`, content: `file ${i}\n` }],
        `commit ${i}`,
        head,
      );
    const count = async () =>
      Object.fromEntries(
        (await gitOnDisk(layout, repo.id, ['count-objects', '-v']))
          .trim()
          .split('\n')
          .map((l) => l.split(': ')),
      );
    expect(Number((await count()).count)).toBeGreaterThan(0);

    await runTask('git_gc_repos');

    expect(await count()).toMatchObject({ count: '0', packs: '1' });
    const packDir = join(repoDir(layout, repo.id), 'objects', 'pack');
    expect(readdirSync(packDir).some((f) => f.endsWith('.bitmap'))).toBe(true);
    expect(existsSync(join(repoDir(layout, repo.id), 'objects', 'info', 'commit-graph'))).toBe(true);
    expect((await gitOnDisk(layout, repo.id, ['rev-parse', 'main'])).trim()).toBe(head);
  });

  it('should keep packed objects no ref reaches yet, as a push in flight has them (git_gc_repos)', async () => {
    const repo = (await alice.api.post<Repository>('/user/repos', { name: 'gc-in-flight', auto_init: true }))
      .body;
    const head = (await gitOnDisk(layout, repo.id, ['rev-parse', 'main'])).trim();
    // A push between moving its pack out of quarantine and updating its ref: a pack of objects
    // that no ref reaches yet (receive-pack keeps pushes of more than 100 objects as packs).
    const blob = (await gitOnDisk(layout, repo.id, ['hash-object', '-w', '--stdin'], 'in flight\n')).trim();
    const tree = (
      await gitOnDisk(layout, repo.id, ['mktree'], `100644 blob ${blob}\tin-flight.txt\n`)
    ).trim();
    const commit = (
      await gitOnDisk(layout, repo.id, ['commit-tree', tree, '-p', head, '-m', 'in flight'])
    ).trim();
    await gitOnDisk(
      layout,
      repo.id,
      ['pack-objects', '-q', join(repoDir(layout, repo.id), 'objects', 'pack', 'pack')],
      `${commit}\n${tree}\n${blob}\n`,
    );
    await gitOnDisk(layout, repo.id, ['prune-packed']);

    await runTask('git_gc_repos');

    // The push then updates its ref: every object it needs is still there.
    await gitOnDisk(layout, repo.id, ['update-ref', 'refs/heads/main', commit, head]);
    await gitOnDisk(layout, repo.id, ['fsck', '--no-progress', '--no-dangling']);
    expect(await gitOnDisk(layout, repo.id, ['cat-file', '-p', `${commit}:in-flight.txt`])).toBe(
      'in flight\n',
    );
  });

  it('should housekeep a repository after a push that leaves a pack without a bitmap, and serve blob-less clones', async () => {
    const repo = (await alice.api.post<Repository>('/user/repos', { name: 'pushed-pack' })).body;
    const wc = git.dir();
    await git.run(['init', '--quiet', wc]);
    // More objects than receive.unpackLimit (100): the push is kept as a pack, as received.
    const files = Object.fromEntries(
      Array.from({ length: 150 }, (_, i) => [`file${i}.txt`, `content ${i}\n`]),
    );
    await git.commit(wc, files, 'many files');
    await git.run(
      [
        'push',
        '--quiet',
        gitUrl(layout, alice.username, 'pushed-pack', [alice.username, alice.password]),
        'main',
      ],
      { cwd: wc },
    );

    const packDir = join(repoDir(layout, repo.id), 'objects', 'pack');
    await expectEventually(
      () => {
        expect(readdirSync(packDir).filter((f) => f.endsWith('.pack'))).toHaveLength(1);
        expect(readdirSync(packDir).some((f) => f.endsWith('.bitmap'))).toBe(true);
        expect(existsSync(join(repoDir(layout, repo.id), 'objects', 'info', 'commit-graph'))).toBe(true);
      },
      { timeoutMs: 20_000 },
    );

    const clone = git.dir('blobless');
    const res = await git.run([
      'clone',
      '--quiet',
      '--filter=blob:none',
      '--no-checkout',
      gitUrl(layout, alice.username, 'pushed-pack', [alice.username, alice.password]),
      clone,
    ]);
    expect(res.stderr).not.toMatch(/filtering not recognized/);
    // No blob came with the clone; the checkout fetches the ones it needs (allowAnySHA1InWant).
    expect(
      (await git.run(['rev-list', '--objects', '--missing=print', 'HEAD'], { cwd: clone })).stdout,
    ).toMatch(/^\?[0-9a-f]{40}$/m);
    await git.run(['checkout', '--quiet', 'main'], { cwd: clone });
    expect(existsSync(join(clone, 'file149.txt'))).toBe(true);
  });

  it('should leave nothing on disk of a repository deleted while it is housekept after a push', async () => {
    const wc = git.dir();
    await git.run(['init', '--quiet', wc]);
    // Enough objects that the full repack the push calls for is still running when the deletion comes.
    await git.commit(
      wc,
      Object.fromEntries(Array.from({ length: 8000 }, (_, i) => [`f${i}.txt`, `content ${i}\n`])),
      'many files',
    );
    /** The housekeeping after a push of the repository ended (housekept, or failed on the deleted directory). */
    const housekept = (repoId: number): boolean =>
      layout.processes
        .filter((p) => p.app === 'repo' || p.app === 'embedded')
        .some((p) =>
          readFileSync(p.logFile, 'utf8')
            .split('\n')
            .filter((l) => l.startsWith('{'))
            .map((l) => JSON.parse(l) as { msg?: string; repoId?: number })
            .some(
              (e) =>
                e.repoId === repoId &&
                (e.msg === 'repository housekept' || e.msg === 'housekeeping after a push failed'),
            ),
        );
    for (let i = 0; i < 2; i++) {
      const name = `deleted-while-housekept-${i}`;
      const repo = (await alice.api.post<Repository>('/user/repos', { name })).body;
      await git.run(
        ['push', '--quiet', gitUrl(layout, alice.username, name, [alice.username, alice.password]), 'main'],
        { cwd: wc },
      );
      expect((await alice.api.delete(`/repos/${repo.full_name}`)).status).toBe(204);
      await expectEventually(() => expect(housekept(repo.id)).toBe(true), {
        timeoutMs: 60_000,
        intervalMs: 250,
      });
      expect(existsSync(repoDir(layout, repo.id))).toBe(false);
    }
  });

  it('should remove deliveries older than the retention (cleanup_hook_task_table)', async () => {
    const repo = (await alice.api.post<Repository>('/user/repos', { name: 'hooked', auto_init: true })).body;
    const hook = await alice.api.post<{ id: number }>(`/repos/${repo.full_name}/hooks`, {
      type: 'gitea',
      active: true,
      events: ['push'],
      config: { url: receiver.url('/cron-hook'), content_type: 'json' },
    });
    expect(hook.status).toBe(201);
    expect((await alice.api.post(`/repos/${repo.full_name}/hooks/${hook.body.id}/tests`)).status).toBe(204);
    await receiver.waitFor('/cron-hook');
    const deliveries = `/repos/${repo.full_name}/hooks/${hook.body.id}/deliveries`;
    await expectEventually(async () =>
      expect((await alice.api.get<unknown[]>(deliveries)).body).toHaveLength(1),
    );

    // The retention is one second: once the delivery is older, a run removes it.
    await expectEventually(
      async () => {
        await runTask('cleanup_hook_task_table');
        expect((await alice.api.get<unknown[]>(deliveries)).body).toEqual([]);
      },
      { timeoutMs: 20_000, intervalMs: 500 },
    );
  });

  it('should fix drifted repository counters (check_repo_stats), even while unscheduled', async () => {
    const repo = (await alice.api.post<Repository>('/user/repos', { name: 'drifted', auto_init: true })).body;
    await serviceQuery(
      layout,
      'repo',
      {
        sqlite: 'UPDATE repository SET num_stars = 42, size_kib = 1 WHERE id = ?',
        pg: 'UPDATE gitforge_repo.repository SET num_stars = 42, size_kib = 1 WHERE id = $1',
      },
      [repo.id],
    );
    expect((await alice.api.get<Repository>(`/repos/${repo.full_name}`)).body.stars_count).toBe(42);

    await runTask('check_repo_stats');

    const fixed = (await alice.api.get<Repository>(`/repos/${repo.full_name}`)).body;
    expect(fixed.stars_count).toBe(0);
    expect(fixed.size).toBeGreaterThan(1);
  });

  it('should report a broken repository as a system notice (repo_health_check), and delete old notices', async () => {
    const repo = (await alice.api.post<Repository>('/user/repos', { name: 'broken', auto_init: true })).body;
    // Lose the commit object that main points at.
    const head = (await gitOnDisk(layout, repo.id, ['rev-parse', 'main'])).trim();
    rmSync(join(repoDir(layout, repo.id), 'objects', head.slice(0, 2), head.slice(2)));

    await runTask('repo_health_check');
    expect((await notices()).map((n) => n.description)).toContainEqual(
      expect.stringContaining(`health check failed on ${alice.username}/broken`),
    );

    await expectEventually(
      async () => {
        await runTask('delete_old_system_notices');
        expect(await notices()).toEqual([]);
      },
      { timeoutMs: 20_000, intervalMs: 500 },
    );
  });

  it('should remove cached archives: old ones (archive_cleanup) and all (delete_repo_archives)', async () => {
    const repo = (
      await alice.api.post<Repository>('/user/repos', { name: 'archived-cache', auto_init: true })
    ).body;
    const cache = join(layout.dataDir, 'repo-archives', String(repo.id));
    const download = async () =>
      expect((await alice.api.get(`/repos/${repo.full_name}/archive/main.zip`)).status).toBe(200);
    const cached = () => (existsSync(cache) ? readdirSync(cache).filter((f) => f.endsWith('.zip')) : []);
    await download();
    await expectEventually(() => expect(cached()).toHaveLength(1));
    await expectEventually(
      async () => {
        await runTask('archive_cleanup');
        expect(cached()).toEqual([]);
      },
      { timeoutMs: 20_000, intervalMs: 500 },
    );

    await download();
    await expectEventually(() => expect(cached()).toHaveLength(1));
    await runTask('delete_repo_archives');
    expect(cached()).toEqual([]);
  });

  it('should never delete a site administrator, even a deactivated one (delete_inactive_accounts)', async () => {
    const idleAdmin = await createUser(api, 'idleadmin');
    const patched = await api.admin.patch(`/admin/users/${idleAdmin.username}`, {
      active: false,
      admin: true,
      login_name: idleAdmin.username,
      source_id: 0,
    });
    expect(patched.status).toBe(200);

    await runTask('delete_inactive_accounts');

    expect((await api.admin.get(`/users/${idleAdmin.username}`)).status).toBe(200);
  });

  it('should delete never-activated accounts, keeping those that own repositories (delete_inactive_accounts)', async () => {
    const idle = await createUser(api, 'idle');
    const owner = await createUser(api, 'idleowner');
    expect((await owner.api.post('/user/repos', { name: 'kept' })).status).toBe(201);
    for (const u of [idle, owner])
      expect(
        (
          await api.admin.patch(`/admin/users/${u.username}`, {
            active: false,
            login_name: u.username,
            source_id: 0,
          })
        ).status,
      ).toBe(200);

    await runTask('delete_inactive_accounts');

    expect((await api.admin.get(`/users/${idle.username}`)).status).toBe(404);
    expect((await api.admin.get(`/users/${owner.username}`)).status).toBe(200);
    expect((await api.admin.get(`/users/${alice.username}`)).status).toBe(200);
  });

  it('should give a repository whose directory is gone an empty one again (reinit_missing_repos)', async () => {
    const lost = (await alice.api.post<Repository>('/user/repos', { name: 'lost', auto_init: true, default_branch: 'trunk' })).body;
    const kept = (await alice.api.post<Repository>('/user/repos', { name: 'kept-whole', auto_init: true })).body;
    const keptHead = (await gitOnDisk(layout, kept.id, ['rev-parse', 'main'])).trim();
    rmSync(repoDir(layout, lost.id), { recursive: true, force: true });

    await runTask('reinit_missing_repos');

    expect(readFileSync(join(repoDir(layout, lost.id), 'HEAD'), 'utf8').trim()).toBe('ref: refs/heads/trunk');
    expect((await alice.api.get<Repository>(`/repos/${lost.full_name}`)).body).toMatchObject({ empty: true, default_branch: 'trunk' });
    // It takes a push again; the repository that had its files is left as it was.
    const wc = git.dir();
    await git.run(['init', '--quiet', wc]);
    await git.commit(wc, { 'again.txt': 'again\n' }, 'again');
    await git.run(['push', '--quiet', gitUrl(layout, alice.username, 'lost', [alice.username, alice.password]), 'HEAD:trunk'], { cwd: wc });
    await expectEventually(async () => expect((await alice.api.get<Repository>(`/repos/${lost.full_name}`)).body.empty).toBe(false));
    expect((await gitOnDisk(layout, kept.id, ['rev-parse', 'main'])).trim()).toBe(keptHead);
  });

  it('should delete activity feed entries older than its retention (delete_old_actions)', async () => {
    const bob = await createUser(api, 'bob');
    expect((await bob.api.post('/user/repos', { name: 'active' })).status).toBe(201);
    const feed = async () => (await bob.api.get<unknown[]>(`/users/${bob.username}/activities/feeds?only-performed-by=true`)).body;
    await expectEventually(async () => expect((await feed()).length).toBeGreaterThan(0));
    // Older than the one second the environment sets.
    await expectEventually(
      async () => {
        await runTask('delete_old_actions');
        expect(await feed()).toEqual([]);
      },
      { timeoutMs: 20_000, intervalMs: 500 },
    );
  });
});
