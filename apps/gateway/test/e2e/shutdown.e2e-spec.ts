import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Branch, Repository } from '@gitforge/contracts';
import { Api, createUser, uniqueName, type TestUser } from './support/api.js';
import { GitCli, gitUrl } from './support/git.js';
import { basicAuth } from './support/http.js';
import { Layout, layoutsUnderTest, type AppName } from './support/layout.js';
import { repoDir } from './support/repo-disk.js';

/** Sends SIGTERM to one process of the layout and answers its exit code. */
function terminate(layout: Layout, app: AppName, index = 0): Promise<number | null> {
  const proc = layout.processes.find((p) => p.app === app && p.index === index && p.child.exitCode === null)!;
  const exited = new Promise<number | null>((resolve) =>
    proc.child.once('exit', (code) => {
      // A process that stopped on purpose is no crash for the layout's health checks.
      layout.processes.splice(layout.processes.indexOf(proc), 1);
      resolve(code);
    }),
  );
  proc.child.kill('SIGTERM');
  return exited;
}

/**
 * How many `POST /api/v1/user/repos` the gateway has read so far (answered and in flight), from
 * its own metrics: a request still in the kernel's accept queue was never taken, and a stop
 * rightly refuses it.
 */
async function creationsReceived(layout: Layout): Promise<number> {
  const text = await (await fetch(`${layout.rootUrl}metrics`)).text();
  let received = 0;
  for (const line of text.split('\n')) {
    if (!/^gitforge_http_requests_(total|in_flight)\{/.test(line)) continue;
    if (line.includes('method="POST"') && line.includes('route="/api/v1/user/repos"')) received += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return received;
}

describe.each(layoutsUnderTest())('graceful shutdown under load (%s layout)', (kind) => {
  let layout: Layout;
  let alice: TestUser;

  beforeAll(async () => {
    // Two repo-service replicas in the distributed layout: the one told to stop finishes its
    // requests, the other takes every request that arrives after.
    layout = await Layout.start(kind, {
      replicas: { repo: 2 },
      env: { GITFORGE_SHUTDOWN_GRACE_MS: '20000' },
    });
    alice = await createUser(new Api(layout), 'drain');
  });

  afterAll(async () => {
    await layout?.stop();
  });

  it('should answer every request it accepted, finish the push it was receiving, exit 0, and keep everything it answered', async () => {
    // A push large enough to be caught while receive-pack is still taking it.
    const pushed = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('pushed') })).body;
    const git = GitCli.create();
    const work = git.dir();
    await git.run(['init', '--quiet', '--initial-branch=main', work]);
    writeFileSync(join(work, 'blob.bin'), randomBytes(48 * 1024 * 1024));
    const head = await git.commit(work, { 'README.md': 'drained\n' }, 'large');
    const push = git.run(
      [
        'push',
        '--quiet',
        gitUrl(layout, alice.username, pushed.name, [alice.username, alice.password]),
        'main',
      ],
      { cwd: work, allowFailure: true },
    );
    // receive-pack keeps what it receives in a quarantine directory until the push is accepted.
    const objects = join(repoDir(layout, pushed.id), 'objects');
    const deadline = Date.now() + 60_000;
    while (
      !(existsSync(objects) && readdirSync(objects).some((d) => d.startsWith('tmp_objdir-incoming'))) &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 20));
    }

    const names = Array.from({ length: 24 }, () => uniqueName('drained'));
    const before = await creationsReceived(layout);
    // Repository creation crosses the gateway, the transport, repo-service, git and the outbox.
    const creations = names.map((name) =>
      alice.api.post<Repository>('/user/repos', { name, auto_init: true }),
    );
    // Under load: the first answer has come, the gateway has read every other one, and the push is in flight.
    await Promise.race(creations);
    while ((await creationsReceived(layout)) < before + names.length) await new Promise((r) => setTimeout(r, 5));
    const target: AppName = kind === 'embedded' ? 'embedded' : 'repo';
    const exitCode = await terminate(layout, target, 0);
    const answers = await Promise.all(creations);
    const pushResult = await push;
    expect(exitCode).toBe(0);
    expect(answers.map((a) => a.status)).toEqual(names.map(() => 201));
    expect(pushResult).toMatchObject({ code: 0, stderr: '' });

    // Nothing lost: after a restart (embedded) or on the surviving replica (distributed), each repository is there with its first commit.
    if (kind === 'embedded') {
      layout.spawn('embedded', 1);
      await layout.waitHealthy();
    }
    expect((await alice.api.get<Branch>(`/repos/${pushed.full_name}/branches/main`)).body.commit.id).toBe(
      head,
    );
    for (const name of names) {
      const repo = await alice.api.get<Repository>(`/repos/${alice.username}/${name}`);
      expect(repo.status).toBe(200);
      expect(repo.body.empty).toBe(false);
    }
  });

  it('should finish a Git LFS upload the gateway is streaming when it is told to stop', async () => {
    if (kind === 'distributed' && !layout.processes.some((p) => p.app === 'repo' && p.index === 0)) {
      // The gateway streams to the first repo-service's listener, stopped above: start it again.
      layout.spawn('repo', 0);
      const until = Date.now() + 60_000;
      while (
        (await fetch(`${layout.metricsUrl('repo', 0)}/readyz`).then(
          (r) => r.status,
          () => 0,
        )) !== 200 &&
        Date.now() < until
      ) {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const repo = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('lfs') })).body;
    const object = randomBytes(4 * 1024 * 1024);
    const oid = createHash('sha256').update(object).digest('hex');
    const url = `${layout.rootUrl}${repo.full_name}.git/info/lfs/objects/${oid}/${object.length}`;
    let rest!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(object.subarray(0, 1024 * 1024));
        rest = () => {
          controller.enqueue(object.subarray(1024 * 1024));
          controller.close();
        };
      },
    });
    const upload = fetch(url, {
      method: 'PUT',
      body,
      duplex: 'half',
      headers: {
        Authorization: basicAuth(alice.username, alice.password),
        'Content-Type': 'application/octet-stream',
      },
    } as RequestInit);
    // repo-service is writing the first part into the store when the stop comes.
    const tmp = join(layout.dataDir, '.blob-tmp');
    const deadline = Date.now() + 30_000;
    while (!(existsSync(tmp) && readdirSync(tmp).length > 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const target: AppName = kind === 'embedded' ? 'embedded' : 'gateway';
    const index = layout.processes.find((p) => p.app === target && p.child.exitCode === null)!.index;
    const exited = terminate(layout, target, index);
    // The gateway closes its listener once it has begun to shut down; the rest of the body comes after.
    while (
      (await fetch(`${layout.apiUrl}/version`).then(
        () => true,
        () => false,
      )) &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 20));
    }
    rest();
    const answer = await upload;
    expect(answer.status).toBe(200);
    expect(await exited).toBe(0);
    // Kept whole in the store (an upload cut short leaves nothing there).
    expect(existsSync(join(layout.dataDir, 'lfs', oid.slice(0, 2), oid.slice(2, 4), oid.slice(4)))).toBe(
      true,
    );
    // The next case needs the layout whole again (a gateway with its own listeners' addresses).
    layout.spawn(target, target === 'gateway' ? index : index + 1);
    await layout.waitHealthy();
  });

  // One repo-service holds the SSH port in the distributed layout here; the embedded process is the one stopped.
  (kind === 'embedded' ? it : it.skip)(
    'should finish a push over SSH that is in flight when it is told to stop',
    async () => {
      const git = GitCli.create();
      const key = join(git.home, 'id_drain');
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
      expect(
        (await alice.api.post('/user/keys', { title: 'drain', key: readFileSync(`${key}.pub`, 'utf8') }))
          .status,
      ).toBe(201);
      const repo = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('sshpush') })).body;
      const hostPub = readFileSync(join(layout.dataDir, 'ssh', 'gitforge_host_ed25519_key.pub'), 'utf8')
        .split(' ')
        .slice(0, 2)
        .join(' ');
      const u = new URL(repo.ssh_url);
      const knownHosts = join(git.home, 'known_hosts');
      writeFileSync(knownHosts, `[${u.hostname}]:${u.port} ${hostPub}\n`);
      const env = {
        GIT_SSH_COMMAND: `ssh -F /dev/null -i ${key} -o IdentitiesOnly=yes -o BatchMode=yes -o UserKnownHostsFile=${knownHosts} -o StrictHostKeyChecking=yes`,
      };
      const work = git.dir();
      await git.run(['init', '--quiet', '--initial-branch=main', work]);
      writeFileSync(join(work, 'blob.bin'), randomBytes(48 * 1024 * 1024));
      const head = await git.commit(work, { 'README.md': 'over ssh\n' }, 'large');
      const push = git.run(['push', '--quiet', repo.ssh_url, 'main'], { cwd: work, env, allowFailure: true });
      const objects = join(repoDir(layout, repo.id), 'objects');
      const deadline = Date.now() + 60_000;
      while (
        !(existsSync(objects) && readdirSync(objects).some((d) => d.startsWith('tmp_objdir-incoming'))) &&
        Date.now() < deadline
      ) {
        await new Promise((r) => setTimeout(r, 20));
      }
      const index = layout.processes.find((p) => p.app === 'embedded' && p.child.exitCode === null)!.index;
      const exitCode = await terminate(layout, 'embedded', index);
      const pushResult = await push;
      expect(exitCode).toBe(0);
      expect(pushResult).toMatchObject({ code: 0, stderr: '' });
      layout.spawn('embedded', index + 1);
      await layout.waitHealthy();
      expect((await alice.api.get<Branch>(`/repos/${repo.full_name}/branches/main`)).body.commit.id).toBe(
        head,
      );
      git.cleanup();
    },
  );
});
