import { lastValueFrom } from 'rxjs';
import type { Server } from '@nestjs/microservices';
import { ContractError, type ErrorPayload, type RpcRequest } from '@gitforge/contracts';
import { RequestContexts } from '../context/request-context.js';
import { toErrorPayload } from '../errors/error-mapping.js';
import { createLogger } from '../logging/logger.js';
import { secondsSince, transportHandled, transportHandleDuration } from '../metrics/metrics.js';

/** What a replica sends back for one request. */
export type RpcReply = { id: string; response?: unknown; err?: ErrorPayload };

const log = createLogger('transport');

type Handler = NonNullable<ReturnType<Server['getHandlerByPattern']>>;
const handlers = new WeakMap<Server, Map<string, Handler>>();

/**
 * The handler of a pattern, looked up once per server: Nest's lookup tries the pattern as JSON
 * first, and the exception it throws for a plain string cost more than many a handler. Patterns
 * without a handler are not remembered (callers choose them).
 */
function handlerOf(server: Server, pattern: string): Handler | null {
  let known = handlers.get(server);
  if (!known) handlers.set(server, (known = new Map()));
  let handler = known.get(pattern) ?? null;
  if (!handler) {
    handler = server.getHandlerByPattern(pattern);
    if (handler) known.set(pattern, handler);
  }
  return handler;
}

/**
 * Runs the `@MessagePattern` handler for `pattern` inside the request's context (request id for
 * logs and idempotency, the directory's version when the transport read it) and turns the outcome
 * into a reply. Shared by both transports so a handler behaves the same in the embedded and the
 * distributed layout.
 */
export async function invokeHandler(server: Server, id: string, pattern: string, data: unknown, directoryEpoch?: string | null): Promise<RpcReply> {
  const handler = handlerOf(server, pattern);
  if (!handler) return { id, err: { code: 'internal', message: `no handler for ${pattern}` } };
  const requestId = (data as Partial<RpcRequest> | null)?.requestId;
  return RequestContexts.run({ requestId, callId: id, directoryEpoch }, async () => {
    const started = process.hrtime.bigint();
    try {
      const result = await handler(data, undefined);
      const response = await lastValueFrom(server.transformToObservable(result), { defaultValue: undefined });
      log.debug({ pattern, ms: Number(process.hrtime.bigint() - started) / 1e6 }, 'handled');
      transportHandled.inc({ pattern, outcome: 'ok' });
      transportHandleDuration.observe({ pattern, outcome: 'ok' }, secondsSince(started));
      return { id, response };
    } catch (err) {
      // Errors normally arrive already shaped by RpcErrorFilter, which logged unexpected ones.
      if (!ContractError.isPayload(err)) log.error({ pattern, err }, 'handler failed');
      const payload = toErrorPayload(err);
      transportHandled.inc({ pattern, outcome: payload.code });
      transportHandleDuration.observe({ pattern, outcome: payload.code }, secondsSince(started));
      return { id, err: payload };
    }
  });
}
