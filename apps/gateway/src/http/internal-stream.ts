import { Agent, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ContractError, type Actor } from '@gitforge/contracts';
import { createLogger, drainRequest, internalSecret, SIGNED_ACTOR_HEADER, signActor } from '@gitforge/platform';
import type { GatewayConfig } from '../gateway.config.js';

const log = createLogger('internal-stream');

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade']);

/**
 * The headers of a hop to `path` on a service's listener: the caller signed for this request
 * line, the request id, and only the `forwarded` client headers (above all never a forged actor
 * header).
 */
export function internalHeaders(request: FastifyRequest, secret: string, actor: Actor | null, path: string, forwarded: readonly string[]): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {
    // The public URL goes signed too: a service answering `moved` builds the 307's Location from it.
    [SIGNED_ACTOR_HEADER]: signActor(secret, actor, `${request.method} ${path}`, Date.now(), request.url),
    'x-request-id': request.id,
  };
  for (const name of forwarded) if (request.headers[name] !== undefined) headers[name] = request.headers[name];
  return headers;
}

/** The request's query string, `?` included, or nothing. */
export const searchOf = (request: FastifyRequest): string => (request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '');

export interface StreamTarget {
  url: string;
  headers: OutgoingHttpHeaders;
  agent: Agent;
  /** For the log line when the service gives no answer. */
  service: string;
  /** The 502 the client gets then. */
  badGateway: { contentType: string; body: string };
  /**
   * Send the path exactly as given. By default it goes through URL parsing, which resolves `.`
   * and `..` segments (`%2e%2e` included); a service that refuses such names itself (the package
   * registries) needs to see, and verify the signature of, the path the caller sent.
   */
  verbatimPath?: boolean;
}

/** `url` as request options whose path is not normalized. */
function verbatim(url: string): { protocol: string; hostname: string; port: string; path: string } {
  const origin = new URL(url);
  return { protocol: origin.protocol, hostname: origin.hostname, port: origin.port, path: url.slice(url.indexOf('/', origin.protocol.length + 2)) };
}

/**
 * Streams a request to a service's internal listener and its answer back, with backpressure
 * (nothing held in memory): a client that goes away takes the upstream request with it, and a
 * service that answers before the body is in (a refusal, a body over its limit) is answered at
 * once while the rest of the body is dropped.
 */
export function streamThrough(request: FastifyRequest, reply: FastifyReply, target: StreamTarget): void {
  reply.hijack();
  const res = reply.raw;
  // The hop asks to keep the connection although this side closes it after the answer: a
  // request that says `Connection: close` makes the service close its socket as soon as an early
  // answer (a refusal) is written, the body bytes still arriving then draw a reset, and this side
  // lost the answer to EPIPE and answered 502. Kept alive, the service drains the rest instead.
  const options = { method: request.method, headers: { ...target.headers, connection: 'keep-alive' }, agent: target.agent };
  const upstream = target.verbatimPath ? httpRequest({ ...verbatim(target.url), ...options }) : httpRequest(target.url, options);
  let answered = false;
  // Called by 'error' and then 'close' of one failed upstream request: the first one answers.
  const badGateway = (why: string): void => {
    if (answered) return;
    answered = true;
    log.info({ reqId: request.id, service: target.service, why }, 'request ended without an answer from the service');
    res.writeHead(502, { 'Content-Type': target.badGateway.contentType, Connection: 'close' }).end(target.badGateway.body);
  };
  upstream.on('response', (answer) => {
    answered = true;
    res.writeHead(answer.statusCode ?? 502, { ...passThrough(answer.headers), 'X-Request-Id': request.id });
    pipeline(answer, res).catch(() => res.destroy());
  });
  // Once the service has answered, its answer stream carries any failure; before that, the
  // client must still get a status rather than a hung connection.
  upstream.on('error', (err) => badGateway(err.message));
  upstream.on('close', () => badGateway('closed'));
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  res.on('finish', () => {
    request.raw.unpipe(upstream);
    // The whole answer is through: an upload the service refused early is not sent on.
    upstream.destroy();
    drainRequest(request.raw);
  });
  request.raw.on('error', () => upstream.destroy());
  request.raw.on('aborted', () => upstream.destroy());
  request.raw.pipe(upstream);
}

function passThrough(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

/** Where {@link InternalHop.hop} sends a request. */
export interface HopTarget {
  /** The service listener's base URL, and the path on it. */
  base: string;
  path: string;
  /** Client headers that cross. */
  forwarded: readonly string[];
  /** Headers set on top of them. */
  extraHeaders?: OutgoingHttpHeaders;
  service: string;
  badGateway: StreamTarget['badGateway'];
  verbatimPath?: boolean;
}

/**
 * The edge of a service's own HTTP listener (smart HTTP, LFS, files): what every such proxy
 * holds, once. Its hops use one connection per request, since a pooled connection that the
 * service closed after an aborted upload would reset the next request that picked it up; they
 * carry the caller signed with the internal secret; and the agent goes only after the HTTP
 * server has closed, so transfers in flight at shutdown finish first (Nest runs module-destroy
 * hooks before it closes the server, which would cut them).
 */
export abstract class InternalHop implements OnModuleInit, OnApplicationShutdown {
  protected readonly agent = new Agent({ keepAlive: false });
  private secret = '';

  protected constructor(protected readonly config: GatewayConfig) {}

  onModuleInit(): void {
    this.secret = internalSecret(this.config);
  }

  onApplicationShutdown(): void {
    this.agent.destroy();
  }

  /** Streams the request to the target (query string kept) and its answer back, signed for `actor`. */
  protected hop(request: FastifyRequest, reply: FastifyReply, actor: Actor | null, target: HopTarget): void {
    streamThrough(request, reply, {
      url: `${target.base}${target.path}${searchOf(request)}`,
      headers: { ...internalHeaders(request, this.secret, actor, target.path, target.forwarded), ...target.extraHeaders },
      agent: this.agent,
      service: target.service,
      badGateway: target.badGateway,
      verbatimPath: target.verbatimPath,
    });
  }
}

/** The status for credentials that failed before a hop: 403 refused, 401 missing or wrong, 500 when authentication itself failed. */
export function authFailureStatus(err: unknown): 401 | 403 | 500 {
  if (!(err instanceof ContractError)) return 500;
  return err.code === 'permission_denied' ? 403 : err.code === 'unauthenticated' ? 401 : 500;
}
