import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createLogger } from '@gitforge/platform';
import type { RefUpdate } from '../protections/push-policy.js';
import { RepoServiceConfig } from '../repo.config.js';

const log = createLogger('push-hooks');

/** What a hook answers git: success, and lines for the client's `remote:` output. */
export interface HookAnswer {
  ok: boolean;
  messages: string[];
}

/** The callbacks of one running receive-pack. */
export interface PushHookHandlers {
  /** Before any ref moves; `objects` is the environment that sees the quarantined objects. */
  preReceive(updates: RefUpdate[], objects: Record<string, string>): Promise<HookAnswer>;
  /** After git moved the refs it accepted. */
  postReceive(updates: RefUpdate[]): Promise<HookAnswer>;
}

/**
 * The hooks git runs are two tiny scripts shared by every repository (`core.hooksPath`) that run
 * hook-client.ts: it hands the ref updates to this process over a loopback HTTP call
 * authenticated by a token that names one push, and turns the answer into git's exit status and
 * `remote:` lines.
 */
const HOOK_SCRIPT = (name: string): string => `#!/bin/sh
exec "$GITFORGE_NODE" "$GITFORGE_HOOK_CLIENT" ${name}
`;

/** The hook program itself, compiled beside this file (see hook-client.ts). */
const HOOK_CLIENT_PATH = fileURLToPath(new URL('./hook-client.js', import.meta.url));

const MAX_HOOK_BODY = 32 * 1024 * 1024;

/** Parses git's hook input: one `<old> <new> <ref>` line per updated ref. */
export function parseRefUpdates(input: string): RefUpdate[] {
  return input
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      const [oldSha = '', newSha = '', ref = ''] = line.split(' ');
      return { oldSha, newSha, ref };
    })
    .filter((u) => /^[0-9a-f]{40,64}$/.test(u.oldSha) && /^[0-9a-f]{40,64}$/.test(u.newSha) && u.ref.length > 0);
}

@Injectable()
export class PushHooks implements OnApplicationShutdown {
  readonly hooksPath: string;
  private readonly sessions = new Map<string, PushHookHandlers>();
  private server: Server | undefined;
  private url: Promise<string> | undefined;

  constructor(config: RepoServiceConfig) {
    this.hooksPath = resolve(config.GITFORGE_DATA_DIR, 'git-hooks');
  }

  /** Registers one push; answers the environment its receive-pack needs (and a release function). */
  async open(handlers: PushHookHandlers): Promise<{ env: Record<string, string>; close: () => void }> {
    // A failed start (say, an unwritable hooks directory) is retried by the next push.
    const url = await (this.url ??= this.start().catch((err: unknown) => {
      this.url = undefined;
      throw err;
    }));
    const token = randomBytes(32).toString('hex');
    this.sessions.set(token, handlers);
    return {
      env: {
        GITFORGE_NODE: process.execPath,
        GITFORGE_HOOK_CLIENT: HOOK_CLIENT_PATH,
        GITFORGE_HOOK_URL: url,
        GITFORGE_HOOK_TOKEN: token,
      },
      close: () => this.sessions.delete(token),
    };
  }

  private async start(): Promise<string> {
    await mkdir(this.hooksPath, { recursive: true });
    // Replicas sharing the volume write the same bytes; a rename keeps readers from seeing half a file.
    const files: Array<[string, string]> = [
      ['pre-receive', HOOK_SCRIPT('pre-receive')],
      ['post-receive', HOOK_SCRIPT('post-receive')],
    ];
    for (const [name, content] of files) {
      const tmp = resolve(this.hooksPath, `.${name}.${process.pid}.tmp`);
      await writeFile(tmp, content);
      await chmod(tmp, 0o755);
      await rename(tmp, resolve(this.hooksPath, name));
    }
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(0, '127.0.0.1', () => ok());
    });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const answer = (status: number, body: HookAnswer): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const token = /^Bearer ([0-9a-f]{64})$/.exec(req.headers.authorization ?? '')?.[1];
    const handlers = token ? this.sessions.get(token) : undefined;
    if (req.method !== 'POST' || !handlers) return answer(403, { ok: false, messages: [] });
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_HOOK_BODY) return answer(413, { ok: false, messages: [] });
        chunks.push(chunk);
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { hook?: string; input?: string; env?: Record<string, string> };
      const updates = parseRefUpdates(body.input ?? '');
      if (body.hook === 'pre-receive') return answer(200, await handlers.preReceive(updates, body.env ?? {}));
      if (body.hook === 'post-receive') return answer(200, await handlers.postReceive(updates));
      return answer(400, { ok: false, messages: [] });
    } catch (err) {
      log.error({ err }, 'push hook failed');
      return answer(500, { ok: false, messages: ['Gitea: internal error while checking the push'] });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (server) await new Promise<void>((ok) => server.close(() => ok()));
  }
}
