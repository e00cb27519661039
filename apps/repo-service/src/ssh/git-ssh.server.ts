import { finished } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { UserKeyPatterns, type Actor, type SshKeyOwner } from '@gitforge/contracts';
import {
  actorOf,
  createLogger,
  DirectoryClient,
  internalSecret,
  RpcClient,
  settleWithin,
  sshFingerprint,
} from '@gitforge/platform';
import ssh2 from 'ssh2';
import type { RepoContext } from '../access/repo-access.service.js';
import { GitService, type GitHttpService } from '../git/git.service.js';
import { LFS_TOKEN_TTL_MS, signLfsToken } from '../lfs/lfs-token.js';
import { RepoServiceConfig } from '../repo.config.js';
import { GitAccess } from '../smart-http/git-access.js';
import { collect, exitOf, signalGroup } from '../smart-http/git-process.js';
import { ReportStatusRewriter } from '../smart-http/pkt-line.js';
import { PushSessions } from '../smart-http/push-sessions.js';
import { hostPublicKey, loadHostKey } from './host-key.js';
import { parseSshCommand, type SshCommand } from './ssh-command.js';

const log = createLogger('ssh');

/** The only login the server accepts, as in `git@host:owner/repo.git` (Gitea's SSH_USER). */
export const SSH_USER = 'git';
/** Gitea's check of GIT_PROTOCOL (key=value pairs joined by colons), the same as smart HTTP's Git-Protocol header. */
const SAFE_GIT_PROTOCOL = /^[0-9a-zA-Z]+=[0-9a-zA-Z]+(:[0-9a-zA-Z]+=[0-9a-zA-Z]+)*$/;

/** Who an authenticated connection is: a user (maybe one who may not sign in) or a deploy key. */
type Principal =
  | { kind: 'user'; keyId: number; actor: Actor; active: boolean }
  | { kind: 'deploy'; keyId: number; uses: Extract<SshKeyOwner, { kind: 'deploy' }>['repositories'] };

interface Target {
  ctx: RepoContext;
  actor: Actor | null;
  deployKeyId?: number;
}

/**
 * git over SSH (ssh2), in repo-service beside the repositories: clones and pushes run the same
 * `git upload-pack` / `receive-pack` as smart HTTP, with the same GitAccess verdicts, the same
 * push hooks (PushSessions: protection in pre-receive, events and housekeeping in post-receive)
 * and the same refusal sentences. Keys are users' keys (org-service) and deploy keys (here);
 * only the git services and `git-lfs-authenticate` run, never a shell.
 */
@Injectable()
export class GitSshServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: ssh2.Server | undefined;
  private readonly secret: string;
  private readonly connections = new Set<ssh2.Connection>();

  constructor(
    private readonly config: RepoServiceConfig,
    private readonly rpc: RpcClient,
    private readonly directory: DirectoryClient,
    private readonly gitAccess: GitAccess,
    private readonly git: GitService,
    private readonly pushSessions: PushSessions,
  ) {
    this.secret = internalSecret(config);
  }

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.GITFORGE_SSH_PORT;
    if (port === 0) return;
    const hostKey = await loadHostKey(this.config.GITFORGE_DATA_DIR, this.config.GITFORGE_SSH_HOST_KEY);
    const server = new ssh2.Server(
      // Keepalives find clients that vanished without closing (about a minute).
      { hostKeys: [hostKey], ident: 'gitforge', keepaliveInterval: 15_000, keepaliveCountMax: 4 },
      (client, info) => this.connection(client, info.ip),
    );
    server.on('error', (err: Error) => log.warn({ err }, 'SSH server error'));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.GITFORGE_SSH_HOST, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    log.info(
      { port, host: this.config.GITFORGE_SSH_HOST, hostKey: hostPublicKey(hostKey) },
      'git SSH server ready',
    );
  }

  /**
   * Takes no new connection; clones and pushes in flight finish within the shutdown grace
   * (`GITFORGE_SHUTDOWN_GRACE_MS`), as over HTTP, and only connections still open after it are ended.
   */
  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    const closed = new Promise<void>((ok) => server.close(() => ok()));
    if (!(await settleWithin(closed, this.config.GITFORGE_SHUTDOWN_GRACE_MS))) {
      log.warn({ connections: this.connections.size }, 'SSH connections still open after the shutdown grace; ending them');
      for (const c of this.connections) c.end();
      await closed;
    }
  }

  private connection(client: ssh2.Connection, ip: string): void {
    this.connections.add(client);
    let principal: Principal | undefined;
    client.on('close', () => this.connections.delete(client));
    client.on('error', (err: Error) => log.debug({ err, ip }, 'SSH connection error'));
    client.on('authentication', (ctx) => {
      this.authenticate(ctx).then(
        (p) => {
          if (!p) return ctx.reject(['publickey']);
          // A probe (no signature yet) is answered "this key would do"; the signed attempt logs in.
          if (ctx.method === 'publickey' && ctx.signature) principal = p;
          ctx.accept();
        },
        (err: unknown) => {
          log.warn({ err, ip }, 'SSH key lookup failed');
          ctx.reject(['publickey']);
        },
      );
    });
    client.on('ready', () => {
      client.on('session', (accept) => {
        const session = accept();
        const env: Record<string, string> = {};
        session.on('env', (ok, _reject, info) => {
          if (info.key === 'GIT_PROTOCOL' && SAFE_GIT_PROTOCOL.test(info.val)) env.GIT_PROTOCOL = info.val;
          ok?.();
        });
        session.on('pty', (ok) => ok?.());
        session.on('shell', (ok) => {
          const login = principal?.kind === 'user' ? principal.actor.login : 'deploy key';
          refuse(
            ok(),
            `Hi there, ${login}! You've successfully authenticated, but Gitea does not provide shell access.`,
          );
        });
        session.on('subsystem', (_ok, reject) => reject?.());
        session.on('exec', (ok, _reject, info) => {
          const channel = ok();
          this.exec(channel, principal!, info.command, { ...env }).catch((err: unknown) => {
            log.error({ err }, 'SSH command failed');
            refuse(channel, 'Gitea: Internal Server Error');
          });
        });
      });
    });
  }

  /** The key's owner if the key is known and (when signed) the signature is good; null otherwise. */
  private async authenticate(ctx: ssh2.AuthContext): Promise<Principal | null> {
    if (ctx.method !== 'publickey' || ctx.username !== SSH_USER) return null;
    const fingerprint = sshFingerprint(ctx.key.data);
    const owner = await this.rpc.call<SshKeyOwner | null, Record<string, string>, { fingerprint: string }>(
      UserKeyPatterns.owner,
      {
        actor: null,
        body: { fingerprint },
      },
    );
    if (!owner) return null;
    const stored = ssh2.utils.parseKey(owner.content);
    if (stored instanceof Error || Array.isArray(stored) || !stored.getPublicSSH().equals(ctx.key.data))
      return null;
    if (ctx.signature && stored.verify(ctx.blob!, ctx.signature, ctx.hashAlgo) !== true) return null;
    if (owner.kind === 'deploy') return { kind: 'deploy', keyId: owner.keyId, uses: owner.repositories };
    const [account] = await this.directory.accountsByIds(null, [owner.userId]);
    if (!account || account.kind !== 'user') return null;
    return { kind: 'user', keyId: owner.keyId, actor: actorOf(account), active: account.isActive };
  }

  private async exec(
    channel: ssh2.ServerChannel,
    principal: Principal,
    line: string,
    env: Record<string, string>,
  ): Promise<void> {
    const parsed = parseSshCommand(line);
    if (!parsed.ok) return refuse(channel, `Gitea: ${parsed.message}`);
    if (principal.kind === 'user' && !principal.active)
      return refuse(channel, 'Gitea: Your account is disabled.');
    const command = parsed.command;
    const service: GitHttpService =
      command.kind === 'git'
        ? command.service
        : command.operation === 'upload'
          ? 'receive-pack'
          : 'upload-pack';
    const target = await this.target(principal, command, service);
    if ('message' in target) return refuse(channel, `Gitea: ${target.message}`);
    if (command.kind === 'lfs-authenticate') return this.lfsAuthenticate(channel, target, command);
    return this.serve(channel, target, service, env);
  }

  /** GitAccess's verdict for this key, following a renamed repository to where it is now. */
  private async target(
    principal: Principal,
    command: SshCommand,
    service: GitHttpService,
  ): Promise<Target | { message: string }> {
    if (principal.kind === 'deploy') {
      const verdict = await this.gitAccess.checkDeployKey(
        principal.uses,
        command.owner,
        command.repo,
        service,
      );
      return verdict.ok
        ? { ctx: verdict.ctx, actor: verdict.actor, deployKeyId: verdict.deployKeyId }
        : { message: verdict.message };
    }
    let verdict = await this.gitAccess.check(principal.actor, command.owner, command.repo, service);
    if (!verdict.ok && verdict.moved)
      verdict = await this.gitAccess.check(
        principal.actor,
        verdict.moved.to_owner,
        verdict.moved.to_repo,
        service,
      );
    if (!verdict.ok)
      return {
        message: verdict.status === 404 || verdict.status === 307 ? 'Repository not found' : verdict.message,
      };
    // LFS uploads need write access up front (a push is decided per ref by its hook instead).
    if (
      command.kind === 'lfs-authenticate' &&
      command.operation === 'upload' &&
      !verdict.ctx.permission.canWrite('repo.code')
    ) {
      return { message: 'User permission denied for writing' };
    }
    return { ctx: verdict.ctx, actor: principal.actor };
  }

  /** Gitea's `git-lfs-authenticate`: the LFS endpoint and a short-lived token for it, as JSON on stdout. */
  private lfsAuthenticate(
    channel: ssh2.ServerChannel,
    target: Target,
    command: Extract<SshCommand, { kind: 'lfs-authenticate' }>,
  ): void {
    const token = signLfsToken(this.secret, {
      repoId: target.ctx.repo.id,
      op: command.operation,
      ...(target.deployKeyId !== undefined
        ? { deployKeyId: target.deployKeyId }
        : { userId: target.actor!.id }),
      exp: Date.now() + LFS_TOKEN_TTL_MS,
    });
    const ownerLogin = target.ctx.owner.owner.login;
    const answer = {
      header: { Authorization: `Bearer ${token}` },
      href: `${this.config.rootUrl}${encodeURIComponent(ownerLogin)}/${encodeURIComponent(target.ctx.repo.name)}.git/info/lfs`,
      expires_in: LFS_TOKEN_TTL_MS / 1000,
    };
    channel.write(`${JSON.stringify(answer)}\n`);
    channel.exit(0);
    channel.end();
  }

  /** Runs the git service full duplex on the channel; a push goes through the shared hooks. */
  private async serve(
    channel: ssh2.ServerChannel,
    target: Target,
    service: GitHttpService,
    env: Record<string, string>,
  ): Promise<void> {
    const repoId = target.ctx.repo.id;
    const push =
      service === 'receive-pack' && target.actor
        ? await this.pushSessions.open({
            ...target.ctx,
            actor: target.actor,
            deployKeyId: target.deployKeyId,
          })
        : undefined;
    const child = this.git.spawnService(repoId, service, {
      duplex: true,
      env: { ...env, ...(push?.env ?? {}) },
      hooksPath: push?.hooksPath,
    });
    const exited = exitOf(child);
    const stderr = collect(child.stderr!);
    const output: Readable = push
      ? child.stdout!.pipe(
          new ReportStatusRewriter((ref) => push.rejections.get(ref), { advertisementFirst: true }),
        )
      : child.stdout!;
    child.stdin!.on('error', () => undefined);
    channel.on('error', () => signalGroup(child, 'SIGTERM'));
    channel.on('close', () => signalGroup(child, 'SIGTERM'));
    channel.pipe(child.stdin!);
    output.pipe(channel, { end: false });
    // As smart HTTP: a clone or push with no bytes moving either way for GITFORGE_GIT_IDLE_TIMEOUT_MS is cut off.
    let lastActivity = Date.now();
    const touch = (): void => {
      lastActivity = Date.now();
    };
    channel.on('data', touch);
    output.on('data', touch);
    const idleMs = this.config.GITFORGE_GIT_IDLE_TIMEOUT_MS;
    const idle = setInterval(
      () => {
        if (Date.now() - lastActivity <= idleMs) return;
        log.info({ repoId, service }, 'SSH git session idle: cut off');
        signalGroup(child, 'SIGTERM');
        channel.close();
      },
      Math.max(250, Math.floor(idleMs / 4)),
    );
    try {
      const code = await exited;
      await finished(output).catch(() => undefined);
      if (code !== 0) log.warn({ repoId, service, code, stderr: stderr() }, 'git exited with an error');
      channel.exit(code ?? 1);
      channel.end();
    } finally {
      clearInterval(idle);
      push?.close();
    }
  }
}

/** A refusal: the sentence on stderr and a failing exit status; the channel closes. */
function refuse(channel: ssh2.ServerChannel, message: string): void {
  channel.stderr.write(`${message}\n`);
  channel.exit(1);
  channel.end();
}
