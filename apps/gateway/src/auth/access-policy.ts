import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Actor, ScopeCategory } from '@gitforge/contracts';

/** Who may call a route, as Gitea's router middlewares say it. */
export interface AccessPolicy {
  /** Gitea's reqToken: any signed-in caller, else 401 "token is required". */
  signIn?: boolean;
  /** Gitea's reqSiteAdmin: 403 "user should be the site admin". */
  admin?: boolean;
  /** Gitea's rejectPublicOnly: a token limited to public resources gets 403 (the caller's private data: hooks, keys, times, notifications, actions). */
  rejectPublicOnly?: boolean;
  /** Token scope categories (all of them are needed; a controller's and a route's add up); GET/HEAD need read, other methods write. */
  scope?: ScopeCategory | ScopeCategory[];
}

export const ACCESS_POLICY = 'gitforge:access-policy';

/** Merged with the controller's policy: the method's keys win, except `scope`, where both apply. */
export const Access = (policy: AccessPolicy): MethodDecorator & ClassDecorator => SetMetadata(ACCESS_POLICY, policy);

export interface AuthState {
  actor: Actor | null;
  basic: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    gitforge?: AuthState;
  }
}

/** The authenticated actor of the request, or null. */
export const CurrentActor = createParamDecorator((_: unknown, ctx: ExecutionContext): Actor | null => {
  return ctx.switchToHttp().getRequest<FastifyRequest>().gitforge?.actor ?? null;
});

/** Whether the request authenticated with HTTP Basic (routes that decide this after a lookup). */
export const BasicAuth = createParamDecorator((_: unknown, ctx: ExecutionContext): boolean => {
  return ctx.switchToHttp().getRequest<FastifyRequest>().gitforge?.basic ?? false;
});
