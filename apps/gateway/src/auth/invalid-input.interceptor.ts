import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { catchError, from, type Observable } from 'rxjs';
import { InvalidInput } from '@gitforge/platform';
import { RepositoryFirst } from './repository-first.js';

/**
 * Gitea binds a request's body (and query) after it has assigned the repository: a request the
 * validation refuses gets the 404 of a repository its caller cannot see first. (Whether the route
 * then wants a token before the body is the service's to say, so a 401 is not guessed here.)
 * Costs nothing on valid requests.
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
    await this.repositoryFirst.assertVisible(request, request.gitforge?.actor ?? null);
    throw err;
  }
}
