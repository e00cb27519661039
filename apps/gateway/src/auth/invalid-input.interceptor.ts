import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { catchError, from, type Observable } from 'rxjs';
import { ContractError } from '@gitforge/contracts';
import { InvalidInput } from '@gitforge/platform';
import { RepositoryFirst } from './repository-first.js';

/**
 * Gitea binds a request's body (and query) after it has assigned the repository and after
 * reqToken: a request the validation refuses gets the 404 of a repository its caller cannot see
 * first, and an anonymous write the 401 of a missing token (every write of Gitea's API v1 has
 * reqToken; with a valid body the services say so themselves). Costs nothing on valid requests.
 */
@Injectable()
export class InvalidInputInterceptor implements NestInterceptor {
  constructor(private readonly repositoryFirst: RepositoryFirst) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((err: unknown) => {
        if (!(err instanceof InvalidInput)) throw err;
        const request = context.switchToHttp().getRequest<FastifyRequest>();
        return from(this.answer(request, err));
      }),
    );
  }

  private async answer(request: FastifyRequest, err: InvalidInput): Promise<never> {
    const actor = request.gitforge?.actor ?? null;
    await this.repositoryFirst.assertVisible(request, actor);
    if (!actor && isApiWrite(request)) throw new ContractError('unauthenticated', 'token is required');
    throw err;
  }
}

const isApiWrite = (request: FastifyRequest): boolean =>
  request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS' && (request.routeOptions.url ?? '').startsWith('/api/v1/');
