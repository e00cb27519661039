import { Catch, type RpcExceptionFilter } from '@nestjs/common';
import { ContractError } from '@gitforge/contracts';
import { throwError, type Observable } from 'rxjs';
import { isUniqueViolation } from '../database/database.js';
import { toErrorPayload } from '../errors/error-mapping.js';
import { createLogger } from '../logging/logger.js';

const log = createLogger('rpc');

/**
 * Sends ContractErrors across the transport as their payload. Anything else is a bug:
 * logged here once, with the request id, and answered as `internal` without details.
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown): Observable<never> {
    // Two requests racing to create the same thing: the loser's unique violation is a conflict, not a bug.
    if (isUniqueViolation(exception)) return throwError(() => ({ code: 'conflict', message: 'already exists' }));
    const payload = toErrorPayload(exception);
    if (payload.code === 'internal' && !(exception instanceof ContractError)) log.error({ err: exception }, 'unhandled error');
    return throwError(() => payload);
  }
}
