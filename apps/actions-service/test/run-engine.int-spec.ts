import {
  CommitStatusPatterns,
  RepoActionsPatterns,
  RepoFactPatterns,
  type WorkflowFiles,
} from '@gitforge/contracts';
import {
  Database,
  SecretBox,
  type DirectoryClient,
  type PlatformConfig,
  type RpcClient,
} from '@gitforge/platform';
import {
  ActionRunEntity,
  ActionRunJobEntity,
  ActionRunnerEntity,
  ActionTaskEntity,
} from '../src/entities.js';
import { openActionsTestDatabase, type ActionsTestDatabase } from './support/database.js';
import { RunnersService, sha256 } from '../src/runners/runners.service.js';
import { RunEngine } from '../src/runs/run-engine.service.js';
import { Status } from '../src/runs/status.js';
import type { ScopeService } from '../src/scope.service.js';
import { TasksService } from '../src/tasks/tasks.service.js';
import { VariablesService } from '../src/variables/variables.service.js';

/** Two jobs that a third needs, finishing at the same moment (two runners, two replicas). */
const WORKFLOW = `on: push
jobs:
  a:
    runs-on: ubuntu-latest
    steps: [{ run: echo a }]
  b:
    runs-on: ubuntu-latest
    steps: [{ run: echo b }]
  c:
    needs: [a, b]
    runs-on: ubuntu-latest
    steps: [{ run: echo c }]
`;

/** A job needing a matrix job whose three combinations finish at the same moment. */
const MATRIX_WORKFLOW = `on: push
jobs:
  build:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        node: [18, 20, 22]
    steps: [{ run: echo build }]
  after:
    needs: build
    runs-on: ubuntu-latest
    steps: [{ run: echo after }]
`;

describe.each(['sqlite', 'postgres'] as const)('run engine under concurrent reports (%s)', (engineKind) => {
  let store: ActionsTestDatabase;
  let db: Database;
  let engine: RunEngine;
  let tasks: TasksService;
  let failAccess = false;
  const files: WorkflowFiles = {
    sha: 'b'.repeat(40),
    ref: null,
    files: [{ path: '.gitea/workflows/ci.yml', content: WORKFLOW }],
    changedPaths: null,
  };

  beforeAll(async () => {
    store = await openActionsTestDatabase(engineKind, 'actions_engine');
    db = store.db;
    const config = store.config;
    const rpc = {
      call: async (pattern: string) => {
        if (pattern === RepoActionsPatterns.workflowFiles) return files;
        if (pattern === CommitStatusPatterns.createForActions) return null;
        if (pattern === RepoFactPatterns.accessMany) {
          if (failAccess) throw new Error('repo-service unavailable');
          return [];
        }
        throw new Error(`unexpected call ${pattern}`);
      },
    } as unknown as RpcClient;
    engine = new RunEngine(db, rpc);
    const box = new SecretBox('a-test-secret-key-123');
    const runners = new RunnersService(db, {} as ScopeService, box, config);
    const directory = { accountsByIds: async () => [] } as unknown as DirectoryClient;
    tasks = new TasksService(
      db,
      runners,
      engine,
      new VariablesService(db, {} as ScopeService, box),
      rpc,
      directory,
      { rootUrl: 'http://localhost/' } as PlatformConfig,
    );
  });

  afterAll(async () => {
    await store?.close();
  });

  it('wakes a job whose needs finish in two transactions at once', async () => {
    for (let i = 0; i < 5; i++) {
      const [runId] = await engine.trigger({
        repoId: 11,
        ownerId: 3,
        event: 'push',
        ref: 'refs/heads/main',
        sha: files.sha!,
        triggerUserId: 5,
        title: 'race',
        payload: {},
        key: `race-${i}`,
      });
      const jobs = await db.manager.find(ActionRunJobEntity, {
        where: { runId: runId! },
        order: { id: 'ASC' },
      });
      const [a, b] = jobs;
      await db.manager.update(
        ActionRunJobEntity,
        { runId: runId!, status: Status.waiting },
        { status: Status.running },
      );
      // Both reports as UpdateTask writes them: the job's result, then the run moves along.
      await Promise.all(
        [a!, b!].map((job) =>
          db.transaction(async (m) => {
            await m.update(
              ActionRunJobEntity,
              { id: job.id },
              { status: Status.success, stopped: new Date() },
            );
            await engine.advance(m, runId!);
          }),
        ),
      );
      const c = await db.manager.findOneByOrFail(ActionRunJobEntity, { runId: runId!, jobId: 'c' });
      expect(c.status).toBe(Status.waiting);
    }
  });

  it('fails a file whose jobs and push filters are both malformed, and still runs the other workflows', async () => {
    const broken = 'on:\n  push:\n    branches: {main: 1}\njobs:\n  a: {}\n';
    const ids = await engine.trigger(
      {
        repoId: 12,
        ownerId: 3,
        event: 'push',
        ref: 'refs/heads/main',
        sha: files.sha!,
        triggerUserId: 5,
        title: 'two',
        payload: {},
        key: 'double',
      },
      { ...files, files: [{ path: '.gitea/workflows/broken.yml', content: broken }, ...files.files] },
    );
    expect(ids).toHaveLength(2);
    const runs = await db.manager.find(ActionRunEntity, { where: { repoId: 12 }, order: { id: 'ASC' } });
    expect(runs.map((r) => [r.workflowId, r.status])).toEqual([
      ['broken.yml', Status.failure],
      ['ci.yml', Status.waiting],
    ]);
    expect(runs[0]!.error).toContain('broken.yml');
  });

  const runner = async (
    name: string,
    labels: string[],
    ephemeral = false,
  ): Promise<{ uuid: string; token: string }> => {
    const now = new Date();
    const uuid = `00000000-0000-4000-8000-${String(Math.floor(Math.random() * 1e12)).padStart(12, '0')}`;
    await db.manager.insert(ActionRunnerEntity, {
      uuid,
      tokenHash: sha256(name),
      name,
      labels: JSON.stringify(labels),
      ephemeral,
      lastOnline: now,
      lastActive: null,
      createdAt: now,
      updatedAt: now,
    });
    return { uuid, token: name };
  };

  const waitingJobs = async (repoId: number, labels: string[], count: number): Promise<void> => {
    const now = new Date();
    for (let i = 0; i < count; i++) {
      await db.manager.insert(ActionRunJobEntity, {
        runId: 1,
        repoId,
        ownerId: 3,
        commitSha: files.sha!,
        name: `job ${i}`,
        jobId: `job${i}`,
        workflowPayload: '',
        runsOn: JSON.stringify(labels),
        status: Status.waiting,
        createdAt: now,
        updatedAt: now,
      });
    }
  };

  it('hands a runner its job however many older jobs wait for labels it lacks', async () => {
    await waitingJobs(21, ['windows-latest'], 210);
    const [runId] = await engine.trigger(
      {
        repoId: 21,
        ownerId: 3,
        event: 'push',
        ref: 'refs/heads/main',
        sha: files.sha!,
        triggerUserId: 5,
        title: 'late',
        payload: {},
        key: 'late',
        workflowId: undefined,
      },
      {
        ...files,
        files: [
          { path: '.gitea/workflows/linux.yml', content: 'on: push\njobs:\n  l:\n    runs-on: linux\n' },
        ],
      },
    );
    const answer = await tasks.fetch(await runner('linux-runner', ['linux:host']), 0);
    expect(answer.task).not.toBeNull();
    expect((await db.manager.findOneByOrFail(ActionRunJobEntity, { runId: runId!, jobId: 'l' })).taskId).toBe(
      answer.task!.id,
    );
  });

  it('gives an ephemeral runner one task, however many fetches it sends at once', async () => {
    await waitingJobs(22, ['solo'], 3);
    const auth = await runner('ephemeral-runner', ['solo'], true);
    const answers = await Promise.all([0, 1, 2].map(() => tasks.fetch(auth, 0)));
    expect(answers.filter((a) => a.task !== null)).toHaveLength(1);
  });

  it('puts a job back to waiting when its task cannot be sent to the runner', async () => {
    await waitingJobs(23, ['flaky'], 1);
    const auth = await runner('flaky-runner', ['flaky']);
    const [job] = await db.manager.findBy(ActionRunJobEntity, { repoId: 23 });
    failAccess = true;
    await expect(tasks.fetch(auth, 0)).rejects.toThrow('repo-service unavailable');
    failAccess = false;
    expect(await db.manager.findOneByOrFail(ActionRunJobEntity, { id: job!.id })).toMatchObject({
      status: Status.waiting,
      taskId: 0,
    });
    const answer = await tasks.fetch(auth, 0);
    expect(answer.task).not.toBeNull();
    expect((await db.manager.findOneByOrFail(ActionRunJobEntity, { id: job!.id })).taskId).toBe(
      answer.task!.id,
    );
  });

  it('creates a secret once when several PUTs of its name arrive at once', async () => {
    const scopes = {
      resolve: async () => ({ kind: 'repo', ownerId: 0, repoId: 31, repo: null }),
    } as unknown as ScopeService;
    const variables = new VariablesService(db, scopes, new SecretBox('a-test-secret-key-123'));
    const answers = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        variables.putSecret(null, { kind: 'repo', owner: 'o', repo: 'r' }, 'DEPLOY_KEY', {
          data: `value ${n}`,
        }),
      ),
    );
    expect(answers.filter((a) => a.created)).toHaveLength(1);
    expect((await variables.forTask(0, 31)).secrets.DEPLOY_KEY).toMatch(/^value \d$/);
  });

  const tokenRun = async (repoId: number, key: string): Promise<number> => {
    const [runId] = await engine.trigger(
      { repoId, ownerId: 3, event: 'push', ref: 'refs/heads/main', sha: files.sha!, triggerUserId: 5, title: key, payload: {}, key },
      { ...files, files: [{ path: '.gitea/workflows/t.yml', content: `on: push\njobs:\n  t:\n    runs-on: ${key}\n` }] },
    );
    return runId!;
  };

  it("answers a running task's token with its grant, and nothing once the task is over", async () => {
    await tokenRun(41, 'token-label');
    const auth = await runner('token-runner', ['token-label']);
    const { task } = await tasks.fetch(auth, 0);
    const token = task!.secrets.GITEA_TOKEN!;
    expect(task!.secrets.GITHUB_TOKEN).toBe(token);
    expect(task!.context.token).toBe(token);
    expect(await tasks.grantOfToken(token)).toEqual({ taskId: task!.id, repoId: 41, readOnly: false });
    // Only a salted hash is kept.
    expect(JSON.stringify(await db.manager.findOneByOrFail(ActionTaskEntity, { id: task!.id }))).not.toContain(token);
    expect(await tasks.grantOfToken(`${'0'.repeat(32)}${token.slice(-8)}`)).toBeNull();
    expect(await tasks.grantOfToken(token.toUpperCase())).toBeNull();
    await tasks.update(auth, { id: task!.id, result: 1, startedAt: null, stoppedAt: Date.now(), steps: [] }, {});
    expect(await tasks.grantOfToken(token)).toBeNull();
  });

  it("makes a fork pull request's token read-only and gives it no other secret", async () => {
    const scopes = { resolve: async () => ({ kind: 'repo', ownerId: 0, repoId: 42, repo: null }) } as unknown as ScopeService;
    await new VariablesService(db, scopes, new SecretBox('a-test-secret-key-123')).putSecret(null, { kind: 'repo', owner: 'o', repo: 'r' }, 'FORK_HIDDEN', {
      data: 'not for forks',
    });
    const runId = await tokenRun(42, 'fork-label');
    await db.manager.update(ActionRunEntity, { id: runId }, { event: 'pull_request', eventPayload: JSON.stringify({ pull_request: { head: { repo_id: 99, ref: 'x' } } }) });
    const { task } = await tasks.fetch(await runner('fork-runner', ['fork-label']), 0);
    expect(Object.keys(task!.secrets).sort()).toEqual(['GITEA_TOKEN', 'GITHUB_TOKEN']);
    expect(await tasks.grantOfToken(task!.secrets.GITEA_TOKEN!)).toEqual({ taskId: task!.id, repoId: 42, readOnly: true });
  });

  it('wakes a job needing a matrix job once its combinations finish in transactions at once', async () => {
    const matrixFiles: WorkflowFiles = { ...files, files: [{ path: '.gitea/workflows/mx.yml', content: MATRIX_WORKFLOW }] };
    for (let i = 0; i < 3; i++) {
      const [runId] = await engine.trigger(
        { repoId: 41, ownerId: 3, event: 'push', ref: 'refs/heads/main', sha: files.sha!, triggerUserId: 5, title: 'matrix race', payload: {}, key: `mx-${i}` },
        matrixFiles,
      );
      const builds = await db.manager.find(ActionRunJobEntity, { where: { runId: runId!, jobId: 'build' }, order: { id: 'ASC' } });
      expect(builds.map((j) => j.name)).toEqual(['build (18)', 'build (20)', 'build (22)']);
      await db.manager.update(ActionRunJobEntity, { runId: runId!, status: Status.waiting }, { status: Status.running });
      await Promise.all(
        builds.map((job) =>
          db.transaction(async (m) => {
            await m.update(ActionRunJobEntity, { id: job.id }, { status: Status.success, stopped: new Date() });
            await engine.advance(m, runId!);
          }),
        ),
      );
      const after = await db.manager.findOneByOrFail(ActionRunJobEntity, { runId: runId!, jobId: 'after' });
      expect(after.status).toBe(Status.waiting);
    }
  });
});
