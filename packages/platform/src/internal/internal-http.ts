import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AddressInfo } from 'node:net';
import type { Actor } from '@gitforge/contracts';
import { onDrain, settleWithin } from '../bootstrap/shutdown.js';
import { ConfigError, type PlatformConfig } from '../config/config.js';
import { RequestContexts } from '../context/request-context.js';
import { createLogger } from '../logging/logger.js';

const log = createLogger('internal-http');

/**
 * Internal HTTP hops: byte streams (smart HTTP) that must not cross the message transport go
 * from the gateway to a service's own HTTP listener. The gateway names the caller in a signed
 * header that a client cannot forge, because only gitforge's processes know the secret.
 */
export const SIGNED_ACTOR_HEADER = 'x-gitforge-actor';

let processSecret: string | undefined;

/**
 * The secret shared by the gateway and the services for internal hops: `GITFORGE_INTERNAL_SECRET`,
 * or, when every app runs in this one process (in-process transport), a random one per process.
 * Separate processes must be given the same secret; without it this throws at start.
 */
export function internalSecret(config: PlatformConfig): string {
  if (config.GITFORGE_INTERNAL_SECRET) return config.GITFORGE_INTERNAL_SECRET;
  if (config.REDIS_URL) {
    throw new ConfigError(
      'invalid configuration:\n  GITFORGE_INTERNAL_SECRET is required when the apps run as separate processes (REDIS_URL is set); give the gateway and repo-service the same value',
    );
  }
  processSecret ??= randomBytes(32).toString('hex');
  return processSecret;
}

interface SignedActor {
  a: Actor | null;
  /** What the signature is good for, e.g. `POST /owner/repo.git/git-receive-pack`. */
  s: string;
  t: number;
  /** The request's URL at the gateway (path and query): where a `moved` answer's Location is built from. */
  u?: string;
}

/**
 * `<payload>.<hmac>`: the actor (or null for anonymous), bound to one request line and a time;
 * with the request's public URL when the gateway forwards one of its own routes.
 */
export function signActor(secret: string, actor: Actor | null, scope: string, now = Date.now(), publicUrl?: string): string {
  const signed: SignedActor = { a: actor, s: scope, t: now, ...(publicUrl === undefined ? {} : { u: publicUrl }) };
  const payload = Buffer.from(JSON.stringify(signed)).toString('base64url');
  return `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
}

export type VerifiedActor = { ok: true; actor: Actor | null; publicUrl?: string } | { ok: false };

/** Checks a {@link signActor} header for this request line; a bad, stale or missing signature is not ok. */
export function verifyActor(secret: string, header: string | undefined, scope: string, maxAgeMs = 300_000, now = Date.now()): VerifiedActor {
  if (!header) return { ok: false };
  const dot = header.lastIndexOf('.');
  if (dot <= 0) return { ok: false };
  const payload = header.slice(0, dot);
  const given = Buffer.from(header.slice(dot + 1), 'base64url');
  const expected = createHmac('sha256', secret).update(payload).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false };
  let parsed: SignedActor;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SignedActor;
  } catch {
    return { ok: false };
  }
  if (parsed.s !== scope || typeof parsed.t !== 'number' || Math.abs(now - parsed.t) > maxAgeMs) return { ok: false };
  const publicUrl = typeof parsed.u === 'string' && parsed.u.startsWith('/') && !parsed.u.startsWith('//') ? parsed.u : undefined;
  return { ok: true, actor: parsed.a ?? null, ...(publicUrl === undefined ? {} : { publicUrl }) };
}

/**
 * The public URL the gateway signed into a request to a service's listener, if the signature
 * holds: a listener answers a repository's old name with the 307 to it, as the gateway answers
 * every other route (see answerFileRequestError).
 */
export function signedPublicUrl(secret: string, req: { method?: string; url?: string; headers: Record<string, string | string[] | undefined> }): string | undefined {
  const raw = req.headers[SIGNED_ACTOR_HEADER];
  const path = (req.url ?? '/').split('?')[0]!;
  const verified = verifyActor(secret, Array.isArray(raw) ? raw[0] : raw, `${req.method ?? ''} ${path}`);
  return verified.ok ? verified.publicUrl : undefined;
}

/**
 * Largest request line and headers an HTTP listener of gitforge reads: Go's net/http limit
 * (DefaultMaxHeaderBytes), as Gitea's; Node's own is 16 KiB.
 */
export const MAX_HEADER_BYTES = 1 << 20;

/** A request id as the gateway makes them (a UUID); anything else from outside is not written into the logs. */
const REQUEST_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * A service's internal HTTP server. It reads headers as large as the gateway does: a hop carries
 * the caller's path twice (in the request line and the signed actor), so a path the gateway took
 * must not be a 431 with no body here. Each request runs under the gateway's request id
 * (`x-request-id`), so its log lines and the calls it makes to other services carry it, as a
 * transport message's do.
 */
export function createInternalServer(listener: RequestListener): Server {
  return createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    const header = req.headers['x-request-id'];
    const requestId = typeof header === 'string' && REQUEST_ID.test(header) ? header : undefined;
    RequestContexts.run({ requestId }, () => listener(req, res));
  });
}

const localListeners = new Map<string, string>();

/**
 * Starts a service's internal HTTP listener. With the in-process transport every app runs in
 * this process, so the listener takes an ephemeral loopback port (no second public port) and
 * is found by name; otherwise it binds the configured address. Answers its base URL.
 */
export async function listenInternalHttp(
  name: string,
  server: Server,
  config: PlatformConfig,
  address: { host: string; port: number },
): Promise<string> {
  const inProcess = !config.REDIS_URL;
  const host = inProcess ? '127.0.0.1' : address.host;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(inProcess ? 0 : address.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  graces.set(server, config.GITFORGE_SHUTDOWN_GRACE_MS);
  // On SIGTERM a service's own process stops accepting at once, while its requests in flight go on.
  // In one process the gateway drains first and may still open hops here, so it closes with its app.
  if (!inProcess) onDrain(() => void stopAccepting(server));
  const url = `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`;
  if (inProcess) localListeners.set(name, url);
  return url;
}

const graces = new WeakMap<Server, number>();
const stopping = new WeakMap<Server, Promise<void>>();

/** Closes the listening socket (once); resolves when its last connection has ended. Idle keep-alive connections are closed as they become idle. */
function stopAccepting(server: Server): Promise<void> {
  let stopped = stopping.get(server);
  if (!stopped) {
    const sweep = setInterval(() => server.closeIdleConnections(), 250);
    stopped = new Promise<void>((ok) => server.close(() => ok())).finally(() => clearInterval(sweep));
    stopping.set(server, stopped);
  }
  return stopped;
}

/**
 * Stops an internal listener at shutdown: it takes no new connection, requests in flight (a clone,
 * a push, an upload) finish within the shutdown grace (`GITFORGE_SHUTDOWN_GRACE_MS`), and only
 * connections still open after it are cut.
 */
export async function closeInternalHttp(server: Server | undefined): Promise<void> {
  if (!server) return;
  const stopped = stopAccepting(server);
  if (!(await settleWithin(stopped, graces.get(server) ?? 0))) {
    log.warn('internal HTTP requests still running after the shutdown grace; cutting them');
    server.closeAllConnections();
    await stopped;
  }
}

/** Where another app's internal listener is: the one in this process if there is one, else `configuredUrl`. */
export function internalHttpUrl(name: string, config: PlatformConfig, configuredUrl: string): string {
  return (!config.REDIS_URL && localListeners.get(name)) || configuredUrl.replace(/\/+$/, '');
}

/**
 * After an answer sent before the whole request body arrived (a refusal, an upload over its
 * limit): reads and drops the rest for a moment, so the client reads the answer instead of a
 * reset connection, then cuts it off. Such an answer must not say `Connection: close`: Node then
 * destroys the socket as soon as the answer is written, the body bytes still unread make the
 * kernel send a reset, and a peer that had not read the answer yet loses it (the gateway then
 * answered 502 for a refusal, under load).
 */
export function drainRequest(body: IncomingMessage, ms = 5_000): void {
  if (body.complete) return;
  body.resume();
  // Unreferenced: the cut-off is for a peer that keeps sending, never a reason to keep the process up.
  const cutOff = setTimeout(() => body.destroy(), ms).unref();
  body.once('close', () => clearTimeout(cutOff));
}

export interface ReadBodyOptions {
  /** The most bytes taken; past it the read fails with `tooLarge()`. */
  limit?: number;
  tooLarge?: () => Error;
  /** How long the body may send nothing; then the read fails with `idle()`. */
  idleMs?: number;
  idle?: () => Error;
}

/**
 * A whole request body, in memory. It fails past its limit, when it goes idle, and when the
 * request breaks off; the request is left as it is then (answer, then {@link drainRequest}).
 */
export function readBody(req: IncomingMessage, options: ReadBodyOptions = {}): Promise<Buffer> {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (err: Error | null, body?: Buffer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onData);
      if (err) reject(err);
      else resolve(body!);
    };
    const timer = options.idleMs === undefined ? undefined : setTimeout(() => settle(options.idle?.() ?? new Error('request body idle')), options.idleMs);
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) return settle(options.tooLarge?.() ?? new Error('request body too large'));
      parts.push(chunk);
      timer?.refresh();
    };
    req.on('data', onData);
    req.once('end', () => settle(null, Buffer.concat(parts)));
    req.once('error', (err) => settle(err));
    req.once('close', () => {
      if (!req.complete) settle(new Error('request broke off'));
    });
  });
}

/** What a write to a connection the other side has closed fails with. */
const DISCONNECTS = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE']);

/**
 * Streams `source` as the body of an answer whose head is written. A client that goes away
 * first is not a failure: the gateway closes its hop as soon as the answer is through, and that
 * can reach this side before the last write is acknowledged here. A failure of `source` still
 * throws, whatever its code: the pipeline then cuts the answer off too, so the error alone does
 * not tell which side gave out; the side whose end came first does.
 */
export async function sendStream(source: Readable, res: ServerResponse): Promise<void> {
  let first: 'source' | 'client' | undefined;
  // Registered before the pipeline's own listeners, so these see the first end before the pipeline passes it on.
  source.on('error', () => (first ??= 'source'));
  source.on('close', () => {
    if (!source.readableEnded) first ??= 'source';
  });
  res.on('error', () => (first ??= 'client'));
  res.on('close', () => {
    if (!res.writableFinished) first ??= 'client';
  });
  try {
    await pipeline(source, res);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (first === 'client' && code !== undefined && DISCONNECTS.has(code)) {
      source.destroy();
      return;
    }
    throw err;
  }
}

/** One value of a request header (the first, when it is repeated). */
export function requestHeader(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A percent-encoded path segment of an internal listener's route, or null when it is malformed. */
export function decodePathSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch (err) {
    if (err instanceof URIError) return null;
    throw err;
  }
}
