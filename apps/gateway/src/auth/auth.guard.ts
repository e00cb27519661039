import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ContractError, forbidden, isPublicOnly, scopesAllow } from '@gitforge/contracts';
import { routePolicy } from './access-policy.js';
import { Authenticator } from './authenticator.js';
import { RepositoryFirst } from './repository-first.js';

/**
 * Runs on every route: authenticates (an invalid credential is a 401 even where anonymous
 * access would do), then applies the route's AccessPolicy in Gitea's order.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
    private readonly repositoryFirst: RepositoryFirst,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { policy, scopes } = routePolicy(this.reflector, context);
    const auth = await this.authenticator.authenticate(request, reply);
    request.gitforge = { actor: auth?.actor ?? null, basic: auth?.basic ?? false, policy };
    const actor = request.gitforge.actor;

    if ((policy.signIn || policy.admin) && !actor) {
      // Gitea's repoAssignment and orgAssignment run before reqToken: a hidden repository or organization is 404 first.
      await Promise.all([this.repositoryFirst.assertVisible(request, null), this.repositoryFirst.assertOrgExists(request, null)]);
      throw new ContractError('unauthenticated', 'token is required');
    }
    if (actor && actor.scopes !== null) {
      const write = request.method !== 'GET' && request.method !== 'HEAD';
      for (const scope of scopes) {
        if (!scopesAllow(actor.scopes, scope, write)) {
          const required = `${write ? 'write' : 'read'}:${scope}`;
          throw forbidden(`token does not have at least one of required scope(s), required=[${required}], token scope=${actor.scopes.join(',')}`);
        }
      }
    }
    // Gitea's /user route group checks a public-only token against the caller as its context user
    // (/user/orgs is registered apart, with no context user).
    if (auth?.hiddenPublicOnly && isOwnUserRoute(request.url)) throw forbidden('token scope is limited to public users');
    if (policy.rejectPublicOnly && actor && isPublicOnly(actor.scopes)) throw forbidden('this endpoint is not available for public-only tokens');
    if (policy.admin && !actor!.isAdmin) throw forbidden('user should be the site admin');
    return true;
  }
}

/** Whether a request path is one of Gitea's `/user` route group (the caller's own account), `/user/orgs` aside. */
export function isOwnUserRoute(url: string): boolean {
  const path = url.split('?', 1)[0]!;
  return (path === '/api/v1/user' || path.startsWith('/api/v1/user/')) && path !== '/api/v1/user/orgs';
}
