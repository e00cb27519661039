import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  createLogger,
  createValidationPipe,
  giteaErrorBody,
  GiteaExceptionFilter,
  httpRequestDuration,
  httpRequests,
  foregroundRequests,
  httpRequestsInFlight,
  metricsResponse,
  onDrain,
  isNameablePathValue,
  loadConfig,
  normalizeJsonBody,
  parseQueryString,
  PinoNestLogger,
  RequestContexts,
  RpcClient,
  secondsSince,
  setLogLevel,
  tuneProcessHeap,
  MAX_HEADER_BYTES,
} from '@gitforge/platform';
import { registerRunnerProtocol } from './actions/runner-protocol.js';
import { InvalidInputFilter } from './auth/invalid-input.filter.js';
import { RepositoryFirst } from './auth/repository-first.js';
import { GatewayConfig } from './gateway.config.js';
import { GatewayModule } from './gateway.module.js';
import { registerOpenApiRoutes } from './openapi/openapi.js';

const log = createLogger('gateway');


/**
 * Requests that never parse (headers over the limit, a malformed request line) are answered as Go's
 * net/http answers them in front of Gitea: a plain-text status line, then the connection closes.
 */
function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const text = `${status} ${STATUS_CODES[status]}`;
  socket.end(`HTTP/1.1 ${text}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${text}`);
}

/** `POST /api/v1/repos/{owner}/{repo}/releases/{id}/assets` (a trailing or doubled slash as the router allows). */
const RELEASE_ASSET_UPLOAD = /^\/+api\/+v1\/+repos\/+[^/]+\/+[^/]+\/+releases\/+[^/]+\/+assets\/*$/;

/** `POST /api/v1/markdown/raw`: Gitea renders the body as it is, whatever its type. */
const MARKDOWN_RAW = /^\/+api\/+v1\/+markdown\/+raw\/*$/;

/** The content type the gateway gives such a body, so that it reaches the route as one unparsed string. */
const RAW_TEXT_BODY = 'application/x-gitforge-raw-text';

/** The package registries (`/api/packages/…`): every body there is streamed to repo-service unread (npm's publish document is JSON). */
const PACKAGE_REGISTRY = /^\/+api\/+packages\//;

/** Gitea's API also takes form-encoded bodies, and clients such as `curl -d` send JSON as form or text. */
function registerBodyParsers(fastify: FastifyInstance): void {
  const lenient = (_req: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void): void => {
    const trimmed = body.trim();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        done(null, normalizeJsonBody(JSON.parse(trimmed)));
      } catch (err) {
        (err as { code?: string }).code = 'FST_ERR_CTP_INVALID_JSON_BODY';
        done(err as Error);
      }
      return;
    }
    done(null, parseQueryString(body));
  };
  fastify.addContentTypeParser(['application/x-www-form-urlencoded', 'text/plain'], { parseAs: 'string' }, lenient);
  // Uploads are never read here: the gateway streams them to the service that stores them
  // (attachments to issue-service, release assets to repo-service), which parses the multipart stream
  // itself; release assets may also come as a raw body (Gitea's `application/octet-stream` upload).
  fastify.addContentTypeParser(['multipart/form-data', 'application/octet-stream'], (_request, _payload, done) => done(null, undefined));
  fastify.addContentTypeParser(RAW_TEXT_BODY, { parseAs: 'string' }, (_request, body, done) => done(null, body));
  // Gitea reads any body of an asset upload that is not multipart as the file itself, whatever its
  // type (`curl --data-binary @notes.txt -H 'Content-Type: text/plain'`): such a body is left
  // unread as octet-stream, else a text or JSON parser here would consume it and repo-service would
  // wait for bytes that never come.
  fastify.addHook('onRequest', (req, _reply, done) => {
    const type = req.raw.headers['content-type'] ?? '';
    const path = req.url.split('?')[0]!;
    if (req.method === 'POST' && RELEASE_ASSET_UPLOAD.test(path) && !/^multipart\/form-data/i.test(type))
      req.raw.headers['content-type'] = 'application/octet-stream';
    else if (PACKAGE_REGISTRY.test(path) && req.method !== 'GET' && req.method !== 'HEAD') req.raw.headers['content-type'] = 'application/octet-stream';
    else if (req.method === 'POST' && MARKDOWN_RAW.test(path)) req.raw.headers['content-type'] = RAW_TEXT_BODY;
    done();
  });
  // Gitea's binding reads an empty JSON body as `{}`: clients send `Content-Type: application/json`
  // on every request, DELETE included, and must not get a 4xx for it.
  const json = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, {});
    json(req, text, (err, value) => {
      if (err) return done(err);
      try {
        done(null, normalizeJsonBody(value));
      } catch (tooDeep) {
        done(tooDeep as Error);
      }
    });
  });
}

/** Builds the gateway application (not yet listening). */
export async function createGateway(): Promise<{ app: NestFastifyApplication; config: GatewayConfig }> {
  const config = loadConfig(GatewayConfig);
  setLogLevel(config.GITFORGE_LOG_LEVEL);
  const adapter = new FastifyAdapter({
    logger: false,
    bodyLimit: config.GITFORGE_API_BODY_LIMIT_BYTES,
    trustProxy: true,
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    clientErrorHandler,
    // Correlates one request across every service it touches.
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
    },
    // Router-level failures (a path that does not decode, a parameter over the length limit) get
    // Gitea's JSON error body too, not Fastify's own.
    frameworkErrors: (err: { code?: string }, _req: FastifyRequest, reply: FastifyReply) => {
      const notFound = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
      void reply
        .code(notFound ? 404 : 400)
        .type('application/json; charset=utf-8')
        .send(giteaErrorBody({ code: notFound ? 'not_found' : 'invalid_argument', message: notFound ? 'not found' : 'invalid URL path' }, config.rootUrl));
    },
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, caseSensitive: true, maxParamLength: 1000, querystringParser: parseQueryString },
  });
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule, adapter, {
    logger: new PinoNestLogger(),
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  registerBodyParsers(fastify);
  registerRunnerProtocol(fastify, app.get(RpcClient), config.GITFORGE_API_BODY_LIMIT_BYTES);
  fastify.addHook('onRequest', (req, reply, done) => {
    reply.header('X-Request-Id', req.id);
    (req as FastifyRequest & { startedAt?: bigint }).startedAt = process.hrtime.bigint();
    // Until the connection has the whole answer or is gone: streamed (hijacked) answers included.
    const inFlight = { method: req.method, route: req.routeOptions.url ?? 'unmatched' };
    httpRequestsInFlight.inc(inFlight);
    reply.raw.once('close', () => httpRequestsInFlight.dec(inFlight));
    // In the embedded layout the consumers of an API request's own events wait for its answer;
    // git and LFS transfers (long-lived streams, hijacked from Fastify) are not waited for.
    if (req.url.startsWith('/api/')) reply.raw.once('close', foregroundRequests.enter());
    done();
  });
  // A name in a path holding a NUL character names nothing (and no database could look it up).
  // File paths (the wildcard) are the contents routes' to judge: Gitea calls them malformed (422).
  fastify.addHook('preValidation', (req, reply, done) => {
    const params = (req.params ?? {}) as Record<string, unknown>;
    if (Object.entries(params).every(([key, value]) => key === '*' || isNameablePathValue(value))) return done();
    void reply.code(404).type('application/json; charset=utf-8').send(giteaErrorBody({ code: 'not_found', message: 'not found' }, config.rootUrl));
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    const started = (req as FastifyRequest & { startedAt?: bigint }).startedAt ?? process.hrtime.bigint();
    // By route template (`/api/v1/repos/:owner/:repo`), never by path: one series per route, not per repository.
    const labels = { method: req.method, route: req.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    httpRequests.inc(labels);
    httpRequestDuration.observe(labels, secondsSince(started));
    log.info(
      { reqId: req.id, method: req.method, url: req.url.split('?')[0], status: reply.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 },
      'request',
    );
    done();
  });
  // Prometheus metrics of this process (every app of it, in the embedded layout), as Gitea's
  // `/metrics`: off with GITFORGE_METRICS_ENABLED=false, behind a bearer token with GITFORGE_METRICS_TOKEN.
  fastify.get('/metrics', async (req, reply) => {
    const answer = await metricsResponse(config, req.headers.authorization);
    void reply.code(answer.status).header('Cache-Control', 'no-store').type(answer.contentType).send(answer.body);
  });
  registerOpenApiRoutes(fastify, app, config.rootUrl);
  // Every await of the request runs with its id, so transport calls carry it to the services.
  app.use((req: { id: string }, _res: unknown, next: () => void) => RequestContexts.run({ requestId: req.id }, next));
  // Nest asks the filter registered last first: a refused body's answer, rendered by the other.
  const render = new GiteaExceptionFilter(config.rootUrl);
  app.useGlobalFilters(render, new InvalidInputFilter(app.get(RepositoryFirst), render));
  app.useGlobalPipes(createValidationPipe());
  app.enableCors({ origin: false });
  return { app, config };
}

/**
 * On shutdown the server takes no new connection (requests on kept-alive ones are answered 503
 * with `Connection: close`), requests in flight finish within GITFORGE_SHUTDOWN_GRACE_MS, and
 * only those still running after it are cut. Connections a client keeps alive are closed as soon
 * as their request is answered, so the close does not wait for clients to hang up. (Hooks, not a
 * wrapped `app.close`: Nest's application proxy ignores assignments.)
 */
function closeGracefully(app: NestFastifyApplication, graceMs: number): void {
  const fastify = app.getHttpAdapter().getInstance();
  let sweep: NodeJS.Timeout | undefined;
  let cutOff: NodeJS.Timeout | undefined;
  const drain = (): void => {
    if (sweep) return;
    sweep = setInterval(() => fastify.server.closeIdleConnections(), 250);
    cutOff = setTimeout(() => {
      log.warn('requests still running after the shutdown grace; cutting them');
      fastify.server.closeAllConnections();
    }, graceMs);
    sweep.unref();
    cutOff.unref();
  };
  onDrain(drain);
  fastify.addHook('preClose', (done) => {
    drain();
    done();
  });
  fastify.addHook('onClose', (_instance, done) => {
    clearInterval(sweep);
    clearTimeout(cutOff);
    done();
  });
}

export async function startGateway(): Promise<NestFastifyApplication> {
  // A no-op in the embedded process, which tuned for every app in it as it began.
  tuneProcessHeap('gateway');
  const { app, config } = await createGateway();
  closeGracefully(app, config.GITFORGE_SHUTDOWN_GRACE_MS);
  await app.listen(config.PORT, config.GITFORGE_HOST);
  log.info({ port: config.PORT, rootUrl: config.rootUrl }, 'gateway listening');
  return app;
}
