import { hostname } from 'node:os';
import { NestFactory } from '@nestjs/core';
import type { INestMicroservice } from '@nestjs/common';
import type { CustomTransportStrategy } from '@nestjs/microservices';
import type { ServiceName } from '@gitforge/contracts';
import { loadConfig, PlatformConfig } from '../config/config.js';
import { PinoNestLogger, setLogLevel } from '../logging/logger.js';
import { Database } from '../database/database.js';
import { startOpsListener } from '../metrics/ops-listener.js';
import { InProcessServer } from '../transport/in-process.js';
import { RedisStreamsServer } from '../transport/redis-streams.server.js';
import { tuneProcessHeap } from './heap.js';
import { beginDrain } from './shutdown.js';

/** The transport server the environment asks for: Redis Streams with `REDIS_URL`, in-process without. */
export function createServerStrategy(service: ServiceName, config: PlatformConfig): CustomTransportStrategy {
  if (!config.REDIS_URL) return new InProcessServer(service);
  return new RedisStreamsServer({
    url: config.REDIS_URL,
    namespace: config.GITFORGE_REDIS_NAMESPACE,
    service,
    consumer: `${config.GITFORGE_INSTANCE_ID ?? `${hostname()}-${process.pid}`}`,
    concurrency: config.GITFORGE_RPC_CONCURRENCY,
    claimIdleMs: config.GITFORGE_RPC_CLAIM_IDLE_MS,
    livenessTtlMs: config.GITFORGE_RPC_LIVENESS_TTL_MS,
    shutdownGraceMs: config.GITFORGE_SHUTDOWN_GRACE_MS,
  });
}

/**
 * Starts one domain service: its Nest module behind the transport the environment selects.
 * The same call serves the distributed entry (one process per service) and the embedded one.
 * In the distributed layout the process also opens its metrics and health listener
 * (`GITFORGE_METRICS_PORT`); the embedded process serves one `/metrics` from the gateway.
 */
export async function startService(rootModule: unknown, service: ServiceName): Promise<INestMicroservice> {
  const config = loadConfig(PlatformConfig);
  setLogLevel(config.GITFORGE_LOG_LEVEL);
  const app = await NestFactory.createMicroservice(rootModule as never, {
    strategy: createServerStrategy(service, config),
    logger: new PinoNestLogger(),
  });
  await app.listen();
  if (config.REDIS_URL) {
    const db = app.get(Database, { strict: false });
    // Unreferenced: it answers probes and scrapes while the app drains and ends with the process.
    await startOpsListener(config, `${service}-service`, async () => {
      await db.manager.query('SELECT 1');
      return true;
    });
  }
  return app;
}

/**
 * On SIGTERM/SIGINT: stops taking work ({@link beginDrain}), then `close` finishes what is in
 * flight (each part within `GITFORGE_SHUTDOWN_GRACE_MS`) and the process exits 0. Should closing
 * hang past the grace and a margin, or a second signal come, the process exits 1 at once.
 */
export function exitOnSignals(close: () => Promise<void>, graceMs = loadConfig(PlatformConfig).GITFORGE_SHUTDOWN_GRACE_MS): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (closing) process.exit(1);
    closing = true;
    beginDrain();
    // Each part gives up on its own after the grace; this only catches a close that hangs.
    setTimeout(() => {
      console.error(`shutdown after ${signal} did not finish within ${graceMs} ms and its margin`);
      process.exit(1);
    }, graceMs * 2 + 10_000).unref();
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`shutdown after ${signal} failed`, err);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** The body of an app's main.ts, the service alone in its process: tune the heap for it, start, log a fatal start error, close on signals. */
export async function runService(rootModule: unknown, service: ServiceName): Promise<void> {
  try {
    tuneProcessHeap(service);
    const app = await startService(rootModule, service);
    exitOnSignals(() => app.close());
  } catch (err) {
    console.error(`${service}-service failed to start:`, err);
    process.exit(1);
  }
}
