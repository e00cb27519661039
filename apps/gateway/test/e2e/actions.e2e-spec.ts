import { createHash } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, createClient, type Client, type Interceptor } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import type {
  ActionRunner,
  ActionRunnersResponse,
  ActionSecret,
  ActionTask,
  ActionVariable,
  ActionWorkflowJob,
  ActionWorkflowRun,
  Branch,
  CommitStatus,
  CreateBranchProtectionOption,
  Repository,
} from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { parse as parseYaml } from 'yaml';
import { PingService } from '../../src/actions/gen/ping/v1/services_pb.js';
import { LogRowSchema, Result, StepStateSchema, type Task } from '../../src/actions/gen/runner/v1/messages_pb.js';
import { RunnerService } from '../../src/actions/gen/runner/v1/services_pb.js';
import { addToTeam, createOrg, createTeam, tokenApi } from './support/accounts.js';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { GitCli, gitUrl } from './support/git.js';
import { HookReceiver } from './support/hook-receiver.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { b64 } from './support/repo-disk.js';
import { addCollaborator } from './support/repos.js';

/** act_runner's side of the protocol: a connect client from the same .proto, with its auth headers. */
function runnerClient(layout: Layout, auth: { uuid: string; token: string } | null = null): Client<typeof RunnerService> {
  const headers: Interceptor = (next) => async (req) => {
    if (auth) {
      req.header.set('x-runner-uuid', auth.uuid);
      req.header.set('x-runner-token', auth.token);
    }
    return next(req);
  };
  return createClient(RunnerService, createConnectTransport({ baseUrl: `${layout.rootUrl}api/actions`, httpVersion: '1.1', interceptors: [headers] }));
}

async function connectCode(promise: Promise<unknown>): Promise<Code | 'ok'> {
  try {
    await promise;
    return 'ok';
  } catch (err) {
    return ConnectError.from(err).code;
  }
}

const CI = `name: CI
on:
  push:
    branches: [main]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - name: Compile
        run: echo compile
      - run: echo pack
  test:
    needs: build
    runs-on: [ubuntu-latest]
    steps:
      - name: Test
        run: echo test \${{ needs.build.outputs.artifact }}
`;

const GPU = `name: GPU
on: [push, workflow_dispatch]
jobs:
  train:
    runs-on: gpu
    steps:
      - run: echo train
`;

const BROKEN = `name: Broken
on: push
jobs:
  lint:
    runs-on: ubuntu-latest
    needs: nothing-like-this
    steps:
      - run: echo lint
`;

const DOCS_ONLY = `on:
  push:
    paths: ['docs/**']
jobs:
  docs:
    runs-on: ubuntu-latest
    steps:
      - run: echo docs
`;

const MATRIX = `name: Matrix
on: push
jobs:
  build:
    runs-on: mx-\${{ matrix.os }}
    strategy:
      fail-fast: true
      matrix:
        os: [ubuntu, debian]
        node: [18, 20]
        exclude:
          - {os: debian, node: 18}
        include:
          - {os: ubuntu, node: 20, experimental: true}
    steps:
      - run: node --version
  report:
    needs: build
    runs-on: mx-ubuntu
    steps:
      - run: echo \${{ needs.build.result }}
`;

describe.each(layoutsUnderTest())('Gitea Actions: runners, runs, jobs, variables and secrets (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let repo: Repository;
  let other: Repository;
  let runnerAuth: { uuid: string; token: string };
  let runnerId: number;
  let headSha: string;

  beforeAll(async () => {
    // A finished task's token may live on in the gateway's auth cache for this long.
    layout = await Layout.start(kind, { env: { GITFORGE_AUTH_CACHE_TTL_MS: '300', GITFORGE_WEBHOOK_ALLOW_LOOPBACK: '1' } });
    api = new Api(layout);
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
    carol = await createUser(api, 'carol');
    repo = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('acts'), auto_init: true })).body;
    other = (await bob.api.post<Repository>('/user/repos', { name: uniqueName('other'), auto_init: true })).body;
    await addCollaborator(alice.api, repo, carol, 'write');
  });

  afterAll(async () => {
    await layout?.stop();
  });

  const base = (r: Repository = repo) => `/repos/${r.full_name}/actions`;

  it('answers the ping service on /api/actions as act_runner checks it', async () => {
    const ping = createClient(PingService, createConnectTransport({ baseUrl: `${layout.rootUrl}api/actions`, httpVersion: '1.1' }));
    expect((await ping.ping({ data: 'runner' })).data).toBe('Hello, runner!');
  });

  it('hands out registration tokens per scope, to those who manage it', async () => {
    expect((await api.anonymous.post('/admin/actions/runners/registration-token')).status).toBe(401);
    const denied = await bob.api.post('/admin/actions/runners/registration-token');
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual(giteaError('user should be the site admin'));
    const admin = await api.admin.post<{ token: string }>('/admin/actions/runners/registration-token');
    expect(admin.status).toBe(200);
    expect(admin.body.token).toMatch(/^[0-9a-f]{40}$/);
    // The same token until it is used.
    expect((await api.admin.post<{ token: string }>('/admin/actions/runners/registration-token')).body.token).toBe(admin.body.token);
    expect((await bob.api.post(`${base()}/runners/registration-token`)).status).toBe(403);
    expect((await carol.api.post(`${base()}/runners/registration-token`)).status).toBe(403);
    const own = await alice.api.post<{ token: string }>(`${base()}/runners/registration-token`);
    expect(own.status).toBe(200);
    expect(own.body.token).not.toBe(admin.body.token);
    expect((await bob.api.get<{ token: string }>('/user/actions/runners/registration-token')).status).toBe(200);
  });

  it('registers a runner with a repository token once, and authenticates it by uuid and token', async () => {
    const { token } = (await alice.api.post<{ token: string }>(`${base()}/runners/registration-token`)).body;
    const anonymous = runnerClient(layout);
    expect(await connectCode(anonymous.register({ name: 'r', token: 'f'.repeat(40), version: 'v0.2.11', labels: ['ubuntu-latest'] }))).toBe(
      Code.InvalidArgument,
    );
    const registered = await anonymous.register({
      name: 'runner-1',
      token,
      version: 'v0.2.11',
      labels: ['ubuntu-latest:docker://node:20-bullseye', 'self-hosted:host'],
    });
    expect(registered.runner).toMatchObject({ name: 'runner-1', labels: ['ubuntu-latest:docker://node:20-bullseye', 'self-hosted:host'] });
    expect(registered.runner!.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(registered.runner!.token).toMatch(/^[0-9a-f]{40}$/);
    runnerAuth = { uuid: registered.runner!.uuid, token: registered.runner!.token };
    runnerId = Number(registered.runner!.id);
    // Registered, a runner shows offline until its first call (Gitea's Register leaves last_online unset).
    expect((await alice.api.get<ActionRunner>(`${base()}/runners/${runnerId}`)).body.status).toBe('offline');
    // As in Gitea, the token registers more runners (replicas sharing it) and stays the scope's token.
    const again = await anonymous.register({ name: 'runner-2', token, version: 'v0.2.11', labels: ['x'] });
    expect(again.runner!.uuid).not.toBe(registered.runner!.uuid);
    expect((await alice.api.post<{ token: string }>(`${base()}/runners/registration-token`)).body.token).toBe(token);
    expect((await alice.api.delete(`${base()}/runners/${again.runner!.id}`)).status).toBe(204);

    expect(await connectCode(runnerClient(layout, { uuid: runnerAuth.uuid, token: '0'.repeat(40) }).declare({ version: 'v0.2.11', labels: [] }))).toBe(
      Code.Unauthenticated,
    );
    expect(await connectCode(runnerClient(layout).fetchTask({ tasksVersion: 0n }))).toBe(Code.Unauthenticated);
    const declared = await runnerClient(layout, runnerAuth).declare({ version: 'v0.2.12', labels: ['ubuntu-latest:docker://node:20-bullseye', 'self-hosted:host'] });
    expect(declared.runner).toMatchObject({ version: 'v0.2.12', name: 'runner-1' });
  });

  it('lists, shows, edits and deletes runners with Gitea shapes, codes and permissions', async () => {
    const list = await alice.api.get<ActionRunnersResponse>(`${base()}/runners`);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBeNull();
    expect(list.body).toEqual({
      total_count: 1,
      runners: [
        {
          id: runnerId,
          name: 'runner-1',
          status: 'online',
          busy: false,
          disabled: false,
          ephemeral: false,
          labels: [
            { id: 0, name: 'ubuntu-latest:docker://node:20-bullseye', type: 'custom' },
            { id: 1, name: 'self-hosted:host', type: 'custom' },
          ],
        },
      ],
    });
    expect((await alice.api.get<ActionRunner>(`${base()}/runners/${runnerId}`)).body.name).toBe('runner-1');
    // Gitea's getRunnerByID: an id that is no number is 0, and an unknown one is ErrNotExist's words.
    expect(await alice.api.get(`${base()}/runners/abc`)).toMatchObject({ status: 404, body: { message: 'runner with id 0: not exist' } });
    expect(await alice.api.get(`${base()}/runners/987654`)).toMatchObject({ status: 404, body: { message: 'runner with id 987654: not exist' } });
    expect((await alice.api.get<ActionRunnersResponse>(`${base()}/runners?disabled=on`)).body.total_count).toBe(0);
    expect((await alice.api.get<ActionRunnersResponse>(`${base()}/runners?disabled=nonsense`)).body.total_count).toBe(1);
    expect((await bob.api.get(`${base()}/runners/${runnerId}`)).status).toBe(403);
    expect((await api.anonymous.get(`${base()}/runners`)).status).toBe(401);
    // Site administrators see and manage every runner, a repository's too (Gitea's admin context).
    expect((await api.admin.get<ActionRunner>(`/admin/actions/runners/${runnerId}`)).body.name).toBe('runner-1');
    const all = await api.admin.get<ActionRunnersResponse>('/admin/actions/runners');
    expect(all.body.runners.map((r) => r.id)).toContain(runnerId);
    // ... but an owner's listing holds only its own.
    expect((await bob.api.get<ActionRunnersResponse>('/user/actions/runners')).body.total_count).toBe(0);
    expect((await bob.api.get(`/user/actions/runners/${runnerId}`)).status).toBe(404);
    expect((await bob.api.get('/admin/actions/runners')).status).toBe(403);

    expect((await alice.api.patch(`${base()}/runners/${runnerId}`, {})).status).toBe(422);
    const disabled = await alice.api.patch<ActionRunner>(`${base()}/runners/${runnerId}`, { disabled: true });
    expect(disabled.status).toBe(200);
    expect(disabled.body.disabled).toBe(true);
    expect((await alice.api.get<ActionRunnersResponse>(`${base()}/runners?disabled=true`)).body.total_count).toBe(1);
    expect((await alice.api.get<ActionRunnersResponse>(`${base()}/runners?disabled=false`)).body.total_count).toBe(0);
    expect((await alice.api.patch<ActionRunner>(`${base()}/runners/${runnerId}`, { disabled: false })).body.disabled).toBe(false);
  });

  it('keeps variables and secrets per repository with Gitea name rules, secrets write-only', async () => {
    const v = `${base()}/variables`;
    expect((await alice.api.put(`${v}/missing`, { value: 'x' })).status).toBe(404);
    expect((await alice.api.post(`${v}/deploy_env`, { value: 'staging', description: 'where' })).status).toBe(201);
    expect((await alice.api.post(`${v}/DEPLOY_ENV`, { value: 'again' })).status).toBe(409);
    expect((await alice.api.post(`${v}/GITEA_THING`, { value: 'x' })).status).toBe(400);
    expect((await alice.api.post(`${v}/1abc`, { value: 'x' })).status).toBe(400);
    expect((await alice.api.post(`${v}/EMPTY`, {})).status).toBe(422);
    expect((await bob.api.post(`${v}/BOBS`, { value: 'x' })).status).toBe(403);
    expect((await alice.api.get<ActionVariable>(`${v}/deploy_env`)).body).toEqual({
      owner_id: 0,
      repo_id: repo.id,
      name: 'DEPLOY_ENV',
      data: 'staging',
      description: 'where',
    });
    // An empty name keeps the name; a new one renames.
    expect((await alice.api.put(`${v}/DEPLOY_ENV`, { value: 'production', name: '' })).status).toBe(204);
    // Gitea's UpdateVariable sets the description given, none when there is none.
    expect((await alice.api.get<ActionVariable>(`${v}/DEPLOY_ENV`)).body).toMatchObject({ data: 'production', description: '' });
    expect((await alice.api.put(`${v}/DEPLOY_ENV`, { value: 'production', name: 'TARGET' })).status).toBe(204);
    expect((await alice.api.get(`${v}/DEPLOY_ENV`)).status).toBe(404);
    const listed = await alice.api.get<ActionVariable[]>(v);
    expect(listed.body.map((x) => x.name)).toEqual(['TARGET']);
    expect(listed.headers.get('x-total-count')).toBe('1');
    expect((await alice.api.post(`${v}/SCRATCH`, { value: 'x' })).status).toBe(201);
    expect((await alice.api.delete(`${v}/SCRATCH`)).status).toBe(204);
    expect((await alice.api.delete(`${v}/SCRATCH`)).status).toBe(404);

    const s = `${base()}/secrets`;
    expect((await alice.api.put(`${s}/deploy_key`, { data: 'first' })).status).toBe(201);
    expect((await alice.api.put(`${s}/DEPLOY_KEY`, { data: 's3cret-value', description: 'ssh' })).status).toBe(204);
    expect((await alice.api.put(`${s}/GITHUB_TOKEN`, { data: 'x' })).status).toBe(400);
    expect((await carol.api.put(`${s}/CAROLS`, { data: 'x' })).status).toBe(403);
    const secrets = await alice.api.get<ActionSecret[]>(s);
    expect(secrets.body).toEqual([{ name: 'DEPLOY_KEY', description: 'ssh', created_at: expect.any(String) }]);
    expect(secrets.text).not.toContain('s3cret-value');
    expect((await alice.api.put(`${s}/DEPLOY_KEY`, { data: 's3cret-value' })).status).toBe(204);
    expect((await alice.api.get<ActionSecret[]>(s)).body).toEqual([{ name: 'DEPLOY_KEY', description: '', created_at: expect.any(String) }]);
    // The owner's variables reach its repositories' jobs too.
    expect((await alice.api.post('/user/actions/variables/OWNER_LEVEL', { value: 'from-alice' })).status).toBe(201);
    expect((await alice.api.get<ActionVariable>('/user/actions/variables/OWNER_LEVEL')).body.owner_id).toBe(alice.id);
  });

  it('keeps organization runners, variables and secrets for its owners', async () => {
    const org = await createOrg(alice.api);
    const team = await createTeam(alice.api, org.username);
    await addToTeam(alice.api, team.id, carol);
    const o = `/orgs/${org.username}/actions`;
    expect((await alice.api.post<{ token: string }>(`${o}/runners/registration-token`)).body.token).toMatch(/^[0-9a-f]{40}$/);
    expect((await alice.api.get<ActionRunnersResponse>(`${o}/runners`)).body).toEqual({ runners: [], total_count: 0 });
    expect((await alice.api.post(`${o}/variables/REGION`, { value: 'eu' })).status).toBe(201);
    expect((await alice.api.get<ActionVariable>(`${o}/variables/region`)).body).toMatchObject({ owner_id: org.id, repo_id: 0, name: 'REGION', data: 'eu' });
    expect((await alice.api.put(`${o}/secrets/ORG_TOKEN`, { data: 'x' })).status).toBe(201);
    const member = await carol.api.get(`${o}/variables`);
    expect(member.status).toBe(403);
    expect(member.body).toEqual(giteaError('Must be an organization owner'));
    expect((await bob.api.post(`${o}/runners/registration-token`)).status).toBe(403);
    expect((await api.anonymous.get(`${o}/secrets`)).status).toBe(401);
    expect((await alice.api.get('/orgs/no-such-org-here/actions/variables')).status).toBe(404);
    const hidden = await createOrg(alice.api, { visibility: 'private' });
    expect((await bob.api.get(`/orgs/${hidden.username}/actions/runners`)).status).toBe(404);
    // A token without the organization scope cannot reach them.
    const repoOnly = await tokenApi(alice, ['write:repository']);
    expect((await repoOnly.get(`${o}/variables`)).status).toBe(403);
  });

  it('runs pushed workflows through the runner: needs order the jobs, statuses and listings follow', async () => {
    const push = await alice.api.post<{ commit: { sha: string } }>(`/repos/${repo.full_name}/contents`, {
      message: 'Add workflows',
      branch: 'main',
      files: [
        { operation: 'create', path: '.gitea/workflows/ci.yml', content: b64(CI) },
        { operation: 'create', path: '.gitea/workflows/gpu.yaml', content: b64(GPU) },
        { operation: 'create', path: '.gitea/workflows/broken.yml', content: b64(BROKEN) },
        { operation: 'create', path: '.gitea/workflows/docs.yml', content: b64(DOCS_ONLY) },
      ],
    });
    expect(push.status).toBe(201);
    headSha = push.body.commit.sha;

    const runs = await expectEventually(async () => {
      const res = await api.anonymous.get<{ workflow_runs: ActionWorkflowRun[]; total_count: number }>(`${base()}/runs`);
      expect(res.body.total_count).toBe(3);
      return res.body.workflow_runs;
    });
    // Newest first; docs.yml's paths filter leaves it out.
    const byPath = new Map(runs.map((r) => [r.path.split('@')[0], r]));
    expect([...byPath.keys()].sort()).toEqual(['broken.yml', 'ci.yml', 'gpu.yaml']);
    const ci = byPath.get('ci.yml')!;
    // omitempty: no conclusion before the end, no head repository or repository id (Gitea never sets them).
    for (const key of ['conclusion', 'head_repository', 'repository_id']) expect(ci).not.toHaveProperty(key);
    expect(ci).toMatchObject({
      event: 'push',
      head_sha: headSha,
      head_branch: 'main',
      display_title: 'Add workflows',
      status: 'queued',
      path: 'ci.yml@refs/heads/main',
      run_attempt: 1,
      // Not started: Gitea's unset unix timestamps render as the epoch.
      started_at: '1970-01-01T00:00:00Z',
      completed_at: '1970-01-01T00:00:00Z',
      // As anyone sees them, in a repository shown with no access (Gitea's ToActionWorkflowRun).
      actor: expect.objectContaining({ login: alice.username, email: `${alice.id}+${alice.username.toLowerCase()}@noreply.localhost` }),
      repository: expect.objectContaining({ id: repo.id, permissions: { admin: false, push: false, pull: false } }),
      // Gitea's links name runs and jobs by id.
      html_url: `${layout.rootUrl}${repo.full_name}/actions/runs/${ci.id}`,
      url: `${layout.apiUrl}/repos/${repo.full_name}/actions/runs/${ci.id}`,
    });
    // A malformed workflow fails its run with a readable reason, in its job's log.
    const broken = byPath.get('broken.yml')!;
    expect(broken).toMatchObject({ status: 'completed', conclusion: 'failure' });
    const brokenJobs = (await api.anonymous.get<{ jobs: ActionWorkflowJob[] }>(`${base()}/runs/${broken.id}/jobs`)).body.jobs;
    const brokenLog = await api.anonymous.get(`${base()}/jobs/${brokenJobs[0]!.id}/logs`);
    expect(brokenLog.text).toContain('needs unknown job nothing-like-this');

    const ciJobs = (await api.anonymous.get<{ jobs: ActionWorkflowJob[]; total_count: number }>(`${base()}/runs/${ci.id}/jobs`)).body;
    expect(ciJobs.jobs.map((j) => [j.name, j.status])).toEqual([
      ['build', 'queued'],
      ['test', 'waiting'],
    ]);

    // Each job has its commit status, pending at first.
    const statuses = await expectEventually(async () => {
      const res = await api.anonymous.get<CommitStatus[]>(`/repos/${repo.full_name}/statuses/${headSha}`);
      expect(res.body.map((st) => st.context)).toEqual(expect.arrayContaining(['CI / build (push)', 'CI / test (push)', 'GPU / train (push)']));
      return res.body;
    });
    expect(statuses.find((st) => st.context === 'CI / build (push)')).toMatchObject({
      status: 'pending',
      description: 'Waiting to run',
      target_url: expect.stringContaining(`/${repo.full_name}/actions/runs/${ci.id}/jobs/${ciJobs.jobs[0]!.id}`),
      // Gitea writes a job's status as its Actions user, whoever triggered the run.
      creator: expect.objectContaining({ id: -2, login: 'gitea-actions' }),
    });

    const client = runnerClient(layout, runnerAuth);
    // A runner of another repository with every label sees none of these jobs.
    const { token: otherToken } = (await bob.api.post<{ token: string }>(`${base(other)}/runners/registration-token`)).body;
    const stranger = (await runnerClient(layout).register({ name: 'stranger', token: otherToken, version: 'v0.2.11', labels: ['ubuntu-latest', 'gpu'] })).runner!;
    expect((await runnerClient(layout, { uuid: stranger.uuid, token: stranger.token }).fetchTask({ tasksVersion: 0n })).task).toBeUndefined();

    const first = await client.fetchTask({ tasksVersion: 0n });
    const task: Task = first.task!;
    expect(task).toBeDefined();
    expect(new TextDecoder().decode(task.workflowPayload)).toMatch(/build:/);
    expect(new TextDecoder().decode(task.workflowPayload)).not.toMatch(/\btest:/);
    expect(task.context).toMatchObject({ event_name: 'push', ref: 'refs/heads/main', sha: headSha, repository: repo.full_name, job: 'build', actor: alice.username });
    // The repository's secrets, and the task's own token under both of Gitea's names.
    expect(task.secrets).toEqual({ DEPLOY_KEY: 's3cret-value', GITEA_TOKEN: expect.stringMatching(/^[0-9a-f]{40}$/), GITHUB_TOKEN: task.secrets.GITEA_TOKEN });
    expect(task.context?.token).toBe(task.secrets.GITEA_TOKEN);
    expect(task.vars).toEqual({ TARGET: 'production', OWNER_LEVEL: 'from-alice' });
    // Nothing else fits this runner now: test needs build, train needs a gpu.
    expect((await client.fetchTask({ tasksVersion: first.tasksVersion })).task).toBeUndefined();
    expect((await client.fetchTask({ tasksVersion: 0n })).task).toBeUndefined();

    const now = Date.now();
    const log = await client.updateLog({
      taskId: task.id,
      index: 0n,
      rows: [create(LogRowSchema, { time: timestampFromMs(now), content: 'compiling' }), create(LogRowSchema, { time: timestampFromMs(now), content: 'done' })],
    });
    expect(log.ackIndex).toBe(2n);
    // A resend from an earlier index stores only what is new.
    const again = await client.updateLog({
      taskId: task.id,
      index: 1n,
      rows: [create(LogRowSchema, { time: timestampFromMs(now), content: 'done' }), create(LogRowSchema, { time: timestampFromMs(now), content: 'packed' })],
      noMore: true,
    });
    expect(again.ackIndex).toBe(3n);

    const running = (await alice.api.get<ActionWorkflowRun>(`${base()}/runs/${ci.id}`)).body;
    expect(running.status).toBe('in_progress');
    const runningJob = (await alice.api.get<{ jobs: ActionWorkflowJob[] }>(`${base()}/runs/${ci.id}/jobs`)).body.jobs[0]!;
    expect(runningJob).toMatchObject({ status: 'in_progress', runner_id: runnerId, runner_name: 'runner-1' });

    const updated = await client.updateTask({
      state: {
        id: task.id,
        result: Result.SUCCESS,
        startedAt: timestampFromMs(now - 2000),
        stoppedAt: timestampFromMs(now),
        steps: [
          create(StepStateSchema, { id: 0n, result: Result.SUCCESS, startedAt: timestampFromMs(now - 2000), stoppedAt: timestampFromMs(now - 1000), logIndex: 0n, logLength: 2n }),
          create(StepStateSchema, { id: 1n, result: Result.SUCCESS, startedAt: timestampFromMs(now - 1000), stoppedAt: timestampFromMs(now), logIndex: 2n, logLength: 1n }),
        ],
      },
      outputs: { artifact: 'app.tgz' },
    });
    expect(updated.state).toMatchObject({ id: task.id, result: Result.SUCCESS });
    expect(updated.sentOutputs).toEqual(['artifact']);

    const build = (await alice.api.get<ActionWorkflowJob>(`${base()}/jobs/${runningJob.id}`)).body;
    expect(build).toMatchObject({
      name: 'build',
      status: 'completed',
      conclusion: 'success',
      head_sha: headSha,
      labels: ['ubuntu-latest'],
      run_id: ci.id,
      steps: [
        expect.objectContaining({ name: 'Compile', number: 0, status: 'completed', conclusion: 'success' }),
        expect.objectContaining({ name: 'echo pack', number: 1, status: 'completed', conclusion: 'success' }),
      ],
    });
    const logs = await api.anonymous.get(`${base()}/jobs/${build.id}/logs`);
    expect(logs.status).toBe(200);
    expect(logs.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(logs.text.trim().split('\n').map((l) => l.split(' ').slice(1).join(' '))).toEqual(['compiling', 'done', 'packed']);

    // build succeeded: test is queued now, and gets build's outputs.
    const second = await client.fetchTask({ tasksVersion: 0n });
    expect(second.task?.context).toMatchObject({ job: 'test' });
    expect(second.task!.needs.build).toMatchObject({ result: Result.SUCCESS, outputs: { artifact: 'app.tgz' } });
    await client.updateTask({ state: { id: second.task!.id, result: Result.FAILURE, stoppedAt: timestampFromMs(Date.now()) } });

    const done = (await alice.api.get<ActionWorkflowRun>(`${base()}/runs/${ci.id}`)).body;
    expect(done).toMatchObject({ status: 'completed', conclusion: 'failure', completed_at: expect.any(String) });
    await expectEventually(async () => {
      const combined = await api.anonymous.get<CommitStatus[]>(`/repos/${repo.full_name}/commits/${headSha}/statuses`);
      const latest = (context: string) => combined.body.filter((st) => st.context === context).sort((a, b) => b.id - a.id)[0];
      expect(latest('CI / build (push)')).toMatchObject({ status: 'success', description: expect.stringMatching(/^Successful in /) });
      expect(latest('CI / test (push)')).toMatchObject({ status: 'failure', description: expect.stringMatching(/^Failing after /) });
    });

    // The job needing a label no runner has stays waiting.
    const gpu = byPath.get('gpu.yaml')!;
    const train = (await alice.api.get<{ jobs: ActionWorkflowJob[] }>(`${base()}/runs/${gpu.id}/jobs`)).body.jobs[0]!;
    expect(train).toMatchObject({ name: 'train', status: 'queued', labels: ['gpu'], started_at: '1970-01-01T00:00:00Z', completed_at: '1970-01-01T00:00:00Z' });
    // No runner took it: runner_id and runner_name are left out (omitempty).
    expect(train).not.toHaveProperty('runner_id');
    expect(train).not.toHaveProperty('runner_name');

    const tasks = (await api.anonymous.get<{ workflow_runs: ActionTask[]; total_count: number }>(`${base()}/tasks`)).body;
    expect(tasks.total_count).toBe(2);
    expect(tasks.workflow_runs.map((t) => [t.name, t.status])).toEqual([
      ['test', 'failure'],
      ['build', 'success'],
    ]);
  });

  it('lists every job and run for site admins with Gitea filters', async () => {
    const jobs = await api.admin.get<{ jobs: ActionWorkflowJob[]; total_count: number }>('/admin/actions/jobs');
    expect(jobs.status).toBe(200);
    expect(jobs.headers.get('x-total-count')).toBe(String(jobs.body.total_count));
    expect(jobs.body.jobs.map((j) => j.id)).toEqual([...jobs.body.jobs.map((j) => j.id)].sort((a, b) => a - b));
    const desc = await api.admin.get<{ jobs: ActionWorkflowJob[] }>('/admin/actions/jobs?order=desc&sort=id');
    expect(desc.body.jobs.map((j) => j.id)).toEqual(jobs.body.jobs.map((j) => j.id).reverse());
    const queued = await api.admin.get<{ jobs: ActionWorkflowJob[]; total_count: number }>('/admin/actions/jobs?status=queued');
    expect(queued.body.jobs.map((j) => j.name)).toEqual(['train']);
    const pending = await api.admin.get<{ jobs: ActionWorkflowJob[] }>('/admin/actions/jobs?status=pending');
    expect(pending.body.jobs).toEqual([]);
    expect((await api.admin.get<{ jobs: ActionWorkflowJob[] }>('/admin/actions/jobs?status=success')).body.jobs.map((j) => j.name)).toEqual(['build']);
    const bad = await api.admin.get('/admin/actions/jobs?status=bogus');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(giteaError('invalid status bogus'));
    // Gitea's ResolveSortOrder: an order without a sort is ignored; with one, the order is checked first.
    expect((await api.admin.get('/admin/actions/jobs?sort=name')).body).toEqual(giteaError('Invalid sort mode: "name"'));
    expect((await api.admin.get('/admin/actions/jobs?sort=name&order=sideways')).body).toEqual(giteaError('Invalid sort order: "sideways"'));
    const ignored = await api.admin.get<{ jobs: ActionWorkflowJob[] }>('/admin/actions/jobs?order=desc');
    expect(ignored.body.jobs.map((j) => j.id)).toEqual(jobs.body.jobs.map((j) => j.id));
    expect((await bob.api.get('/admin/actions/jobs')).status).toBe(403);
    expect((await api.anonymous.get('/admin/actions/jobs')).status).toBe(401);

    const runs = await api.admin.get<{ workflow_runs: ActionWorkflowRun[]; total_count: number }>('/admin/actions/runs');
    expect(runs.body.total_count).toBe(3);
    expect(runs.headers.get('x-total-count')).toBe('3');
    const q = async (query: string) =>
      (await api.admin.get<{ workflow_runs: ActionWorkflowRun[] }>(`/admin/actions/runs?${query}`)).body.workflow_runs.map((r) => r.path.split('@')[0]).sort();
    expect(await q('status=failure')).toEqual(['broken.yml', 'ci.yml']);
    expect(await q('status=queued')).toEqual(['gpu.yaml']);
    expect(await q('event=push&branch=main')).toHaveLength(3);
    expect(await q('branch=elsewhere')).toEqual([]);
    expect(await q(`actor=${alice.username}`)).toHaveLength(3);
    expect(await q(`actor=${bob.username}`)).toEqual([]);
    expect(await q(`head_sha=${headSha}`)).toHaveLength(3);
    expect(await q('event=workflow_dispatch')).toEqual([]);
    expect((await api.admin.get('/admin/actions/runs?status=nope')).status).toBe(400);
    expect((await bob.api.get('/admin/actions/runs')).status).toBe(403);
    const page = await api.admin.get<{ workflow_runs: ActionWorkflowRun[] }>('/admin/actions/runs?limit=1&page=2');
    expect(page.body.workflow_runs).toHaveLength(1);
    expect(page.headers.get('link')).toContain('rel="next"');
  });

  it('guards the repository listings as the repository is guarded', async () => {
    const hidden = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('secret-acts'), private: true })).body;
    expect((await bob.api.get(`${base(hidden)}/runs`)).status).toBe(404);
    expect((await api.anonymous.get(`${base(hidden)}/jobs`)).status).toBe(404);
    expect((await alice.api.get<{ total_count: number }>(`${base(hidden)}/runs`)).body.total_count).toBe(0);
    expect((await alice.api.get(`${base()}/runs/abc`)).status).toBe(400);
    expect((await alice.api.get(`${base()}/runs/999999`)).status).toBe(404);
    expect((await alice.api.get(`${base()}/jobs/999999`)).status).toBe(404);
    // A run of another repository is not found here.
    expect((await bob.api.get<{ total_count: number }>(`${base(other)}/runs`)).body.total_count).toBe(0);
  });

  it('dispatches, cancels and reruns runs for writers only', async () => {
    expect((await bob.api.post(`${base()}/workflows/gpu.yaml/dispatches`, { ref: 'main' })).status).toBe(403);
    expect((await carol.api.post(`${base()}/workflows/nothing.yml/dispatches`, { ref: 'main' })).status).toBe(404);
    expect((await carol.api.post(`${base()}/workflows/ci.yml/dispatches`, { ref: 'main' })).status).toBe(400);
    expect((await carol.api.post(`${base()}/workflows/gpu.yaml/dispatches`, { ref: 'no-such-branch' })).status).toBe(422);
    expect((await carol.api.post(`${base()}/workflows/gpu.yaml/dispatches`, {})).status).toBe(422);
    expect((await carol.api.post(`${base()}/workflows/gpu.yaml/dispatches`, { ref: 'main', inputs: { size: 'xl' } })).status).toBe(204);
    const dispatched = await expectEventually(async () => {
      const res = await alice.api.get<{ workflow_runs: ActionWorkflowRun[] }>(`${base()}/workflows/gpu.yaml/runs?event=workflow_dispatch`);
      expect(res.body.workflow_runs).toHaveLength(1);
      return res.body.workflow_runs[0]!;
    });
    expect(dispatched).toMatchObject({ event: 'workflow_dispatch', status: 'queued', trigger_actor: expect.objectContaining({ login: carol.username }) });

    expect((await bob.api.post(`${base()}/runs/${dispatched.id}/cancel`)).status).toBe(403);
    expect((await carol.api.post(`${base()}/runs/${dispatched.id}/cancel`)).status).toBe(202);
    expect((await alice.api.get<ActionWorkflowRun>(`${base()}/runs/${dispatched.id}`)).body).toMatchObject({ status: 'completed', conclusion: 'cancelled' });
    expect((await carol.api.post(`${base()}/runs/${dispatched.id}/cancel`)).status).toBe(409);

    const rerun = await carol.api.post<ActionWorkflowRun>(`${base()}/runs/${dispatched.id}/rerun`);
    expect(rerun.status).toBe(201);
    expect(rerun.body).toMatchObject({ status: 'queued', run_attempt: 2 });
    expect((await carol.api.post(`${base()}/runs/${dispatched.id}/rerun`)).status).toBe(409);

    // The gpu runner that joins later takes it.
    const { token } = (await alice.api.post<{ token: string }>(`${base()}/runners/registration-token`)).body;
    const gpuRunner = (await runnerClient(layout).register({ name: 'gpu-box', token, version: 'v0.2.11', labels: ['gpu'], ephemeral: true })).runner!;
    const gpuClient = runnerClient(layout, { uuid: gpuRunner.uuid, token: gpuRunner.token });
    const fetched = await gpuClient.fetchTask({ tasksVersion: 0n });
    expect(fetched.task?.context).toMatchObject({ job: 'train' });
    await gpuClient.updateTask({ state: { id: fetched.task!.id, result: Result.SUCCESS } });
    // An ephemeral runner is gone after its one job.
    expect(await connectCode(gpuClient.fetchTask({ tasksVersion: 0n }))).toBe(Code.Unauthenticated);

    expect((await alice.api.delete(`${base()}/runners/${runnerId}`)).status).toBe(204);
    expect((await alice.api.get(`${base()}/runners/${runnerId}`)).status).toBe(404);
    expect(await connectCode(runnerClient(layout, runnerAuth).fetchTask({ tasksVersion: 0n }))).toBe(Code.Unauthenticated);
  });

  it("lists the default branch's workflows, and a workflow turned off starts no runs and cannot be dispatched", async () => {
    const flows = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('flows'), auto_init: true })).body;
    await addCollaborator(alice.api, flows, carol, 'write');
    const at = (rest = '') => `${base(flows)}/workflows${rest}`;
    expect((await alice.api.get(at())).body).toEqual({ workflows: [], total_count: 0 });
    const steps = 'jobs:\n  one:\n    runs-on: flows-no-runner\n    steps:\n      - run: echo hi\n';
    const write = (files: Array<{ path: string; content: string }>, operation = 'create') =>
      alice.api.post<{ commit: { sha: string; committer: { date: string } } }>(`/repos/${flows.full_name}/contents`, {
        message: 'workflows',
        branch: 'main',
        files: files.map((f) => ({ operation, path: f.path, content: b64(f.content) })),
      });
    const pushed = await write([
      { path: '.gitea/workflows/build.yml', content: `name: Build\non: [push, workflow_dispatch]\n${steps}` },
      { path: '.gitea/workflows/lint.yaml', content: `on: [push]\n${steps}` },
    ]);
    expect(pushed.status).toBe(201);
    const runsOf = async (id: string) => (await alice.api.get<{ total_count: number }>(at(`/${id}/runs`))).body.total_count;
    await expectEventually(async () => expect([await runsOf('build.yml'), await runsOf('lint.yaml')]).toEqual([1, 1]));

    const html = `${layout.rootUrl}${flows.full_name}`;
    const build = {
      id: 'build.yml',
      name: 'Build',
      path: '.gitea/workflows/build.yml',
      state: 'active',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      url: `${layout.rootUrl}api/v1/repos/${flows.full_name}/actions/workflows/build.yml`,
      html_url: `${html}/src/branch/main/.gitea/workflows/build.yml`,
      badge_url: `${html}/actions/workflows/build.yml/badge.svg?branch=main`,
    };
    const listed = await bob.api.get<{ workflows: Array<{ id: string; name: string }>; total_count: number }>(at());
    expect(listed.body.total_count).toBe(2);
    expect(listed.body.workflows.map((w) => [w.id, w.name])).toEqual([['build.yml', 'Build'], ['lint.yaml', 'lint.yaml']]);
    expect((await bob.api.get(at('/build.yml'))).body).toEqual(build);
    expect(await bob.api.get(at('/nothing.yml'))).toMatchObject({ status: 404, body: giteaError('workflow "nothing.yml" not found') });
    // Gitea: a token to read them, write access to turn them off or on.
    expect((await api.anonymous.get(at())).status).toBe(401);
    expect((await bob.api.put(at('/build.yml/disable'))).status).toBe(403);
    expect((await carol.api.put(at('/nothing.yml/disable'))).status).toBe(404);

    expect((await carol.api.put(at('/build.yml/disable'))).status).toBe(204);
    expect((await carol.api.put(at('/build.yml/disable'))).status).toBe(204);
    expect((await bob.api.get(at('/build.yml'))).body).toEqual({ ...build, state: 'disabled_manually' });
    expect(await carol.api.post(at('/build.yml/dispatches'), { ref: 'main' })).toMatchObject({ status: 403, body: giteaError('workflow is disabled') });
    // Nor may its runs be run again (Gitea's 400), until it is turned on.
    const [firstBuild] = (await alice.api.get<{ workflow_runs: ActionWorkflowRun[] }>(at('/build.yml/runs'))).body.workflow_runs;
    expect((await carol.api.post(`${base(flows)}/runs/${firstBuild!.id}/cancel`)).status).toBe(202);
    expect(await carol.api.post(`${base(flows)}/runs/${firstBuild!.id}/rerun`)).toMatchObject({ status: 400, body: giteaError('workflow build.yml is disabled') });
    // A push runs the workflows still on, and not the one turned off.
    await write([{ path: 'more.txt', content: 'more\n' }]);
    await expectEventually(async () => expect(await runsOf('lint.yaml')).toBe(2));
    expect(await runsOf('build.yml')).toBe(1);

    expect((await carol.api.put(at('/build.yml/enable'))).status).toBe(204);
    expect((await bob.api.get(at('/build.yml'))).body).toEqual(build);
    // Gitea's return_run_details: the run the dispatch started.
    const details = await carol.api.post<{ workflow_run_id: number; run_url: string; html_url: string }>(at('/build.yml/dispatches?return_run_details=true'), { ref: 'main' });
    expect(details.status).toBe(200);
    const runId = details.body.workflow_run_id;
    expect(details.body).toEqual({ workflow_run_id: runId, run_url: `${layout.rootUrl}api/v1/repos/${flows.full_name}/actions/runs/${runId}`, html_url: `${html}/actions/runs/${runId}` });
    expect((await alice.api.get<ActionWorkflowRun>(`${base(flows)}/runs/${runId}`)).body).toMatchObject({ id: runId, event: 'workflow_dispatch' });
    expect(await runsOf('build.yml')).toBe(2);
    expect((await carol.api.post(`${base(flows)}/runs/${firstBuild!.id}/rerun`)).status).toBe(201);

    // With the repository's Actions unit off, only its admins reach the workflows (Gitea's reqRepoReader).
    expect((await alice.api.patch(`/repos/${flows.full_name}`, { has_actions: false })).status).toBe(200);
    expect((await bob.api.get(at())).status).toBe(403);
    expect((await carol.api.put(at('/lint.yaml/disable'))).status).toBe(403);
    expect((await alice.api.get<{ total_count: number }>(at())).body.total_count).toBe(2);
    // An archived repository takes no writes (423), its workflows' switches included; reading them goes on.
    expect((await alice.api.patch(`/repos/${flows.full_name}`, { archived: true })).status).toBe(200);
    expect(await alice.api.put(at('/lint.yaml/disable'))).toMatchObject({ status: 423 });
    expect((await alice.api.get<{ workflows: Array<{ state: string }> }>(at())).body.workflows.map((w) => w.state)).toEqual(['active', 'active']);
  });

  it('runs pull_request workflows from the head commit, filtered on the base branch', async () => {
    const PR = 'name: PR\non:\n  pull_request:\n    branches: [main]\njobs:\n  check:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo check\n';
    const branch = await alice.api.post<{ commit: { sha: string } }>(`/repos/${repo.full_name}/contents`, {
      message: 'Check pull requests',
      branch: 'main',
      new_branch: 'feature',
      files: [{ operation: 'create', path: '.gitea/workflows/pr.yml', content: b64(PR) }],
    });
    expect(branch.status).toBe(201);
    const pull = await alice.api.post<{ number: number }>(`/repos/${repo.full_name}/pulls`, { head: 'feature', base: 'main', title: 'Feature work' });
    expect(pull.status).toBe(201);
    const run = await expectEventually(async () => {
      const res = await alice.api.get<{ workflow_runs: ActionWorkflowRun[] }>(`${base()}/runs?event=pull_request`);
      expect(res.body.workflow_runs).toHaveLength(1);
      return res.body.workflow_runs[0]!;
    });
    expect(run).toMatchObject({
      path: `pr.yml@refs/pull/${pull.body.number}/head`,
      head_sha: branch.body.commit.sha,
      display_title: 'Feature work',
      status: 'queued',
    });
    // Gitea's exclude_pull_requests leaves the pull request's run out of the listing.
    const adminRuns = async (query: string) =>
      (await api.admin.get<{ workflow_runs: ActionWorkflowRun[] }>(`/admin/actions/runs?${query}`)).body.workflow_runs.map((r) => r.id);
    expect(await adminRuns('limit=50')).toContain(run.id);
    expect(await adminRuns('limit=50&exclude_pull_requests=true')).not.toContain(run.id);
    expect((await adminRuns('limit=50&exclude_pull_requests=true')).length).toBeGreaterThan(0);
    expect(await adminRuns('event=pull_request&exclude_pull_requests=true')).toEqual([]);
    await expectEventually(async () => {
      const res = await api.anonymous.get<CommitStatus[]>(`/repos/${repo.full_name}/statuses/${branch.body.commit.sha}`);
      expect(res.body.map((st) => st.context)).toContain('PR / check (pull_request)');
    });
  });

  it('drops the runs, secrets and runners of a deleted repository, so no runner takes its jobs', async () => {
    const gone = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('gone'), auto_init: true })).body;
    const WF = 'on: push\njobs:\n  wait:\n    runs-on: gone-label\n    steps:\n      - run: echo ${{ secrets.DOOMED }}\n';
    expect((await alice.api.put(`${base(gone)}/secrets/DOOMED`, { data: 'still here' })).status).toBe(201);
    const { token } = (await alice.api.post<{ token: string }>(`${base(gone)}/runners/registration-token`)).body;
    const own = await runnerClient(layout).register({ name: 'gone-runner', token, version: 'v0.2.11', labels: ['elsewhere'] });
    const pushed = await alice.api.post(`/repos/${gone.full_name}/contents`, {
      message: 'Wait for a runner',
      branch: 'main',
      files: [{ operation: 'create', path: '.gitea/workflows/wait.yml', content: b64(WF) }],
    });
    expect(pushed.status).toBe(201);
    await expectEventually(async () => {
      expect((await alice.api.get<{ total_count: number }>(`${base(gone)}/runs`)).body.total_count).toBe(1);
    });
    const before = (await api.admin.get<{ total_count: number }>('/admin/actions/runs')).body.total_count;
    expect((await alice.api.delete(`/repos/${gone.full_name}`)).status).toBe(204);
    await expectEventually(async () => {
      expect((await api.admin.get<{ total_count: number }>('/admin/actions/runs')).body.total_count).toBe(before - 1);
    });
    // Its runner is gone, and an instance runner with the label finds nothing of it to run.
    expect((await api.admin.get(`/admin/actions/runners/${own.runner!.id}`)).status).toBe(404);
    const admin = (await api.admin.post<{ token: string }>('/admin/actions/runners/registration-token')).body.token;
    const registered = await runnerClient(layout).register({ name: 'late-runner', token: admin, version: 'v0.2.11', labels: ['gone-label'] });
    const fetched = await runnerClient(layout, { uuid: registered.runner!.uuid, token: registered.runner!.token }).fetchTask({ tasksVersion: 0n });
    expect(fetched.task).toBeUndefined();
  });

  it('expands a matrix into one job per combination, each pinned to its values, and needs waits for them all', async () => {
    const mx = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('matrix'), auto_init: true })).body;
    const { token } = (await alice.api.post<{ token: string }>(`${base(mx)}/runners/registration-token`)).body;
    const registered = (await runnerClient(layout).register({ name: 'mx-runner', token, version: 'v0.2.11', labels: ['mx-ubuntu', 'mx-debian:host'] })).runner!;
    const client = runnerClient(layout, { uuid: registered.uuid, token: registered.token });
    const pushed = await alice.api.post<{ commit: { sha: string } }>(`/repos/${mx.full_name}/contents`, {
      message: 'Build on a matrix',
      branch: 'main',
      files: [{ operation: 'create', path: '.github/workflows/matrix.yml', content: b64(MATRIX) }],
    });
    expect(pushed.status).toBe(201);
    const run = await expectEventually(async () => {
      const res = await alice.api.get<{ workflow_runs: ActionWorkflowRun[] }>(`${base(mx)}/runs`);
      expect(res.body.workflow_runs).toHaveLength(1);
      return res.body.workflow_runs[0]!;
    });
    const jobsOf = async () => (await alice.api.get<{ jobs: ActionWorkflowJob[]; total_count: number }>(`${base(mx)}/runs/${run.id}/jobs`)).body;
    const listed = await jobsOf();
    expect(listed.total_count).toBe(4);
    // Gitea's names and order: the values after the key in the order of the sorted keys, rows sorted
    // by them; runs-on evaluated per combination.
    expect(listed.jobs.map((j) => [j.name, j.labels, j.status])).toEqual([
      ['build (18, ubuntu)', ['mx-ubuntu'], 'queued'],
      ['build (20, debian)', ['mx-debian'], 'queued'],
      ['build (true, 20, ubuntu)', ['mx-ubuntu'], 'queued'],
      ['report', ['mx-ubuntu'], 'waiting'],
    ]);
    await expectEventually(async () => {
      const res = await api.anonymous.get<CommitStatus[]>(`/repos/${mx.full_name}/statuses/${pushed.body.commit.sha}`);
      expect([...new Set(res.body.map((st) => st.context))].sort()).toEqual([
        'Matrix / build (18, ubuntu) (push)',
        'Matrix / build (20, debian) (push)',
        'Matrix / build (true, 20, ubuntu) (push)',
        'Matrix / report (push)',
      ]);
    });

    // Each combination is its own task, whose payload act_runner reads with just its values.
    const tasks: Task[] = [];
    for (let i = 0; i < 3; i++) {
      const fetched = await client.fetchTask({ tasksVersion: 0n });
      expect(fetched.task).toBeDefined();
      tasks.push(fetched.task!);
    }
    const pinned = tasks.map((t) => {
      expect(t.context).toMatchObject({ job: 'build' });
      const doc = parseYaml(new TextDecoder().decode(t.workflowPayload)) as { jobs: Record<string, { name: string; 'runs-on': string; strategy: unknown }> };
      expect(Object.keys(doc.jobs)).toEqual(['build']);
      return doc.jobs.build!;
    });
    expect(pinned).toEqual([
      { name: 'build (18, ubuntu)', 'runs-on': 'mx-ubuntu', strategy: { 'fail-fast': true, matrix: { os: ['ubuntu'], node: [18] } }, steps: [{ run: 'node --version' }] },
      { name: 'build (20, debian)', 'runs-on': 'mx-debian', strategy: { 'fail-fast': true, matrix: { os: ['debian'], node: [20] } }, steps: [{ run: 'node --version' }] },
      {
        name: 'build (true, 20, ubuntu)',
        'runs-on': 'mx-ubuntu',
        strategy: { 'fail-fast': true, matrix: { os: ['ubuntu'], node: [20], experimental: [true] } },
        steps: [{ run: 'node --version' }],
      },
    ]);
    // report needs build: nothing more to run while any combination is unfinished.
    expect((await client.fetchTask({ tasksVersion: 0n })).task).toBeUndefined();
    await client.updateTask({ state: { id: tasks[0]!.id, result: Result.SUCCESS }, outputs: { dist: 'ubuntu-18.tgz' } });
    await client.updateTask({ state: { id: tasks[1]!.id, result: Result.SUCCESS }, outputs: { dist: '' } });
    expect((await jobsOf()).jobs.map((j) => j.status)).toEqual(['completed', 'completed', 'in_progress', 'waiting']);
    expect((await client.fetchTask({ tasksVersion: 0n })).task).toBeUndefined();
    expect((await alice.api.get<ActionWorkflowRun>(`${base(mx)}/runs/${run.id}`)).body.status).toBe('in_progress');

    await client.updateTask({ state: { id: tasks[2]!.id, result: Result.SUCCESS }, outputs: { tested: 'yes' } });
    expect((await jobsOf()).jobs.map((j) => j.status)).toEqual(['completed', 'completed', 'completed', 'queued']);
    const report = (await client.fetchTask({ tasksVersion: 0n })).task!;
    expect(report.context).toMatchObject({ job: 'report' });
    // The combinations answer as one need: their aggregate result and their outputs merged.
    expect(report.needs).toEqual({ build: expect.objectContaining({ result: Result.SUCCESS, outputs: { dist: 'ubuntu-18.tgz', tested: 'yes' } }) });
    await client.updateTask({ state: { id: report.id, result: Result.SUCCESS } });
    expect((await alice.api.get<ActionWorkflowRun>(`${base(mx)}/runs/${run.id}`)).body).toMatchObject({ status: 'completed', conclusion: 'success' });

    // A context gets a status when its job's state says something new (Gitea's createCommitStatus),
    // not one per job each time any job of the run changes.
    const written = (await api.anonymous.get<CommitStatus[]>(`/repos/${mx.full_name}/statuses/${pushed.body.commit.sha}?limit=50`)).body;
    const byContext = new Map<string, string[]>();
    for (const st of [...written].reverse()) byContext.set(st.context, [...(byContext.get(st.context) ?? []), `${st.status}: ${st.description}`]);
    expect(byContext.size).toBe(4);
    for (const states of byContext.values()) {
      expect(states.filter((said, i) => said === states[i - 1])).toEqual([]);
      expect(states.at(-1)).toMatch(/^success: /);
    }
  });

  it('skips a job after a matrix job with a skipped combination, and hands one with an if: to the runner', async () => {
    const repo = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('skipped-combo'), auto_init: true })).body;
    const { token } = (await alice.api.post<{ token: string }>(`${base(repo)}/runners/registration-token`)).body;
    const registered = (await runnerClient(layout).register({ name: 'sk-runner', token, version: 'v0.2.11', labels: ['sk-label'] })).runner!;
    const client = runnerClient(layout, { uuid: registered.uuid, token: registered.token });
    const WF = [
      'name: Skips',
      'on: push',
      'jobs:',
      '  build:',
      '    runs-on: sk-label',
      '    if: matrix.os != \'b\'',
      '    strategy: {matrix: {os: [a, b]}}',
      '    steps: [{run: echo}]',
      '  after:',
      '    needs: build',
      '    runs-on: sk-label',
      '    steps: [{run: echo}]',
      '  tidy:',
      '    needs: build',
      '    if: ${{ !cancelled() }}',
      '    runs-on: sk-label',
      '    steps: [{run: echo}]',
      '',
    ].join('\n');
    const pushed = await alice.api.post(`/repos/${repo.full_name}/contents`, {
      message: 'Skip a combination',
      branch: 'main',
      files: [{ operation: 'create', path: '.gitea/workflows/skips.yml', content: b64(WF) }],
    });
    expect(pushed.status).toBe(201);
    const run = await expectEventually(async () => {
      const res = await alice.api.get<{ workflow_runs: ActionWorkflowRun[] }>(`${base(repo)}/runs`);
      expect(res.body.workflow_runs).toHaveLength(1);
      return res.body.workflow_runs[0]!;
    });
    const builds = [(await client.fetchTask({ tasksVersion: 0n })).task!, (await client.fetchTask({ tasksVersion: 0n })).task!];
    // act_runner reports the combination its if: rules out as skipped.
    await client.updateTask({ state: { id: builds[0]!.id, result: Result.SUCCESS } });
    await client.updateTask({ state: { id: builds[1]!.id, result: Result.SKIPPED } });
    const jobs = (await alice.api.get<{ jobs: ActionWorkflowJob[] }>(`${base(repo)}/runs/${run.id}/jobs`)).body.jobs;
    expect(jobs.map((j) => [j.name, j.status, j.conclusion])).toEqual([
      ['build (a)', 'completed', 'success'],
      ['build (b)', 'completed', 'skipped'],
      ['after', 'completed', 'skipped'],
      ['tidy', 'queued', undefined],
    ]);
    const tidy = (await client.fetchTask({ tasksVersion: 0n })).task!;
    expect(tidy.context).toMatchObject({ job: 'tidy' });
    expect((await client.fetchTask({ tasksVersion: 0n })).task).toBeUndefined();
  });

  it('dispatches a matrix workflow whose job name nests an expression deeper than the server evaluates', async () => {
    const deep = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('deep-expr'), auto_init: true })).body;
    const name = `\${{ ${'('.repeat(20000)}matrix.os${')'.repeat(20000)} }}`;
    const WF = `on: workflow_dispatch\njobs:\n  nested:\n    name: "${name}"\n    runs-on: deep-label\n    strategy: {matrix: {os: [a, b]}}\n    steps:\n      - run: echo\n`;
    const pushed = await alice.api.post(`/repos/${deep.full_name}/contents`, {
      message: 'A name nested deeply',
      branch: 'main',
      files: [{ operation: 'create', path: '.gitea/workflows/deep.yml', content: b64(WF) }],
    });
    expect(pushed.status).toBe(201);
    // It was a stack overflow, answered 500; the name is left for the runner as written.
    expect((await alice.api.post(`${base(deep)}/workflows/deep.yml/dispatches`, { ref: 'main' })).status).toBe(204);
    const run = await expectEventually(async () => {
      const res = await alice.api.get<{ workflow_runs: ActionWorkflowRun[] }>(`${base(deep)}/runs`);
      expect(res.body.workflow_runs).toHaveLength(1);
      return res.body.workflow_runs[0]!;
    });
    const jobs = (await alice.api.get<{ jobs: ActionWorkflowJob[] }>(`${base(deep)}/runs/${run.id}/jobs`)).body.jobs;
    expect(jobs.map((j) => [j.name, j.status])).toEqual([
      [name.slice(0, 255), 'queued'],
      [name.slice(0, 255), 'queued'],
    ]);
  });

  it('hands the jobs of a transferred repository to its new owner, with the secrets of the new owner only', async () => {
    const org = await createOrg(alice.api);
    expect((await alice.api.put(`/orgs/${org.username}/actions/secrets/ORG_ONLY`, { data: 'for the organization' })).status).toBe(201);
    const moving = (await alice.api.post<Repository>(`/orgs/${org.username}/repos`, { name: uniqueName('moving'), auto_init: true })).body;
    const WF = 'on: push\njobs:\n  later:\n    runs-on: moved-label\n    steps:\n      - run: echo later\n';
    const pushed = await alice.api.post(`/repos/${moving.full_name}/contents`, {
      message: 'Wait for a runner',
      branch: 'main',
      files: [{ operation: 'create', path: '.gitea/workflows/later.yml', content: b64(WF) }],
    });
    expect(pushed.status).toBe(201);
    await expectEventually(async () => {
      expect((await alice.api.get<{ total_count: number }>(`${base(moving)}/runs`)).body.total_count).toBe(1);
    });
    const moved = await alice.api.post<Repository>(`${`/repos/${moving.full_name}`}/transfer`, { new_owner: alice.username });
    expect(moved.status).toBe(202);
    const { token } = (await alice.api.post<{ token: string }>('/user/actions/runners/registration-token')).body;
    const registered = await runnerClient(layout).register({ name: 'alice-runner', token, version: 'v0.2.11', labels: ['moved-label'] });
    const own = runnerClient(layout, { uuid: registered.runner!.uuid, token: registered.runner!.token });
    const fetched = await expectEventually(async () => {
      const res = await own.fetchTask({ tasksVersion: 0n });
      expect(res.task).toBeDefined();
      return res.task!;
    });
    expect(Object.keys(fetched.secrets)).not.toContain('ORG_ONLY');
  });
  it("gives each task its own token: Gitea's Actions user on the task's repository only, and only while the task runs", async () => {
    const own = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('tokened'), auto_init: true, private: true })).body;
    const elsewhere = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('elsewhere'), auto_init: true, private: true })).body;
    const bobs = (await bob.api.post<Repository>('/user/repos', { name: uniqueName('bobs'), auto_init: true, private: true })).body;
    const { token: registration } = (await alice.api.post<{ token: string }>(`${base(own)}/runners/registration-token`)).body;
    const registered = (await runnerClient(layout).register({ name: 'token-runner', token: registration, version: 'v0.2.11', labels: ['token-label'] })).runner!;
    const client = runnerClient(layout, { uuid: registered.uuid, token: registered.token });
    const WF = 'on: push\njobs:\n  release:\n    runs-on: token-label\n    steps:\n      - uses: actions/checkout@v4\n';
    const pushed = await alice.api.post<{ commit: { sha: string } }>(`/repos/${own.full_name}/contents`, {
      message: 'Release from a workflow',
      branch: 'main',
      files: [{ operation: 'create', path: '.gitea/workflows/release.yml', content: b64(WF) }],
    });
    expect(pushed.status).toBe(201);
    const task = await expectEventually(async () => {
      const res = await client.fetchTask({ tasksVersion: 0n });
      expect(res.task).toBeDefined();
      return res.task!;
    });

    // The token reaches the job as both secrets and as the context's token.
    const token = task.secrets.GITEA_TOKEN!;
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    expect(task.secrets.GITHUB_TOKEN).toBe(token);
    expect(task.context?.token).toBe(token);
    expect(token).not.toBe(registered.token);

    // The API takes it in every form Gitea does, as the Actions user with write access here.
    const asTask = api.as({ token });
    const seen = await asTask.get<Repository>(`/repos/${own.full_name}`);
    expect(seen.status).toBe(200);
    expect(seen.body.permissions).toEqual({ admin: false, push: true, pull: true });
    expect((await api.as({ basic: ['whoever', token] }).get(`/repos/${own.full_name}`)).status).toBe(200);
    // Signed in, the token is Gitea's Actions user, though no account holds it.
    const self = await asTask.get<{ id: number; login: string; email: string; full_name: string }>('/user');
    expect(self.status).toBe(200);
    expect(self.body).toMatchObject({ id: -2, login: 'gitea-actions', full_name: 'Gitea Actions', email: 'teabot@gitea.io' });
    expect((await api.anonymous.request('GET', `/repos/${own.full_name}`, undefined, { authorization: `Bearer ${token}` })).status).toBe(200);
    const status = await asTask.post<CommitStatus>(`/repos/${own.full_name}/statuses/${pushed.body.commit.sha}`, { state: 'success', context: 'release' });
    expect(status.status).toBe(201);
    expect(status.body.creator).toMatchObject({ id: -2, login: 'gitea-actions' });
    // ... and nowhere else: not another repository of the same owner, not another's, public or private; no admin routes.
    expect((await asTask.get(`/repos/${elsewhere.full_name}`)).status).toBe(404);
    expect((await asTask.get(`/repos/${bobs.full_name}`)).status).toBe(404);
    expect((await asTask.get(`/repos/${other.full_name}`)).status).toBe(404);
    expect((await asTask.post(`/repos/${elsewhere.full_name}/statuses/${pushed.body.commit.sha}`, { state: 'success' })).status).toBe(404);
    expect((await asTask.get('/admin/actions/runs')).status).toBe(403);

    const git = GitCli.create();
    try {
      // Cloned and pushed over smart HTTP as actions/checkout does (any user name, the token as password).
      const dir = git.dir();
      await git.run(['clone', '--quiet', gitUrl(layout, alice.username, own.name, ['x-access-token', token]), dir]);
      const sha = await git.commit(dir, { 'built.txt': 'artifact\n' }, 'Built by the workflow');
      await git.run(['push', '--quiet', 'origin', 'HEAD:refs/heads/from-actions'], { cwd: dir });
      const branch = await alice.api.get<Branch>(`/repos/${own.full_name}/branches/from-actions`);
      expect(branch.status).toBe(200);
      expect(branch.body.commit.id).toBe(sha);
      // The push path's protections hold for the token as for anyone.
      const rule = await alice.api.post(`/repos/${own.full_name}/branch_protections`, { rule_name: 'main', enable_push: false } satisfies CreateBranchProtectionOption);
      expect(rule.status).toBe(201);
      const refused = await git.run(['push', 'origin', 'HEAD:main'], { cwd: dir, allowFailure: true });
      expect(refused.stderr).toContain('(pre-receive hook declined: Not allowed to push to protected branch main)');
      // Another private repository is not there for the token.
      const hidden = await git.run(['ls-remote', gitUrl(layout, alice.username, elsewhere.name, ['x-access-token', token])], { allowFailure: true });
      expect(hidden.code).not.toBe(0);
      expect(hidden.stderr).toMatch(/not found/i);

      // What the job pushed starts no workflow run: alice's next push starts one, the token's push none.
      const next = await alice.api.post(`/repos/${own.full_name}/contents`, {
        message: 'Next',
        branch: 'main',
        new_branch: 'next',
        files: [{ operation: 'create', path: 'next.txt', content: b64('next') }],
      });
      expect(next.status).toBe(201);
      const runs = await expectEventually(async () => {
        const res = await alice.api.get<{ workflow_runs: ActionWorkflowRun[]; total_count: number }>(`${base(own)}/runs`);
        expect(res.body.total_count).toBe(2);
        return res.body.workflow_runs;
      });
      expect(runs.map((r) => r.head_branch)).toEqual(['next', 'main']);

      // Once the task is over its token is refused, by the API and by git.
      await client.updateTask({ state: { id: task.id, result: Result.SUCCESS, stoppedAt: timestampFromMs(Date.now()) } });
      await expectEventually(async () => {
        expect((await asTask.get(`/repos/${own.full_name}`)).status).toBe(401);
      });
      // Git's Basic form of the token is a credential of its own in the gateway's auth cache: it
      // may have been verified by the push above less than GITFORGE_AUTH_CACHE_TTL_MS ago.
      await expectEventually(async () => {
        const late = await git.run(['ls-remote', gitUrl(layout, alice.username, own.name, ['x-access-token', token])], { allowFailure: true });
        expect(late.code).not.toBe(0);
        expect(late.stderr).toMatch(/401|Authentication failed|could not read/i);
      });
      // The next task has a token of its own.
      const following = await client.fetchTask({ tasksVersion: 0n });
      expect(following.task?.secrets.GITEA_TOKEN).toMatch(/^[0-9a-f]{40}$/);
      expect(following.task?.secrets.GITEA_TOKEN).not.toBe(token);
    } finally {
      git.cleanup();
    }
  });

  it("shows the issues, comments and pull requests a task's token makes as the Actions user, to readers and to webhooks", async () => {
    const receiver = await HookReceiver.start();
    try {
      const own = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('tracked'), auto_init: true, private: true })).body;
      const elsewhere = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('untracked'), auto_init: true, private: true })).body;
      const hook = await alice.api.post(`/repos/${own.full_name}/hooks`, {
        type: 'gitea',
        config: { url: receiver.url('/tracked'), content_type: 'json' },
        events: ['issues', 'issue_comment', 'pull_request'],
        active: true,
      });
      expect(hook.status).toBe(201);
      const theirs = (await alice.api.post<{ number: number }>(`/repos/${elsewhere.full_name}/issues`, { title: 'Not for the token' })).body;
      const { token: registration } = (await alice.api.post<{ token: string }>(`${base(own)}/runners/registration-token`)).body;
      const registered = (await runnerClient(layout).register({ name: 'issue-runner', token: registration, version: 'v0.2.11', labels: ['issue-label'] })).runner!;
      const client = runnerClient(layout, { uuid: registered.uuid, token: registered.token });
      const WF = 'on: push\njobs:\n  triage:\n    runs-on: issue-label\n    steps:\n      - run: echo triage\n';
      await alice.api.post(`/repos/${own.full_name}/contents`, { message: 'Triage', branch: 'main', files: [{ operation: 'create', path: '.gitea/workflows/triage.yml', content: b64(WF) }] });
      const task = await expectEventually(async () => {
        const res = await client.fetchTask({ tasksVersion: 0n });
        expect(res.task).toBeDefined();
        return res.task!;
      });
      const asTask = api.as({ token: task.secrets.GITEA_TOKEN! });
      const actions = { id: -2, login: 'gitea-actions' };

      const issue = await asTask.post<{ number: number; user: { id: number; login: string } }>(`/repos/${own.full_name}/issues`, { title: 'Found by the workflow' });
      expect(issue.status).toBe(201);
      expect(issue.body.user).toMatchObject(actions);
      const comment = await asTask.post<{ user: { id: number; login: string } }>(`/repos/${own.full_name}/issues/${issue.body.number}/comments`, { body: 'Still failing' });
      expect(comment.status).toBe(201);
      expect(comment.body.user).toMatchObject(actions);
      expect((await asTask.post(`/repos/${own.full_name}/branches`, { new_branch_name: 'fix' })).status).toBe(201);
      const pull = await asTask.post<{ user: { id: number; login: string } }>(`/repos/${own.full_name}/pulls`, { head: 'fix', base: 'main', title: 'Fix from the workflow' });
      expect(pull.status).toBe(201);
      expect(pull.body.user).toMatchObject(actions);
      // Readers see the Actions user, not the ghost of a deleted account.
      const listed = await alice.api.get<Array<{ user: { id: number; login: string } }>>(`/repos/${own.full_name}/issues/${issue.body.number}/comments`);
      expect(listed.body.map((c) => c.user)).toEqual([expect.objectContaining(actions)]);
      // The token's grant covers only its repository's issues.
      expect((await asTask.post(`/repos/${elsewhere.full_name}/issues`, { title: 'Nope' })).status).toBe(404);
      expect((await asTask.post(`/repos/${elsewhere.full_name}/issues/${theirs.number}/comments`, { body: 'Nope' })).status).toBe(404);

      // Webhooks get each event, with the Actions user as its sender (Gitea's payload).
      const senders = async (): Promise<string[]> => {
        const got = await receiver.waitFor('/tracked', 3);
        return got.map((d) => {
          const body = JSON.parse(d.body) as { action: string; sender?: { id: number; login: string } };
          return `${d.headers['x-gitea-event']} ${body.action} ${body.sender?.id}/${body.sender?.login}`;
        });
      };
      expect((await senders()).sort()).toEqual(['issue_comment created -2/gitea-actions', 'issues opened -2/gitea-actions', 'pull_request opened -2/gitea-actions']);
    } finally {
      await receiver.close();
    }
  });

  it("moves LFS objects of the task's repository with its token, through the batch's transfer actions", async () => {
    const own = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('lfsjob'), auto_init: true, private: true })).body;
    const { token: registration } = (await alice.api.post<{ token: string }>(`${base(own)}/runners/registration-token`)).body;
    const registered = (await runnerClient(layout).register({ name: 'lfs-runner', token: registration, version: 'v0.2.11', labels: ['lfs-label'] })).runner!;
    const client = runnerClient(layout, { uuid: registered.uuid, token: registered.token });
    const WF = 'on: push\njobs:\n  assets:\n    runs-on: lfs-label\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          lfs: true\n';
    await alice.api.post(`/repos/${own.full_name}/contents`, { message: 'Assets', branch: 'main', files: [{ operation: 'create', path: '.gitea/workflows/assets.yml', content: b64(WF) }] });
    const task = await expectEventually(async () => {
      const res = await client.fetchTask({ tasksVersion: 0n });
      expect(res.task).toBeDefined();
      return res.task!;
    });
    const LFS = 'application/vnd.git-lfs+json';
    // As actions/checkout sends it: the token as Basic password.
    const authorization = `Basic ${Buffer.from(`x-access-token:${task.secrets.GITEA_TOKEN!}`).toString('base64')}`;
    const content = Buffer.from('a large asset built by the job\n');
    const oid = createHash('sha256').update(content).digest('hex');
    type Action = { href: string; header?: Record<string, string> };
    const batch = async (operation: 'upload' | 'download'): Promise<Action> => {
      const res = await fetch(`${layout.rootUrl}${own.full_name}.git/info/lfs/objects/batch`, {
        method: 'POST',
        headers: { accept: LFS, 'content-type': LFS, authorization },
        body: JSON.stringify({ operation, transfers: ['basic'], objects: [{ oid, size: content.length }] }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { objects: Array<{ actions?: Record<string, Action>; error?: unknown }> };
      expect(body.objects[0]!.error).toBeUndefined();
      return body.objects[0]!.actions![operation]!;
    };

    // git-lfs sends exactly the header the batch hands it with each transfer.
    const upload = await batch('upload');
    const put = await fetch(upload.href, { method: 'PUT', headers: { ...upload.header, 'content-type': 'application/octet-stream' }, body: content });
    expect(put.status).toBe(200);
    const download = await batch('download');
    const got = await fetch(download.href, { headers: download.header ?? {} });
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(content)).toBe(true);
  });

  it('reports the jobs of a run that a task started with its token, as the Actions user', async () => {
    const own = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('chained'), auto_init: true, private: true })).body;
    const { token: registration } = (await alice.api.post<{ token: string }>(`${base(own)}/runners/registration-token`)).body;
    const registered = (await runnerClient(layout).register({ name: 'chain-runner', token: registration, version: 'v0.2.11', labels: ['chain-label'] })).runner!;
    const client = runnerClient(layout, { uuid: registered.uuid, token: registered.token });
    const WF = 'name: Chain\non: [push, workflow_dispatch]\njobs:\n  step:\n    runs-on: chain-label\n    steps:\n      - run: echo step\n';
    const pushed = await alice.api.post<{ commit: { sha: string } }>(`/repos/${own.full_name}/contents`, {
      message: 'Chain',
      branch: 'main',
      files: [{ operation: 'create', path: '.gitea/workflows/chain.yml', content: b64(WF) }],
    });
    const task = await expectEventually(async () => {
      const res = await client.fetchTask({ tasksVersion: 0n });
      expect(res.task).toBeDefined();
      return res.task!;
    });
    // The job starts the next workflow with its own token.
    const dispatched = await api.as({ token: task.secrets.GITEA_TOKEN! }).post(`${base(own)}/workflows/chain.yml/dispatches`, { ref: 'main' });
    expect(dispatched.status).toBe(204);
    const statuses = await expectEventually(async () => {
      const res = await alice.api.get<CommitStatus[]>(`/repos/${own.full_name}/statuses/${pushed.body.commit.sha}`);
      expect(res.body.map((st) => st.context)).toEqual(expect.arrayContaining(['Chain / step (push)', 'Chain / step (workflow_dispatch)']));
      return res.body;
    });
    expect(statuses.find((st) => st.context === 'Chain / step (workflow_dispatch)')).toMatchObject({
      status: 'pending',
      creator: expect.objectContaining({ id: -2, login: 'gitea-actions' }),
    });
  });
});
