import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { isDraining } from '../bootstrap/shutdown.js';
import type { PlatformConfig } from '../config/config.js';
import { createLogger } from '../logging/logger.js';
import { renderMetrics } from './metrics.js';

const log = createLogger('ops');

/**
 * Whether `Authorization` carries the metrics token (always true without one), as Gitea checks it:
 * in constant time (its subtle.ConstantTimeCompare), over digests so the length leaks nothing either.
 */
export function metricsTokenAccepted(config: PlatformConfig, authorization: string | undefined): boolean {
  if (!config.GITFORGE_METRICS_TOKEN) return true;
  if (authorization === undefined) return false;
  const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(authorization), digest(`Bearer ${config.GITFORGE_METRICS_TOKEN}`));
}

/** What `/metrics` answers on any listener: the exposition, 404 when turned off, 401 without the token. */
export async function metricsResponse(
  config: PlatformConfig,
  authorization: string | undefined,
): Promise<{ status: number; contentType: string; body: string }> {
  if (!config.GITFORGE_METRICS_ENABLED)
    return { status: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n' };
  if (!metricsTokenAccepted(config, authorization))
    return { status: 401, contentType: 'text/plain; charset=utf-8', body: 'Unauthorized\n' };
  const { contentType, body } = await renderMetrics();
  return { status: 200, contentType, body };
}

/**
 * A service process's operations listener (distributed layout, `GITFORGE_METRICS_PORT`):
 * `/metrics`, `/healthz` (the process is alive: the liveness probe) and `/readyz` (it takes work:
 * not draining and `ready()` holds, e.g. its database answers: the readiness probe).
 */
export async function startOpsListener(
  config: PlatformConfig,
  name: string,
  ready: () => Promise<boolean>,
): Promise<Server | undefined> {
  if (config.GITFORGE_METRICS_PORT === undefined) return undefined;
  const server = createServer((req: IncomingMessage, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, contentType: string, body: string): void => {
      res.writeHead(status, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(405, 'text/plain; charset=utf-8', 'Method Not Allowed\n');
    if (path === '/healthz')
      return send(200, 'application/json', JSON.stringify({ status: 'pass', service: name }));
    if (path === '/readyz') {
      if (isDraining())
        return send(
          503,
          'application/json',
          JSON.stringify({ status: 'fail', service: name, reason: 'shutting down' }),
        );
      void ready().then(
        (ok) =>
          send(
            ok ? 200 : 503,
            'application/json',
            JSON.stringify({ status: ok ? 'pass' : 'fail', service: name }),
          ),
        () => send(503, 'application/json', JSON.stringify({ status: 'fail', service: name })),
      );
      return;
    }
    if (path === '/metrics') {
      void metricsResponse(config, req.headers.authorization).then(
        (r) => send(r.status, r.contentType, r.body),
        (err: unknown) => {
          log.error({ err }, 'metrics collection failed');
          send(500, 'text/plain; charset=utf-8', 'metrics collection failed\n');
        },
      );
      return;
    }
    send(404, 'text/plain; charset=utf-8', '404 page not found\n');
  });
  // Probes and scrapes are short; nothing here may hold the process open at shutdown.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.GITFORGE_METRICS_PORT, config.GITFORGE_METRICS_HOST, () => resolve());
  });
  server.unref();
  log.info({ service: name, port: config.GITFORGE_METRICS_PORT }, 'metrics and health listener ready');
  return server;
}

/** Closes the operations listener (the last thing a process does). */
export async function closeOpsListener(server: Server | undefined): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
