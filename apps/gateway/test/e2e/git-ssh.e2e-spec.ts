import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreateBranchProtectionOption, DeployKey, Repository } from '@gitforge/contracts';
import { Api, createUser, type TestUser } from './support/api.js';
import { GitCli, gitUrl, type GitResult } from './support/git.js';
import { Layout, layoutsUnderTest, type LayoutKind } from './support/layout.js';
import { createRepo } from './support/repos.js';

const keyDir = mkdtempSync(join(tmpdir(), 'gf-sshkeys-'));
let keyCount = 0;
/** A key pair from the real ssh-keygen: the private key's file and the public key line. */
function sshKeygen(type: 'ed25519' | 'rsa' = 'ed25519'): { file: string; publicKey: string } {
  keyCount += 1;
  const file = join(keyDir, `k${keyCount}`);
  execFileSync('ssh-keygen', ['-q', '-t', type, '-N', '', '-C', `ssh-e2e${keyCount}`, '-f', file]);
  return { file, publicKey: readFileSync(`${file}.pub`, 'utf8').trim() };
}
afterAll(() => rmSync(keyDir, { recursive: true, force: true }));

/** The port and host of an `ssh://git@host:port/…` URL. */
function sshTarget(sshUrl: string): { host: string; port: number } {
  const u = new URL(sshUrl);
  return { host: u.hostname, port: Number(u.port) };
}

/** OpenSSH options: only the given key, and the server's host key pinned (no trust on first use). */
function sshOptions(key: string, knownHosts: string): string[] {
  return [
    '-F',
    '/dev/null',
    '-i',
    key,
    '-o',
    'IdentitiesOnly=yes',
    '-o',
    'BatchMode=yes',
    '-o',
    `UserKnownHostsFile=${knownHosts}`,
    '-o',
    'StrictHostKeyChecking=yes',
  ];
}

/** The real `ssh` CLI with a command line, as a client sends it. */
function ssh(key: string, knownHosts: string, url: string, command: string[]): Promise<GitResult> {
  const { host, port } = sshTarget(url);
  return new Promise((resolve, reject) => {
    const child = spawn(
      'ssh',
      [...sshOptions(key, knownHosts), '-p', String(port), `git@${host}`, ...command],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe.each(layoutsUnderTest())('git over SSH (%s layout)', (kind: LayoutKind) => {
  let layout: Layout;
  let api: Api;
  let git: GitCli;
  let alice: TestUser;
  let bob: TestUser;
  let repo: Repository;
  let other: Repository;
  let knownHosts: string;
  const aliceKey = sshKeygen();
  const bobKey = sshKeygen('rsa');
  const deployKey = sshKeygen();
  const writeDeployKey = sshKeygen();
  const strangerKey = sshKeygen();
  // The distributed layout gets its host key as a secret, as every replica must present the same one.
  const hostKey = sshKeygen();

  const sshEnv = (key: string): Record<string, string> => ({
    GIT_SSH_COMMAND: ['ssh', ...sshOptions(key, knownHosts)].join(' '),
  });

  beforeAll(async () => {
    layout = await Layout.start(
      kind,
      kind === 'distributed' ? { env: { GITFORGE_SSH_HOST_KEY: readFileSync(hostKey.file, 'utf8') } } : {},
    );
    api = new Api(layout);
    git = GitCli.create();
    [alice, bob] = await Promise.all([createUser(api, 'salice'), createUser(api, 'sbob')]);
    [repo, other] = await Promise.all([
      createRepo(alice.api, { auto_init: true }),
      createRepo(alice.api, { auto_init: true }),
    ]);
    expect((await alice.api.post('/user/keys', { title: 'laptop', key: aliceKey.publicKey })).status).toBe(
      201,
    );
    expect((await bob.api.post('/user/keys', { title: 'laptop', key: bobKey.publicKey })).status).toBe(201);
    const ro = await alice.api.post<DeployKey>(`/repos/${alice.username}/${repo.name}/keys`, {
      title: 'ci',
      key: deployKey.publicKey,
      read_only: true,
    });
    expect(ro.status).toBe(201);
    const rw = await alice.api.post<DeployKey>(`/repos/${alice.username}/${repo.name}/keys`, {
      title: 'bot',
      key: writeDeployKey.publicKey,
      read_only: false,
    });
    expect(rw.status).toBe(201);
    // known_hosts pinned to the key the server presents: generated once into the data directory, or the configured one.
    const hostPublic =
      kind === 'distributed'
        ? hostKey.publicKey
        : readFileSync(join(layout.dataDir, 'ssh', 'gitforge_host_ed25519_key.pub'), 'utf8');
    const { host, port } = sshTarget(repo.ssh_url);
    knownHosts = join(git.home, 'known_hosts');
    writeFileSync(knownHosts, `[${host}]:${port} ${hostPublic.split(' ').slice(0, 2).join(' ')}\n`);
  });

  afterAll(async () => {
    git?.cleanup();
    await layout?.stop();
  });

  it('should point ssh_url at the SSH server', () => {
    const { port } = sshTarget(repo.ssh_url);
    expect(repo.ssh_url).toBe(
      `ssh://git@localhost:${layout.env.GITFORGE_SSH_PORT}/${alice.username}/${repo.name}.git`,
    );
    expect(port).toBe(Number(layout.env.GITFORGE_SSH_PORT));
  });

  it('should clone and push with a user key, and speak protocol v2', async () => {
    const dir = git.dir('alice');
    await git.run(['clone', '--quiet', repo.ssh_url, dir], { env: sshEnv(aliceKey.file) });
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain(repo.name);
    const sha = await git.commit(dir, { 'ssh.txt': 'over ssh\n' }, 'pushed over ssh');
    await git.run(['push', '--quiet', 'origin', 'main', 'main:feature'], {
      cwd: dir,
      env: sshEnv(aliceKey.file),
    });
    const branch = await alice.api.get<{ commit: { id: string } }>(
      `/repos/${alice.username}/${repo.name}/branches/feature`,
    );
    expect(branch.body.commit.id).toBe(sha);
    const v2 = await git.run(['-c', 'protocol.version=2', 'ls-remote', repo.ssh_url], {
      env: { ...sshEnv(aliceKey.file), GIT_TRACE_PACKET: '1' },
    });
    expect(v2.stderr).toMatch(/packet:.*< version 2/);
    expect(v2.stdout).toContain(`${sha}\trefs/heads/feature`);
  });

  it('should clone with a read-only deploy key and refuse its push and other repositories', async () => {
    const dir = git.dir('deploy');
    await git.run(['clone', '--quiet', repo.ssh_url, dir], { env: sshEnv(deployKey.file) });
    await git.commit(dir, { 'deploy.txt': 'nope\n' }, 'deploy key push');
    const push = await git.run(['push', 'origin', 'main'], {
      cwd: dir,
      env: sshEnv(deployKey.file),
      allowFailure: true,
    });
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/Gitea: Deploy key \d+ is read-only/);
    const elsewhere = await git.run(['ls-remote', other.ssh_url], {
      env: sshEnv(deployKey.file),
      allowFailure: true,
    });
    expect(elsewhere.code).not.toBe(0);
    expect(elsewhere.stderr).toContain('Gitea: Repository not found');
    // A writable deploy key pushes to its repository.
    const rw = git.dir('deploy-rw');
    await git.run(['clone', '--quiet', repo.ssh_url, rw], { env: sshEnv(writeDeployKey.file) });
    await git.commit(rw, { 'bot.txt': 'bot\n' }, 'bot push');
    await git.run(['push', '--quiet', 'origin', 'HEAD:bot'], { cwd: rw, env: sshEnv(writeDeployKey.file) });
  });

  it('should hand out LFS tokens over SSH only for what the key may do', async () => {
    const path = `'${alice.username}/${repo.name}.git'`;
    const denied = await ssh(deployKey.file, knownHosts, repo.ssh_url, [
      'git-lfs-authenticate',
      path,
      'upload',
    ]);
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toMatch(/Gitea: Deploy key \d+ is read-only/);
    const granted = await ssh(deployKey.file, knownHosts, repo.ssh_url, [
      'git-lfs-authenticate',
      path,
      'download',
    ]);
    expect(granted.code).toBe(0);
    const auth = JSON.parse(granted.stdout) as {
      href: string;
      header: { Authorization: string };
      expires_in: number;
    };
    expect(auth.href).toBe(`${layout.rootUrl}${alice.username}/${repo.name}.git/info/lfs`);
    expect(auth.expires_in).toBeGreaterThan(0);
    const batch = (token: string, operation: string) =>
      fetch(`${auth.href}/objects/batch`, {
        method: 'POST',
        headers: {
          Accept: 'application/vnd.git-lfs+json',
          'Content-Type': 'application/vnd.git-lfs+json',
          Authorization: token,
        },
        body: JSON.stringify({ operation, objects: [{ oid: 'a'.repeat(64), size: 1 }] }),
      });
    const download = await batch(auth.header.Authorization, 'download');
    expect(download.status).toBe(200);
    expect(await download.json()).toMatchObject({ objects: [{ error: { code: 404 } }] });
    // A download token does not upload, and a token is good for its repository only.
    expect((await batch(auth.header.Authorization, 'upload')).status).toBe(401);
    const elsewhere = await fetch(
      `${layout.rootUrl}${alice.username}/${other.name}.git/info/lfs/objects/batch`,
      {
        method: 'POST',
        headers: {
          Accept: 'application/vnd.git-lfs+json',
          'Content-Type': 'application/vnd.git-lfs+json',
          Authorization: auth.header.Authorization,
        },
        body: JSON.stringify({ operation: 'download', objects: [] }),
      },
    );
    expect(elsewhere.status).toBe(404);
    const forged = `${auth.header.Authorization.slice(0, -4)}AAAA`;
    expect((await batch(forged, 'download')).status).toBe(401);
  });

  it('should refuse a push to a protected branch with the same message as over HTTP', async () => {
    const rule = await alice.api.post(`/repos/${alice.username}/${other.name}/branch_protections`, {
      rule_name: 'main',
    } satisfies CreateBranchProtectionOption);
    expect(rule.status).toBe(201);
    const overSsh = git.dir('protected-ssh');
    await git.run(['clone', '--quiet', other.ssh_url, overSsh], { env: sshEnv(aliceKey.file) });
    await git.commit(overSsh, { 'p.txt': 'x\n' }, 'to protected');
    const refusedSsh = await git.run(['push', 'origin', 'main'], {
      cwd: overSsh,
      env: sshEnv(aliceKey.file),
      allowFailure: true,
    });
    const overHttp = git.dir('protected-http');
    await git.run([
      'clone',
      '--quiet',
      gitUrl(layout, alice.username, other.name, [alice.username, alice.password]),
      overHttp,
    ]);
    await git.commit(overHttp, { 'p.txt': 'x\n' }, 'to protected');
    const refusedHttp = await git.run(['push', 'origin', 'main'], { cwd: overHttp, allowFailure: true });
    const lines = (r: GitResult): string[] =>
      r.stderr.split('\n').filter((l) => /remote: Gitea:|remote rejected/.test(l));
    expect(refusedSsh.code).not.toBe(0);
    expect(lines(refusedSsh)).toEqual(
      [
        'remote: Gitea: Not allowed to push to protected branch main        ',
        ' ! [remote rejected] main -> main (pre-receive hook declined: Not allowed to push to protected branch main)',
      ].map((l) => expect.stringContaining(l.trim())),
    );
    expect(lines(refusedSsh).map((l) => l.trim())).toEqual(lines(refusedHttp).map((l) => l.trim()));
  });

  it('should not let a user reach a private repository they cannot read', async () => {
    const secret = await createRepo(alice.api, { private: true, auto_init: true });
    const r = await git.run(['ls-remote', secret.ssh_url], { env: sshEnv(bobKey.file), allowFailure: true });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Gitea: Repository not found');
    const dir = git.dir('bob');
    const push = await git.run(['clone', '--quiet', repo.ssh_url, dir], { env: sshEnv(bobKey.file) });
    expect(push.code).toBe(0);
    await git.commit(dir, { 'bob.txt': 'bob\n' }, 'bob');
    const refused = await git.run(['push', 'origin', 'HEAD:bob'], {
      cwd: dir,
      env: sshEnv(bobKey.file),
      allowFailure: true,
    });
    expect(refused.stderr).toContain('User permission denied for writing');
  });

  it('should refuse other commands, bad paths, shells and unknown keys with a message and a failing status', async () => {
    const url = repo.ssh_url;
    const cases: Array<[string[], string]> = [
      [['sh', '-c', 'id'], 'Gitea: Unknown git command: sh'],
      [['git-upload-pack', "'../../etc'"], 'Gitea: Invalid repository path'],
      [['git-upload-pack', `'${alice.username}/../x'`], 'Gitea: Invalid repository path'],
      [['git-upload-pack', '--help'], 'Gitea: Invalid repository path'],
      [['git-receive-pack', `'${alice.username}/${repo.name}.git'`, '--strict'], 'Gitea: Too many arguments'],
    ];
    for (const [command, message] of cases) {
      const r = await ssh(aliceKey.file, knownHosts, url, command);
      expect({ command, code: r.code === 0 ? 0 : 'failed', stderr: r.stderr.trim() }).toEqual({
        command,
        code: 'failed',
        stderr: message,
      });
    }
    const shell = await ssh(aliceKey.file, knownHosts, url, ['-T']);
    expect(shell.code).not.toBe(0);
    expect(shell.stderr).toContain('does not provide shell access');
    const stranger = await ssh(strangerKey.file, knownHosts, url, [
      'git-upload-pack',
      `'${alice.username}/${repo.name}.git'`,
    ]);
    expect(stranger.code).not.toBe(0);
    expect(stranger.stderr).toContain('Permission denied (publickey)');
  });

  it('should refuse a user who may not sign in', async () => {
    const carol = await createUser(api, 'scarol');
    const key = sshKeygen();
    expect((await carol.api.post('/user/keys', { title: 'k', key: key.publicKey })).status).toBe(201);
    const ok = await git.run(['ls-remote', repo.ssh_url], { env: sshEnv(key.file) });
    expect(ok.code).toBe(0);
    expect(
      (
        await api.admin.patch(`/admin/users/${carol.username}`, {
          login_name: carol.username,
          source_id: 0,
          prohibit_login: true,
        })
      ).status,
    ).toBe(200);
    const refused = await git.run(['ls-remote', repo.ssh_url], { env: sshEnv(key.file), allowFailure: true });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Gitea: Your account is disabled.');
  });
});
