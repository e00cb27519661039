import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
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
  body: string;
}

export type SendResult =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: string; durationMs: number }
  | { kind: 'timeout' | 'connection' | 'refused'; message: string; durationMs: number };

class RefusedError extends Error {}
class TimeoutError extends Error {}

/** Go's canonical header form (`x-gitea-event` → `X-Gitea-Event`), as Gitea records headers. */
export function canonicalHeader(name: string): string {
  return name
    .toLowerCase()
    .split('-')
    .map((p) => (p ? p[0]!.toUpperCase() + p.slice(1) : p))
    .join('-');
}

/**
 * Sends webhook requests with Gitea's SSRF guard: every address a host name resolves to is
 * checked against the allow list before connecting (so a name cannot be made to resolve to a
 * private address between check and use), literal addresses likewise, and each redirect hop is
 * checked again. The deadline covers connecting, redirects and reading the response.
 */
export class HookSender {
  /** Connections kept open per host between deliveries, up to `maxSockets` per host (the deliveries sent at once), each until idle for `idleSocketMs`. */
  private readonly agents: { 'http:': http.Agent; 'https:': https.Agent };

  constructor(
    private readonly allowed: HostMatcher,
    private readonly settingName: string,
    private readonly timeoutMs: number,
    maxSockets = 64,
    idleSocketMs = IDLE_SOCKET_MS,
  ) {
    // `timeout` is the idle time after which the agent closes a kept connection; a delivery under
    // way has its own deadline (see `once`).
    const options = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets, timeout: idleSocketMs };
    this.agents = { 'http:': new http.Agent(options), 'https:': new https.Agent(options) };
  }

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
    let body = request.body;
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

  private once(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string,
    deadline: number,
  ): Promise<{ status: number; headers: Record<string, string>; location: string | undefined; body: string }> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !this.allowed.allows(host, host)) return Promise.reject(new RefusedError(this.refusal(host, host)));
    const lookup = (hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void): void => {
      dnsLookup(hostname, { all: true }, (err, addresses: LookupAddress[]) => {
        if (err) return callback(err);
        const usable = addresses.filter((a) => this.allowed.allows(hostname, a.address));
        if (usable.length === 0) return callback(new RefusedError(this.refusal(hostname, addresses.map((a) => a.address).join(','))));
        if (options.all) return callback(null, usable);
        callback(null, usable[0]!.address, usable[0]!.family);
      });
    };
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const remaining = deadline - Date.now();
      if (remaining <= 0) return reject(new TimeoutError('context deadline exceeded (Client.Timeout exceeded)'));
      const req = transport.request(
        url,
        {
          method,
          // The body is written as the string it is: a Buffer of each delivery's copy of the payload
          // was memory outside the heap that made the worker collect garbage more often.
          headers: method === 'GET' ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
          agent: this.agents[url.protocol as 'http:' | 'https:'],
          lookup: lookup as never,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            if (size >= RESPONSE_BODY_CAP) return;
            chunks.push(chunk.subarray(0, RESPONSE_BODY_CAP - size));
            size += chunk.length;
          });
          res.on('end', () => {
            clearTimeout(timer);
            const out: Record<string, string> = {};
            for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
              const name = canonicalHeader(res.rawHeaders[i]!);
              out[name] = out[name] !== undefined ? `${out[name]},${res.rawHeaders[i + 1]}` : res.rawHeaders[i + 1]!;
            }
            resolve({ status: res.statusCode ?? 0, headers: out, location: res.headers.location, body: Buffer.concat(chunks).toString('utf8') });
          });
          res.on('error', reject);
        },
      );
      const timer = setTimeout(() => req.destroy(new TimeoutError('context deadline exceeded (Client.Timeout exceeded while awaiting headers)')), remaining);
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.end(method === 'GET' ? undefined : body);
    });
  }

  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }
}
