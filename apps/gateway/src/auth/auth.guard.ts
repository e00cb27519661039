import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ContractError, forbidden, scopesAllow } from '@gitforge/contracts';
import { ACCESS_POLICY, type AccessPolicy } from './access-policy.js';
import { Authenticator } from './authenticator.js';

/**
 * Runs on every route: authenticates (an invalid credential is a 401 even where anonymous
 * access would do), then applies the route's AccessPolicy in Gitea's order.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const policy: AccessPolicy = {
      ...(this.reflector.get<AccessPolicy>(ACCESS_POLICY, context.getClass()) ?? {}),
      ...(this.reflector.get<AccessPolicy>(ACCESS_POLICY, context.getHandler()) ?? {}),
    };
    const auth = await this.authenticator.authenticate(request, reply);
    request.gitforge = { actor: auth?.actor ?? null, basic: auth?.basic ?? false };
    const actor = request.gitforge.actor;

    if ((policy.signIn || policy.admin || policy.basic) && !actor) throw new ContractError('unauthenticated', 'token is required');
    if (policy.basic && !request.gitforge.basic) throw new ContractError('unauthenticated', 'auth required');
    if (policy.scope && actor && actor.scopes !== null) {
      const write = request.method !== 'GET' && request.method !== 'HEAD';
      const categories = Array.isArray(policy.scope) ? policy.scope : [policy.scope];
      if (!categories.every((c) => scopesAllow(actor.scopes, c, write))) {
        const required = categories.map((c) => `${write ? 'write' : 'read'}:${c}`).join(' ');
        throw forbidden(`token does not have at least one of required scope(s), required=[${required}], token scope=${actor.scopes.join(',')}`);
      }
    }
    if (policy.admin && !actor!.isAdmin) throw forbidden('user should be the site admin');
    return true;
  }
}
