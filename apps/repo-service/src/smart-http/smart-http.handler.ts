import type { ChildProcess } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGunzip, gunzip } from 'node:zlib';
import { Injectable } from '@nestjs/common';
import { GitHttp, type Actor } from '@gitforge/contracts';
import { createLogger, decodePathSegment, drainRequest, internalSecret, readBody, requestHeader, SIGNED_ACTOR_HEADER, verifyActor } from '@gitforge/platform';
import type { RepoContext } from '../access/repo-access.service.js';
import { GitService, type GitHttpService } from '../git/git.service.js';
import { RepoServiceConfig } from '../repo.config.js';
import { AdvertisementCache, isProtocolV2, MAX_ADVERTISEMENT_BYTES } from './advertisement-cache.js';
import { GitAccess } from './git-access.js';
import { pkt, ReportStatusRewriter } from './pkt-line.js';
import { bytesWritten, collect, exitOf, signalGroup, signalLater, writeWatch } from './git-process.js';
import { PushSessions } from './push-sessions.js';
import { WriteCoalescer } from './write-coalescer.js';

const log = createLogger('smart-http');

/** Gitea's check of the `Git-Protocol` header (key=value pairs joined by colons) before it becomes GIT_PROTOCOL. */
const SAFE_GIT_PROTOCOL = /^[0-9a-zA-Z]+=[0-9a-zA-Z]+(:[0-9a-zA-Z]+=[0-9a-zA-Z]+)*$/;
const ROUTE = /^\/([^/]+)\/([^/]+)\/(info\/refs|git-upload-pack|git-receive-pack)$/;
const NO_CACHE = { Expires: 'Fri, 01 Jan 1980 00:00:00 GMT', Pragma: 'no-cache', 'Cache-Control': 'no-cache, max-age=0, must-revalidate' };
/** How long a finished answer waits for the rest of a request body that git did not read. */
const DRAIN_MS = 5_000;
const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Request Entity Too Large' };

/**
 * The largest upload-pack request read whole before git starts, so that git can write its answer
 * to the connection itself ({@link SmartHttpHandler.serveDirect}): git sends a request that fits
 * its http.postBuffer (1 MiB by default) with a Content-Length, and larger ones chunked.
 */
const DIRECT_BODY_MAX_BYTES = 1024 * 1024;
/**
 * The most such a gzip body may inflate to in memory; a larger one (a negotiation with a great
 * many haves, or a gzip bomb) is inflated as it streams into git instead, as any other body is.
 */
const DIRECT_INFLATED_MAX_BYTES = 4 * 1024 * 1024;

class BodyTooLarge extends Error {}
class BodyIdle extends Error {}

const gunzipAsync = promisify(gunzip);

/** zlib's answer to a body that inflates past `maxOutputLength`. */
const isInflatedTooLarge = (err: unknown): boolean => (err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';

/** `body` inflated to at most `max` bytes; null when it inflates past that and the caller can stream it instead. */
async function inflate(body: Buffer, max: number, canStream: boolean): Promise<Buffer | null> {
  try {
    return await gunzipAsync(body, { maxOutputLength: max });
  } catch (err) {
    if (canStream && isInflatedTooLarge(err)) return null;
    throw err;
  }
}

const isZlibError = (err: unknown): boolean => typeof (err as { code?: unknown }).code === 'string' && (err as { code: string }).code.startsWith('Z_');

/** Counts request bytes (after gzip decoding) and stops at the limit. */
class ByteLimit extends Transform {
  private seen = 0;
  constructor(
    private readonly max: number,
    private readonly onBytes: () => void,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    this.onBytes();
    if (this.seen > this.max) callback(new BodyTooLarge());
    else callback(null, chunk);
  }
}

function plain(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers }).end(`${message}\n`);
}

/**
 * repo-service's side of smart HTTP: the gateway has authenticated the caller and signed it into
 * a header; this checks access, runs `git upload-pack` / `git receive-pack --stateless-rpc` and
 * streams bytes both ways with backpressure (never a whole pack in memory). A push is checked
 * ref by ref in git's pre-receive hook, before anything is written, and recorded after.
 */
@Injectable()
export class SmartHttpHandler {
  private readonly secret: string;
  private readonly advertisements: AdvertisementCache;

  constructor(
    private readonly config: RepoServiceConfig,
    private readonly gitAccess: GitAccess,
    private readonly git: GitService,
    private readonly pushSessions: PushSessions,
  ) {
    this.secret = internalSecret(config);
    this.advertisements = new AdvertisementCache(git.home, git.bin, git.searchPath);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.route(req, res);
    } catch (err) {
      log.error({ err, url: req.url }, 'smart HTTP request failed');
      plain(res, 500, 'Internal Server Error');
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://repo-service');
    const m = ROUTE.exec(url.pathname);
    if (!m) return plain(res, 404, 'Not found');
    const verified = verifyActor(this.secret, requestHeader(req, SIGNED_ACTOR_HEADER), `${req.method} ${url.pathname}`);
    if (!verified.ok) return plain(res, 403, 'Forbidden');
    const advertise = m[3] === 'info/refs';
    if (advertise ? req.method !== 'GET' : req.method !== 'POST') return plain(res, 405, 'Method Not Allowed');
    const service = advertise ? url.searchParams.get('service') : m[3]!;
    if (service !== 'git-upload-pack' && service !== 'git-receive-pack') return plain(res, 400, 'Bad Request');
    const svc = service.slice('git-'.length) as GitHttpService;
    const owner = decodePathSegment(m[1]!);
    const repo = decodePathSegment(m[2]!)?.replace(/\.git$/, '');
    if (!owner || !repo) return plain(res, 404, 'Not found');

    const verdict = await this.gitAccess.check(verified.actor, owner, repo, svc);
    if (!verdict.ok && verdict.moved) {
      // git follows a redirect of its first request (info/refs) and talks to the new place after.
      const to = `/${encodeURIComponent(verdict.moved.to_owner)}/${encodeURIComponent(verdict.moved.to_repo)}${m[2]!.endsWith('.git') ? '.git' : ''}`;
      return plain(res, verdict.status, verdict.message, { Location: `${to}/${m[3]!}${url.search}` });
    }
    if (!verdict.ok) return plain(res, verdict.status, verdict.message, verdict.headers);
    const protocol = requestHeader(req, 'git-protocol');
    const env: Record<string, string> = protocol && SAFE_GIT_PROTOCOL.test(protocol) ? { GIT_PROTOCOL: protocol } : {};
    if (advertise) return this.advertise(verdict.ctx, svc, env, res);
    if (requestHeader(req, 'content-type') !== `application/x-git-${svc}-request`) return plain(res, 400, 'Bad Request');
    const length = Number(requestHeader(req, 'content-length') ?? 0);
    if (length > this.config.GITFORGE_GIT_MAX_BODY_BYTES) {
      res.once('finish', () => drainRequest(req));
      return plain(res, 413, 'Request Entity Too Large');
    }
    if (svc === 'upload-pack' && writeWatch.usable && requestHeader(req, 'content-length') !== undefined && length <= DIRECT_BODY_MAX_BYTES) {
      return this.serveDirect(req, res, verdict.ctx, verified.actor, env);
    }
    return this.serve(req, res, verdict.ctx, verified.actor, svc, env);
  }

  /**
   * `POST git-upload-pack` with a small body of known size (a clone's or fetch's negotiation):
   * the body is read first, then git writes its answer, the pack, to the connection itself.
   * Passed through this process, a full clone of 20k commits cost it about 70 ms of CPU, more
   * than git spent making the pack; now about 15. The answer ends with the connection (this hop
   * serves one request per connection). With the body in hand before git starts, a bad one still
   * gets its status; a git that writes nothing for the idle timeout (its client stopped reading)
   * is seen in the bytes it has written, and stopped.
   */
  private async serveDirect(req: IncomingMessage, res: ServerResponse, ctx: RepoContext, actor: Actor | null, env: Record<string, string>): Promise<void> {
    const repoId = ctx.repo.id;
    const idleMs = this.config.GITFORGE_GIT_IDLE_TIMEOUT_MS;
    const maxBody = this.config.GITFORGE_GIT_MAX_BODY_BYTES;
    let received: Buffer;
    let body: Buffer | null;
    try {
      received = await readBody(req, { idleMs, idle: () => new BodyIdle() });
      body = requestHeader(req, 'content-encoding') === 'gzip' ? await inflate(received, Math.min(maxBody, DIRECT_INFLATED_MAX_BYTES), maxBody > DIRECT_INFLATED_MAX_BYTES) : received;
    } catch (err) {
      // A body that says it is gzip and is not: Gitea answers 400.
      const status = err instanceof BodyIdle ? 408 : isZlibError(err) ? 400 : isInflatedTooLarge(err) ? 413 : undefined;
      if (status === undefined) return void res.destroy();
      return plain(res, status, STATUS_TEXT[status]!, { Connection: 'close' });
    }
    if (!body) return this.serve(req, res, ctx, actor, 'upload-pack', env, received);
    const socket = res.socket;
    if (!socket || socket.destroyed) return;
    res.shouldKeepAlive = false;
    res.useChunkedEncodingByDefault = false;
    res.writeHead(200, { 'Content-Type': 'application/x-git-upload-pack-result' });
    res.flushHeaders();
    // git's first bytes must follow the head on the wire: an empty write's callback comes once the head is out.
    await new Promise<void>((resolve) => {
      socket.once('close', resolve);
      socket.write(Buffer.alloc(0), () => resolve());
    });
    if (socket.destroyed) return;

    const child = this.git.spawnService(repoId, 'upload-pack', { env, stdout: socket });
    // Handing the socket to git stops this process reading it, and a client that goes away then
    // shows only when git next writes, which can be seconds away (deflating a large blob). Read on:
    // nothing more is due on this connection, so the gateway's close shows here at once.
    socket.resume();
    const stderr = collect(child.stderr!);
    const exited = exitOf(child);
    // git stops reading a body it cannot use, and answers anyway.
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(body);
    let aborted: string | undefined;
    const abort = (why: string): void => {
      if (aborted || child.exitCode !== null) return;
      aborted = why;
      log.info({ repoId, svc: 'upload-pack', why }, 'smart HTTP request aborted');
      signalGroup(child, 'SIGTERM');
      signalLater(child, exited, [[10_000, 'SIGKILL']]);
      // A reset, not an end: the answer is delimited by the connection's end, and must not look complete.
      socket.resetAndDestroy();
    };
    let written = bytesWritten(child.pid);
    let lastActivity = Date.now();
    const idle = setInterval(() => {
      const now = bytesWritten(child.pid);
      if (now === undefined && child.exitCode === null && child.signalCode === null) {
        // This git's progress cannot be seen: it is not cut off for idleness, and later answers stream through here.
        writeWatch.usable = false;
        lastActivity = Date.now();
      } else if (now !== written) {
        written = now;
        lastActivity = Date.now();
      } else if (Date.now() - lastActivity > idleMs) abort('idle');
    }, Math.max(250, Math.floor(idleMs / 4)));
    // The gateway closing this hop (its client went away) closes the socket, read above. Its
    // end comes first: Node would answer it with an orderly end of the socket git writes to, and
    // a pack cut off that way would look complete; a reset says it is not.
    socket.prependListener('end', () => abort('client went away'));
    res.on('close', () => {
      if (!res.writableFinished) abort('client went away');
    });
    try {
      const code = await exited;
      if (code !== 0 && !aborted) log.warn({ repoId, svc: 'upload-pack', code, stderr: stderr() }, 'git exited with an error');
    } finally {
      clearInterval(idle);
    }
    if (!aborted) res.end();
  }

  /** `GET info/refs?service=…`: the `# service=` line, a flush, then git's own advertisement. */
  private async advertise(ctx: RepoContext, svc: GitHttpService, env: Record<string, string>, res: ServerResponse): Promise<void> {
    const head = (): void => {
      res.writeHead(200, { 'Content-Type': `application/x-git-${svc}-advertisement`, ...NO_CACHE });
      res.write(pkt(`# service=git-${svc}\n`));
      res.write('0000');
    };
    // Protocol v2's upload-pack advertisement holds no refs: it is kept (AdvertisementCache).
    const repoPath = this.git.repoPath(ctx.repo.id);
    const cached = svc === 'upload-pack' && isProtocolV2(env.GIT_PROTOCOL) ? await this.advertisements.get(repoPath) : undefined;
    if (cached?.bytes) {
      head();
      res.end(cached.bytes);
      return;
    }
    const child = this.git.spawnService(ctx.repo.id, svc, { advertise: true, env });
    const stderr = collect(child.stderr!);
    child.stdin!.end();
    head();
    const exited = exitOf(child);
    res.on('close', () => {
      if (!res.writableFinished) signalGroup(child, 'SIGTERM');
    });
    const kept: Buffer[] = [];
    let keptBytes = 0;
    if (cached) {
      child.stdout!.on('data', (b: Buffer) => {
        keptBytes += b.length;
        if (keptBytes <= MAX_ADVERTISEMENT_BYTES) kept.push(b);
      });
    }
    let streamed = true;
    try {
      await pipeline(child.stdout!, res);
    } catch {
      streamed = false;
      signalGroup(child, 'SIGTERM');
    }
    const code = await exited;
    if (code !== 0) log.warn({ repoId: ctx.repo.id, svc, code, stderr: stderr() }, 'ref advertisement failed');
    else if (cached && streamed && keptBytes <= MAX_ADVERTISEMENT_BYTES) await this.advertisements.set(repoPath, cached.key, Buffer.concat(kept));
  }

  /** `POST git-upload-pack` / `git-receive-pack`: the request body into git, git's answer back. */
  private async serve(
    req: IncomingMessage,
    res: ServerResponse,
    ctx: RepoContext,
    actor: Actor | null,
    svc: GitHttpService,
    env: Record<string, string>,
    received?: Buffer,
  ): Promise<void> {
    const repoId = ctx.repo.id;
    // GitAccess never lets an anonymous push through; without an actor there would be no hook to check it.
    if (svc === 'receive-pack' && !actor) return plain(res, 401, 'Unauthorized', { 'WWW-Authenticate': GitHttp.challenge });
    const push = svc === 'receive-pack' && actor ? await this.pushSessions.open({ ...ctx, actor }) : undefined;
    const child = this.git.spawnService(repoId, svc, {
      env: { ...env, ...(push?.env ?? {}) },
      hooksPath: push?.hooksPath,
    });
    const stderr = collect(child.stderr!);
    const exited = exitOf(child);
    res.statusCode = 200;
    res.setHeader('Content-Type', `application/x-git-${svc}-result`);

    let lastActivity = Date.now();
    const touch = (): void => {
      lastActivity = Date.now();
    };
    let aborted: string | undefined;
    const rejections = push?.rejections;
    const output: Readable = rejections
      ? child.stdout!.pipe(new ReportStatusRewriter((ref) => rejections.get(ref)))
      : child.stdout!.pipe(new WriteCoalescer());
    const abort = (why: string, status?: number): void => {
      if (aborted || child.exitCode !== null) return;
      aborted = why;
      log.info({ repoId, svc, why }, 'smart HTTP request aborted');
      // End of input: a push then fails to unpack and removes its quarantine directory itself.
      // Signals are only the fallback: a signal can race a child that is still writing objects.
      child.stdin!.destroy();
      output.unpipe(res);
      if (svc === 'upload-pack') {
        signalGroup(child, 'SIGTERM');
        child.stdout!.destroy();
        output.destroy();
      } else {
        // receive-pack still writes its report; let it drain so it never blocks on a full pipe.
        child.stdout!.unpipe();
        child.stdout!.resume();
      }
      signalLater(child, exited, [
        [10_000, 'SIGTERM'],
        [20_000, 'SIGKILL'],
      ]);
      if (status && !res.headersSent) plain(res, status, STATUS_TEXT[status] ?? 'Bad Request', { Connection: 'close' });
      else res.destroy();
    };
    const idleMs = this.config.GITFORGE_GIT_IDLE_TIMEOUT_MS;
    const idle = setInterval(() => {
      if (Date.now() - lastActivity > idleMs) abort('idle', 408);
    }, Math.max(250, Math.floor(idleMs / 4)));
    res.on('close', () => {
      if (!res.writableFinished) abort('client went away');
    });

    const input = this.feed(req, received, child, touch, abort);

    output.on('data', touch);
    output.on('error', () => abort('git output failed'));
    // git may finish before the client has sent its whole body (it stopped reading). Closing the
    // connection then would reset it with unread data, and the client would never read the answer;
    // so the answer ends once the body is drained, or after DRAIN_MS at the latest.
    output.pipe(res, { end: false });
    output.on('end', () => {
      if (req.complete || req.destroyed) return void res.end();
      const late = setTimeout(() => res.end(), DRAIN_MS);
      req.once('close', () => {
        clearTimeout(late);
        res.end();
      });
      req.once('end', () => {
        clearTimeout(late);
        res.end();
      });
    });

    try {
      const code = await exited;
      await input;
      if (code !== 0 && !aborted) log.warn({ repoId, svc, code, stderr: stderr() }, 'git exited with an error');
    } finally {
      clearInterval(idle);
      push?.close();
    }
  }

  /**
   * Streams the request body (gunzipped when it says so) into git, up to the size limit. Not a
   * `pipeline`: that would destroy the request when git stops reading (it has answered, or found
   * the input unusable), and the client would get a reset instead of git's answer. Then the rest
   * of the body is read and dropped while git's output goes out.
   */
  private feed(req: IncomingMessage, received: Buffer | undefined, child: ChildProcess, touch: () => void, abort: (why: string, status?: number) => void): Promise<void> {
    const stdin = child.stdin!;
    // A body read already (serveDirect's, too large to inflate in memory) streams from memory.
    const raw: Readable = received ? Readable.from([received]) : req;
    const body: Readable = requestHeader(req, 'content-encoding') === 'gzip' ? raw.pipe(createGunzip()) : raw;
    const limit = new ByteLimit(this.config.GITFORGE_GIT_MAX_BODY_BYTES, touch);
    return new Promise<void>((resolve) => {
      const stopFeeding = (): void => {
        body.unpipe(limit);
        limit.unpipe(stdin);
        if (!req.destroyed) req.resume();
        resolve();
      };
      stdin.on('error', stopFeeding);
      stdin.on('close', stopFeeding);
      limit.on('error', (err) => {
        abort(err instanceof BodyTooLarge ? 'request body too large' : 'request stream failed', err instanceof BodyTooLarge ? 413 : undefined);
        stopFeeding();
      });
      body.on('error', (err) => {
        // A body that says it is gzip and is not: Gitea answers 400.
        if (isZlibError(err)) abort('request body is not valid gzip', 400);
        else abort('request stream failed');
        stopFeeding();
      });
      if (body !== raw) raw.on('error', (err) => body.destroy(err));
      body.pipe(limit).pipe(stdin);
    });
  }
}

