import {
  CommitStatusPatterns,
  RepoActionsPatterns,
  type ActionsCommitStatus,
  type WorkflowFiles,
} from '@gitforge/contracts';
import {
  Database,
  SecretBox,
  type RpcClient,
} from '@gitforge/platform';
import { ActionsCronService } from '../src/cron/actions-cron.service.js';
import {
  ActionRunEntity,
  ActionRunJobEntity,
  ActionRunnerTokenEntity,
  ActionScheduleEntity,
  ActionTaskEntity,
} from '../src/entities.js';
import { openActionsTestDatabase, type ActionsTestDatabase } from './support/database.js';
import { RunnersService, sha256 } from '../src/runners/runners.service.js';
import { RunEngine } from '../src/runs/run-engine.service.js';
import { SchedulesService } from '../src/runs/schedules.service.js';
import { Status } from '../src/runs/status.js';
import type { ScopeService } from '../src/scope.service.js';

const WORKFLOW = `name: Nightly
on:
  push:
  schedule:
    - cron: '*/5 * * * *'
    - cron: 'not a spec'
jobs:
  build:
    runs-on: ubuntu-latest
  deploy:
    needs: build
    runs-on: ubuntu-latest
`;
const SHA = 'a'.repeat(40);

/**
 * The actions cron tasks and what only time reaches (expired tokens, due schedules, stalled tasks),
 * on a real database of each kind. repo-service's side is played by a transport that answers the
 * workflow files and records the commit statuses.
 */
describe.each(['sqlite', 'postgres'] as const)('actions cron tasks (%s)', (engineKind) => {
  let store: ActionsTestDatabase;
  let db: Database;
  let engine: RunEngine;
  let cron: ActionsCronService;
  let runners: RunnersService;
  const statuses: ActionsCommitStatus[] = [];
  const files: WorkflowFiles = {
    sha: SHA,
    ref: null,
    files: [{ path: '.gitea/workflows/nightly.yml', content: WORKFLOW }],
    changedPaths: null,
  };

  beforeAll(async () => {
    store = await openActionsTestDatabase(engineKind, 'actions_cron');
    db = store.db;
    const config = store.config;
    const rpc = {
      call: async (pattern: string, req: { body: unknown }) => {
        if (pattern === RepoActionsPatterns.workflowFiles) return files;
        if (pattern === CommitStatusPatterns.createForActions) {
          statuses.push(req.body as ActionsCommitStatus);
          return null;
        }
        throw new Error(`unexpected call ${pattern}`);
      },
    } as unknown as RpcClient;
    engine = new RunEngine(db, rpc);
    const box = new SecretBox('a-test-secret-key-123');
    runners = new RunnersService(db, {} as ScopeService, box, config);
    const schedules = new SchedulesService(db, engine);
    cron = new ActionsCronService(db, engine, runners, schedules, config);
  });

  afterAll(async () => {
    await store?.close();
  });

  it('refuses an expired registration token', async () => {
    const past = new Date(Date.now() - 60_000);
    await db.manager.insert(ActionRunnerTokenEntity, {
      tokenHash: sha256('expired-token'),
      sealed: 'v1:x',
      ownerId: 0,
      repoId: 0,
      isActive: true,
      createdAt: past,
      expiresAt: past,
    });
    await expect(
      runners.register({
        name: 'late',
        token: 'expired-token',
        version: 'v1',
        labels: ['x'],
        ephemeral: false,
      }),
    ).rejects.toMatchObject({
      code: 'invalid_argument',
      message: expect.stringContaining('expired'),
    });
  });

  it('starts scheduled runs when they are due, once per time', async () => {
    const schedules = new SchedulesService(db, engine);
    const at = (iso: string) => new Date(`2026-01-01T${iso}Z`);
    expect(
      await schedules.replace(
        { repoId: 7, ownerId: 3 },
        { ref: 'refs/heads/main', sha: SHA, triggerUserId: 5 },
        files,
        at('00:01:00'),
      ),
    ).toBe(1);
    const [row] = await db.manager.findBy(ActionScheduleEntity, { repoId: 7 });
    expect(row!.nextRun.toISOString()).toBe('2026-01-01T00:05:00.000Z');
    expect(await cron.startScheduleTasks(at('00:04:59'))).toEqual({ affected: 0 });
    expect(await cron.startScheduleTasks(at('00:05:00'))).toEqual({ affected: 1 });
    expect(await cron.startScheduleTasks(at('00:05:01'))).toEqual({ affected: 0 });
    const runs = await db.manager.findBy(ActionRunEntity, { repoId: 7, event: 'schedule' });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ workflowId: 'nightly.yml', commitSha: SHA, triggerUserId: 5 });
    // A later push without schedules clears them.
    await schedules.replace(
      { repoId: 7, ownerId: 3 },
      { ref: 'refs/heads/main', sha: SHA, triggerUserId: 5 },
      { ...files, files: [] },
    );
    expect(await db.manager.countBy(ActionScheduleEntity, { repoId: 7 })).toBe(0);
  });

  it('fails tasks the runner stopped reporting, and skips what needed them', async () => {
    const [runId] = await engine.trigger({
      repoId: 8,
      ownerId: 3,
      event: 'push',
      ref: 'refs/heads/main',
      sha: SHA,
      triggerUserId: 5,
      title: 't',
      payload: {},
      key: 'zombie',
    });
    const build = (await db.manager.findOneBy(ActionRunJobEntity, { runId, jobId: 'build' }))!;
    const old = new Date(Date.now() - 11 * 60_000);
    const task = await db.manager.save(
      db.manager.create(ActionTaskEntity, {
        jobId: build.id,
        runId,
        repoId: 8,
        runnerId: 1,
        attempt: 1,
        status: Status.running,
        started: old,
        createdAt: old,
        updatedAt: old,
      }),
    );
    await db.manager.update(
      ActionRunJobEntity,
      { id: build.id },
      { status: Status.running, taskId: task.id },
    );
    expect(await cron.stopEndlessTasks()).toEqual({ affected: 0 });
    expect(await cron.stopZombieTasks()).toEqual({ affected: 1 });
    expect(await cron.stopZombieTasks()).toEqual({ affected: 0 });
    const jobs = await db.manager.find(ActionRunJobEntity, { where: { runId }, order: { id: 'ASC' } });
    expect(jobs.map((j) => [j.jobId, j.status])).toEqual([
      ['build', Status.failure],
      ['deploy', Status.skipped],
    ]);
    expect((await db.manager.findOneBy(ActionRunEntity, { id: runId }))!.status).toBe(Status.failure);
    expect(statuses.filter((s) => s.repoId === 8).map((s) => [s.context, s.state])).toEqual(
      expect.arrayContaining([
        ['Nightly / build (push)', 'failure'],
        ['Nightly / deploy (push)', 'skipped'],
      ]),
    );
  });

  it('cancels jobs left waiting, and empties old logs', async () => {
    const [runId] = await engine.trigger({
      repoId: 9,
      ownerId: 3,
      event: 'push',
      ref: 'refs/heads/main',
      sha: SHA,
      triggerUserId: 5,
      title: 't',
      payload: {},
      key: 'abandoned',
    });
    expect(await cron.cancelAbandonedJobs()).toEqual({ affected: 0 });
    expect(await cron.cancelAbandonedJobs(Date.now() + 25 * 3600_000)).toEqual({ affected: 2 });
    expect((await db.manager.findOneBy(ActionRunEntity, { id: runId }))!.status).toBe(Status.cancelled);

    const longAgo = new Date(Date.now() - 400 * 86_400_000);
    const task = await db.manager.save(
      db.manager.create(ActionTaskEntity, {
        jobId: 1,
        runId,
        repoId: 9,
        runnerId: 1,
        status: Status.success,
        log: 'old line\n',
        logLength: 1,
        started: longAgo,
        stopped: longAgo,
        createdAt: longAgo,
        updatedAt: longAgo,
      }),
    );
    expect((await cron.cleanup()).affected).toBeGreaterThanOrEqual(1);
    expect((await db.manager.findOneBy(ActionTaskEntity, { id: task.id }))!.log).toBe('');
  });
});
