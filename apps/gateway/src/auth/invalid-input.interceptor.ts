import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { catchError, from, type Observable } from 'rxjs';
import { ContractError, forbidden, notFound, requireRepoRight } from '@gitforge/contracts';
import { InvalidInput } from '@gitforge/platform';
import { routePolicy } from './access-policy.js';
import { RepositoryFirst } from './repository-first.js';

/**
 * Gitea binds a request's body (and query) after it has assigned the repository, after reqToken
 * and after the route's right in the repository: a request the validation refuses gets the 404
 * of a repository its caller cannot see first, then an anonymous write the 401 of a missing token
 * (every write of Gitea's API v1 has reqToken), then the 403 of a missing right where the route
 * declares one (`repoRight`, `orgOwner`, `selfOrAdmin`); the organization of an `/orgs/{org}` route
 * is assigned first too. With a valid body the services say all of this themselves.
 * Costs nothing on valid requests.
 */
@Injectable()
export class InvalidInputInterceptor implements NestInterceptor {
  constructor(
    private readonly repositoryFirst: RepositoryFirst,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((err: unknown) => {
        if (!(err instanceof InvalidInput)) throw err;
        return from(this.answer(context, err));
      }),
    );
  }

  private async answer(context: ExecutionContext, err: InvalidInput): Promise<never> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const actor = request.gitforge?.actor ?? null;
    const [repo, org] = await Promise.all([this.repositoryFirst.assertVisible(request, actor), this.repositoryFirst.assertOrgExists(request, actor)]);
    const { policy } = routePolicy(this.reflector, context);
    if (!isApiWrite(request) || policy.readOnly) throw err;
    if (policy.selfOrAdmin) {
      const self = actor && (actor.isAdmin || (request.params as { username?: string }).username?.toLowerCase() === actor.login.toLowerCase());
      if (!self) throw forbidden('doer should be the site admin or be same as the contextUser');
      if (!request.gitforge?.basic) throw new ContractError('unauthenticated', 'auth required');
    }
    if (!actor) throw new ContractError('unauthenticated', 'token is required');
    // The access is the caller's own: site administrators have every right in it.
    if (repo && policy.repoRight) requireRepoRight(repo, policy.repoRight);
    if (actor.isAdmin) throw err;
    if (org && policy.orgOwner) {
      if (policy.orgOwner === 'visible' && !org.visible) throw notFound();
      if (policy.orgOwner === 'members' && !org.isOrgMember) throw forbidden('Must be an organization member');
      if (!org.isOrgOwner) throw forbidden('Must be an organization owner');
    }
    throw err;
  }
}

const isApiWrite = (request: FastifyRequest): boolean =>
  request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS' && (request.routeOptions.url ?? '').startsWith('/api/v1/');
