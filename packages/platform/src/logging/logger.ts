import type { LoggerService } from '@nestjs/common';
import { pino, type Logger } from 'pino';
import { RequestContexts } from '../context/request-context.js';

let root: Logger | undefined;

/**
 * The process's pino logger. Every line carries `reqId` when written inside a request,
 * so one request can be followed from the gateway through the transport into a service.
 */
export function rootLogger(): Logger {
  root ??= pino({
    level: 'info',
    base: { pid: process.pid },
    mixin: () => {
      const reqId = RequestContexts.requestId();
      return reqId ? { reqId } : {};
    },
    redact: { paths: ['authorization', 'password', 'token', '*.authorization', '*.password', '*.token'], censor: '***' },
  });
  return root;
}

export function setLogLevel(level: string): void {
  rootLogger().level = level;
}

export function createLogger(component: string): Logger {
  return rootLogger().child({ component });
}

/** Nest's logger interface on top of pino. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger = rootLogger()) {}
  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
