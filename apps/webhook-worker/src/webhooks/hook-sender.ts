import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import type { HostMatcher } from './host-matcher.js';

/** Response bodies are recorded up to this many bytes (the rest is discarded unread). */
export const RESPONSE_BODY_CAP = 64 * 1024;
const MAX_REDIRECTS = 10;
/**
 * How long a connection to a receiver stays open unused. Every connection a burst opened is
 * reused while deliveries keep coming (capping the idle ones instead closed a connection for
 * almost every delivery of a backlog drained at full concurrency, and opened a new one for the
 * next: a fifth of the worker's and half the receiver's CPU went to connection set-up); once the
 * burst is over they close, so a receiver that never closes idle connections is not held a socket
 * per delivery sent at once, for good. Below the 5 s of Node's and many servers' keep-alive, so
 * the receiver's close does not race a reuse (a `Keep-Alive: timeout` hint shortens it further).
 */
export const IDLE_SOCKET_MS = 4_000;

export interface HookHttpRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** Text, or the same text as bytes (one encoding shared by the deliveries of an event). */
  body: string | Buffer;
}

export type SendResult =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: string; durationMs: number }
  | { kind: 'timeout' | 'connection' | 'refused'; message: string; durationMs: number };

class RefusedError extends Error {}
class TimeoutError extends Error {}

/** What one request of a delivery (one hop of its redirects) got back. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  location: string | undefined;
  body: string;
}

/** Canonical forms of the header names receivers answer with: the same few, over and over. Bounded: cleared when full. */
const canonicalNames = new Map<string, string>();

/** Go's canonical header form (`x-gitea-event` → `X-Gitea-Event`), as Gitea records headers. */
export function canonicalHeader(name: string): string {
  let canonical = canonicalNames.get(name);
  if (canonical === undefined) {
    canonical = name
      .toLowerCase()
      .split('-')
      .map((p) => (p ? p[0]!.toUpperCase() + p.slice(1) : p))
      .join('-');
    if (canonicalNames.size >= 1_000) canonicalNames.clear();
    canonicalNames.set(name, canonical);
  }
  return canonical;
}

/**
 * Sends webhook requests with Gitea's SSRF guard: every address a host name resolves to is
 * checked against the allow list before connecting (so a name cannot be made to resolve to a
 * private address between check and use), literal addresses likewise, and each redirect hop is
 * checked again. The deadline covers connecting, redirects and reading the response.
 */
export class HookSender {
  /**
   * Connections kept open per origin between deliveries, up to `maxSockets` per origin (the
   * deliveries sent at once), each until idle for `idleSocketMs`. undici rather than node:http:
   * it spends about 40% less CPU per request, a delivery's largest cost.
   */
  private readonly agent: Agent;

  constructor(
    private readonly allowed: HostMatcher,
    private readonly settingName: string,
    private readonly timeoutMs: number,
    maxSockets = 64,
    idleSocketMs = IDLE_SOCKET_MS,
  ) {
    // Every address a name resolves to is checked before connecting (see `lookup`); a delivery's
    // deadline is its own (see `once`).
    this.agent = new Agent({
      connections: maxSockets,
      keepAliveTimeout: idleSocketMs,
      keepAliveMaxTimeout: idleSocketMs,
      // A connection not made within a delivery's timeout is given up on (the delivery itself
      // ends at its deadline, see `once`).
      connect: { lookup: this.lookup as never, timeout: timeoutMs },
    });
  }

  /** DNS resolution that answers only the allowed addresses of a name, and refuses the name when none is. */
  private readonly lookup = (hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void): void => {
    dnsLookup(hostname, { all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err);
      const usable = addresses.filter((a) => this.allowed.allows(hostname, a.address));
      if (usable.length === 0) return callback(new RefusedError(this.refusal(hostname, addresses.map((a) => a.address).join(','))));
      if (options.all) return callback(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };

  private refusal(host: string, ip: string): string {
    return `webhook can only call allowed HTTP servers (check your ${this.settingName} setting), deny '${host}(${ip})'`;
  }

  async send(request: HookHttpRequest): Promise<SendResult> {
    const started = Date.now();
    const deadline = started + this.timeoutMs;
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return { kind: 'connection', message: `invalid URL: ${request.url}`, durationMs: 0 };
    }
    let method = request.method;
    let body: string | Buffer = request.body;
    const headers = { ...request.headers };
    try {
      for (let hop = 0; ; hop++) {
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported protocol scheme "${url.protocol.replace(':', '')}"`);
        const res = await this.once(url, method, headers, body, deadline);
        const location = res.location;
        if ([301, 302, 303, 307, 308].includes(res.status) && location && hop < MAX_REDIRECTS) {
          url = new URL(location, url);
          // Like Go's client: 303, and 301/302 after a POST, continue as a GET without a body.
          if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
            method = 'GET';
            body = '';
            delete headers['Content-Type'];
          }
          continue;
        }
        return { kind: 'response', status: res.status, headers: res.headers, body: res.body, durationMs: Date.now() - started };
      }
    } catch (err) {
      const durationMs = Date.now() - started;
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof RefusedError) return { kind: 'refused', message, durationMs };
      if (err instanceof TimeoutError) return { kind: 'timeout', message, durationMs };
      return { kind: 'connection', message, durationMs };
    }
  }

  private async once(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | Buffer,
    deadline: number,
  ): Promise<Answer> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !this.allowed.allows(host, host)) throw new RefusedError(this.refusal(host, host));
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new TimeoutError('context deadline exceeded (Client.Timeout exceeded)');
    let sent = headers;
    let target = url;
    if (url.username || url.password) {
      // Credentials in the URL are sent as basic authentication (as Go's client does) unless the
      // hook sets its own Authorization header; undici sends no URL credentials itself.
      if (!Object.keys(headers).some((k) => k.toLowerCase() === 'authorization')) {
        sent = { ...headers, Authorization: `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}` };
      }
      target = new URL(url.href);
      target.username = '';
      target.password = '';
    }
    return this.exchange(target, method, sent, body, remaining);
  }

  /**
   * One request and its answer, the body read up to the cap, through undici's handler interface
   * (no response stream or promise per chunk: `request`'s stream and promises took about a tenth
   * of the worker's CPU in a backlog drain). At the deadline the exchange ends wherever it is: undici aborts a request
   * awaiting headers or its body at once, one still connecting only once connected, so the
   * deadline answers the caller itself and the abort follows when it can.
   */
  private exchange(target: URL, method: string, sent: Record<string, string>, body: string | Buffer, remaining: number): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      let controller: Dispatcher.DispatchController | undefined;
      let settled = false;
      let status = 0;
      let received: Record<string, string | string[] | undefined> = {};
      const chunks: Buffer[] = [];
      let size = 0;
      const settle = (fn: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
      };
      const answer = (): Answer => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(received)) {
          if (value !== undefined) headers[canonicalHeader(name)] = Array.isArray(value) ? value.join(',') : value;
        }
        const location = received.location;
        return { status, headers, location: Array.isArray(location) ? location[0] : location, body: Buffer.concat(chunks).toString('utf8') };
      };
      const timer = setTimeout(() => {
        settle(() => reject(new TimeoutError('context deadline exceeded (Client.Timeout exceeded while awaiting headers)')));
        controller?.abort(new TimeoutError('deadline'));
      }, remaining);
      this.agent.dispatch(
        { origin: target.origin, path: `${target.pathname}${target.search}`, method: method as Dispatcher.HttpMethod, headers: sent, body: method === 'GET' ? null : body },
        {
          onRequestStart: (c) => {
            controller = c;
            // Connected after the deadline: nobody waits for this request any more.
            if (settled) c.abort(new TimeoutError('deadline'));
          },
          onResponseStart: (_c, statusCode, headers) => {
            status = statusCode;
            received = headers;
          },
          onResponseData: (c, chunk) => {
            if (settled) return;
            chunks.push(chunk.subarray(0, RESPONSE_BODY_CAP - size));
            size += chunk.length;
            // The rest is discarded unread: the connection is closed rather than drained.
            if (size >= RESPONSE_BODY_CAP) {
              settle(() => resolve(answer()));
              c.abort(new Error('response body over the recorded size'));
            }
          },
          onResponseEnd: () => settle(() => resolve(answer())),
          onResponseError: (_c, err) =>
            settle(() =>
              // The guard's refusal, raised while connecting, comes back as the cause of undici's error.
              reject(err.cause instanceof RefusedError ? err.cause : err),
            ),
        },
      );
    });
  }

  close(): void {
    void this.agent.destroy().catch(() => undefined);
  }
}
